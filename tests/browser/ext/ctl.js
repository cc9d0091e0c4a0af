// The test's way into the service worker: a message from an extension page (which also wakes a
// stopped worker, as any extension event does).
globalThis.command = async (cmd, cfg) => {
  const r = await chrome.runtime.sendMessage({ cmd, cfg });
  if (r?.error) throw new Error(`${r.code ?? "error"}: ${r.error}`);
  return r?.value;
};
document.title = "ready";
