// Cloudflare Workers: workerd only instantiates precompiled modules, so the .wasm is imported as
// a module (CompiledWasm) and instantiated synchronously. No nodejs_compat needed.
import wasmModule from "./toolnexus_wasm_bg.wasm";
import { initSync } from "./toolnexus_wasm.js";

initSync({ module: wasmModule });

export * from "./toolnexus_wasm.js";
export { createClient, createToolkit, defineTool, Toolkit, memoryStore, chromeStorageStore, kvStore, durableObjectStore, ConversationObject, ToolnexusError, jsonSchema } from "./api.js";

/** `Request.kind` of a relay tool call. */
export const RELAY_KIND = "tool_call";

export function init() {
  return Promise.resolve();
}
