// Performs one relay call in the tab: the content script (content.js) clicks, types, reads or
// navigates; a screenshot is taken here (chrome.tabs.captureVisibleTab gives a PNG data URL) and
// goes back as an image part the model sees. The service worker (the loop run here) and the
// panel (the calls of a Workflow backend's agent) both use it: a call is done the same way
// wherever the loop runs.

/** The screenshot tool: the tab's pixels as an image part for the model. */
async function screenshot(tabId) {
  const { windowId } = await chrome.tabs.get(tabId);
  const url = await chrome.tabs.captureVisibleTab(windowId, { format: "png" }); // a data: URL
  return { output: "a screenshot of the visible tab", parts: [{ type: "image", url }] };
}

/** `{ output, isError, parts? }` for a relay call (`{ name, input }`) in tab `tabId`; a tab that
 * does not answer is an error result, which the model reads. */
export async function perform(call, tabId) {
  try {
    const r = call.name === "screenshot" ? await screenshot(tabId) : await chrome.tabs.sendMessage(tabId, { type: "relay-call", call });
    return { output: r?.output ?? "", isError: r?.isError === true, ...(r?.parts ? { parts: r.parts } : {}) };
  } catch (e) {
    return { output: `the tab did not answer: ${e.message}`, isError: true };
  }
}
