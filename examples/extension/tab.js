// Performs one relay call of a Workflow backend's agent (backend.js) in tab `tabId` with the
// browser kit (toolnexus-wasm/browser), the code the service worker's own runs use. The
// backend's tools (examples/workflow) are named without the kit's prefix and point at elements
// by CSS selector, which the kit accepts in place of a ref; the person has already allowed the
// call in the panel, so the kit runs it without asking.
import { browserTools } from "./pkg/browser.js";

/** `{ output, isError, parts? }` for a relay call (`{ name, input }`); a failure is an error result the model reads. */
export async function perform(call, tabId) {
  try {
    const r = await browserTools({ tabId }).run(`browser_${call.name}`, call.input ?? {});
    return { output: r.output, isError: false, ...(r.parts ? { parts: r.parts } : {}) };
  } catch (e) {
    return { output: `${e.code ?? "error"}: ${e.message}`, isError: true };
  }
}
