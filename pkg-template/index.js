// Browsers, extension pages, MV3 service workers and bundlers. Call `await init()` once before
// using the API (service workers cannot use top-level await, so the package does not either).
import initWasm, { initSync } from "./toolnexus_wasm.js";

export * from "./toolnexus_wasm.js";
export { createClient, createToolkit, Toolkit, memoryStore, chromeStorageStore, kvStore, durableObjectStore, ConversationObject } from "./api.js";
export { initSync };

/** `Request.kind` of a relay tool call. */
export const RELAY_KIND = "tool_call";

let ready;
/** Loads the wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(() => undefined);
  return ready;
}
