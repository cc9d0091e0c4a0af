// The side panel: one port to the service worker; a prompt goes out, the run's events come back
// as the worker reads them from client.stream, and the text is shown as it arrives.
const answer = /** @type {HTMLElement} */ (document.querySelector("#answer"));
const input = /** @type {HTMLInputElement} */ (document.querySelector("#prompt"));
const port = chrome.runtime.connect({ name: "agent" });

port.onMessage.addListener((event) => {
  if (event.type === "text") answer.textContent += event.delta;
  if (event.type === "tool_result") answer.textContent += `[${event.name} → ${event.output}] `;
  if (event.type === "error") answer.textContent = `Error: ${event.message}`;
  if (event.type === "done" || event.type === "error") document.body.dataset.status = event.type;
});

document.querySelector("#ask")?.addEventListener("submit", (e) => {
  e.preventDefault();
  answer.textContent = "";
  delete document.body.dataset.status;
  port.postMessage({ prompt: input.value });
});
