// @ts-check
// Browsers, extension pages, MV3 service workers and bundlers. Call `await init()` once before
// using the API (service workers cannot use top-level await, so the package does not either).
// Until then every function throws a ToolnexusError `bad_state` that says so, instead of the
// glue's bare TypeError on its missing wasm exports.
import initWasm, * as glue from "./toolnexus_wasm.js";
import * as api from "./api.js";

export * from "./api.js";


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

// Each function that needs the wasm, guarded; local exports take precedence over `export *`.
const guarded = {};
for (const [name, f] of Object.entries(api)) {
  guarded[name] = (...args) => {
    if (!loaded) throw new api.ToolnexusError(`${name}: \`await init()\` first`, "bad_state");
    return /** @type {Function} */ (f)(...args);
  };
}
export const { createClient, createToolkit, defineTool, relayTool, pending, authRequired, isRelayRequest, relayCallsOf, relayAnswer, checkRevision } = guarded;
