// Runs in every page: performs one relay call and reports what really happened.
chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  if (msg?.type !== "relay-call") return false;
  const { name, input } = msg.call;
  const fail = (output) => reply({ output, isError: true });
  try {
    if (name === "navigate") {
      reply({ output: `navigating to ${input.url}`, isError: false });
      location.href = input.url;
      return false;
    }
    const el = document.querySelector(input.selector);
    if (!el) return fail(`no element matches ${input.selector}`), false;
    if (name === "click") {
      el.click();
      reply({ output: `clicked ${input.selector}`, isError: false });
    } else if (name === "type") {
      el.focus();
      el.value = input.text ?? "";
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      reply({ output: `typed "${input.text}" into ${input.selector}`, isError: false });
    } else if (name === "read_text") {
      reply({ output: (el.innerText ?? el.value ?? "").slice(0, 4000), isError: false });
    } else {
      fail(`unknown action ${name}`);
    }
  } catch (e) {
    fail(String(e?.message ?? e));
  }
  return false;
});
