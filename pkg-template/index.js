// Browsers, extension pages, MV3 service workers and bundlers. Call `await init()` once before
// using the API (service workers cannot use top-level await, so the package does not either).
// Until then every function throws a ToolnexusError `bad_state` that says so, instead of the
// glue's bare TypeError on its missing wasm exports.
import initWasm, * as glue from "./toolnexus_wasm.js";
import * as api from "./api.js";

export * from "./toolnexus_wasm.js";
export { Toolkit, memoryStore, chromeStorageStore, kvStore, durableObjectStore, ConversationObject, ToolnexusError, jsonSchema } from "./api.js";

/** `Request.kind` of a relay tool call. */
export const RELAY_KIND = "tool_call";

let ready, loaded = false;
/** Loads the wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(() => {
    loaded = true;
  });
  return ready;
}

/** Loads the wasm module synchronously from its bytes or a compiled WebAssembly.Module. */
export function initSync(module) {
  glue.initSync(module !== null && typeof module === "object" && "module" in module ? module : { module });
  loaded = true;
}

const guard = (name, f) => function (...args) {
  if (!loaded) throw new api.ToolnexusError(`toolnexus-wasm is not loaded: \`await init()\` before ${name}()`, "bad_state");
  return f.apply(this, args);
};
// Local exports take precedence over the `export *` above.
export const createClient = guard("createClient", api.createClient);
export const createToolkit = guard("createToolkit", api.createToolkit);
export const defineTool = guard("defineTool", api.defineTool);
export const relayTool = guard("relayTool", glue.relayTool);
export const pending = guard("pending", glue.pending);
export const authRequired = guard("authRequired", glue.authRequired);
export const isRelayRequest = guard("isRelayRequest", glue.isRelayRequest);
export const relayCallsOf = guard("relayCallsOf", glue.relayCallsOf);
export const relayAnswer = guard("relayAnswer", glue.relayAnswer);
export const checkRevision = guard("checkRevision", glue.checkRevision);
