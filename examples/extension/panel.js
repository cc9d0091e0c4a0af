// The side panel: sends prompts to the service worker, streams its events, and asks the person
// to approve each relay call before the content script performs it in the tab.
const $ = (id) => document.getElementById(id);
const chat = $("chat");
// The tab the agent acts in: ?tab=<id> (tests), else the active tab of this window.
const fixedTab = Number(new URLSearchParams(location.search).get("tab")) || null;
async function targetTab() {
  if (fixedTab) return fixedTab;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id;
}

function add(cls, text) {
  const div = document.createElement("div");
  div.className = `msg ${cls}`;
  div.textContent = text;
  chat.append(div);
  chat.scrollTop = chat.scrollHeight;
  return div;
}

let port;
let streaming = null; // the assistant bubble being streamed into
function connect() {
  port = chrome.runtime.connect({ name: "panel" });
  port.onMessage.addListener(onMessage);
  // The worker may be stopped by Chrome at any time; reconnecting wakes a new one.
  port.onDisconnect.addListener(() => setTimeout(connect, 200));
  targetTab().then((tabId) => port.postMessage({ type: "hello", tabId }));
}

function onMessage(msg) {
  if (msg.type === "event") {
    const e = msg.event;
    if (e.type === "text") (streaming ??= add("assistant", "")).textContent += e.delta;
    if (e.type === "tool_call") { streaming = null; add("tool", `→ ${e.name}(${JSON.stringify(e.args)})`); }
    if (e.type === "tool_result") add("tool", `← ${e.name}: ${e.output}${e.isError ? " (error)" : ""}`);
    if (e.type === "done") { streaming = null; document.body.dataset.status = e.result.status; if (e.result.status === "done") document.body.dataset.answer = e.result.text; }
  }
  if (msg.type === "resuming") add("tool", "Resuming the run that was waiting for you…");
  if (msg.type === "approve") approval(msg.request, msg.calls);
  if (msg.type === "relay-result") add("tool", `✓ ${msg.call.name}: ${msg.result?.output ?? ""}${msg.result?.isError ? " (error)" : ""}`);
  if (msg.type === "error") add("error", `${msg.code ?? "error"}: ${msg.message}`);
  if (msg.type === "reset") { chat.textContent = ""; delete document.body.dataset.status; }
}

function approval(request, calls) {
  document.querySelectorAll(`.card[data-request="${request.id}"]`).forEach((c) => c.remove());
  const card = document.createElement("div");
  card.className = "card";
  card.dataset.request = request.id;
  card.textContent = `Allow the agent to ${calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join(", ")} in this tab? `;
  for (const [label, approved] of [["Allow", true], ["Decline", false]]) {
    const b = document.createElement("button");
    b.textContent = label;
    b.className = approved ? "allow" : "decline";
    b.onclick = () => { card.remove(); port.postMessage({ type: "decision", requestId: request.id, approved }); };
    card.append(b);
  }
  chat.append(card);
  document.body.dataset.status = "waiting";
}

$("ask").onsubmit = async (ev) => {
  ev.preventDefault();
  const prompt = $("prompt").value.trim();
  if (!prompt) return;
  $("prompt").value = "";
  add("user", prompt);
  streaming = null;
  document.body.dataset.status = "running";
  port.postMessage({ type: "prompt", prompt, tabId: await targetTab() });
};
$("reset").onclick = () => port.postMessage({ type: "reset" });
chrome.storage.local.get("provider").then(({ provider }) => { $("provider").textContent = provider?.apiKey ? `${provider.style} · ${provider.model}` : "scripted model (offline)"; });
connect();
