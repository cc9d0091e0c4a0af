// @ts-check
// Browsers, extension pages, MV3 service workers and bundlers. `init()` is optional: the first
// call that needs the wasm loads it from beside this file (`new URL(..., import.meta.url)`, which
// bundlers follow). Declarations (`defineTool`, `relayTool`, `createToolkit`, `createClient`,
// `relayAnswer`, `jsonSchema`, the stores) work at module level before that, and every async
// method waits for the module itself, so a service worker needs no top-level await (which Chrome
// refuses there). `init(input)` stays for hosts that must say where the module is (esbuild's file
// loader) and for loading it ahead of time. See docs/decisions/init-optional.md.
import initWasm, * as glue from "./toolnexus_wasm.js";
import * as api from "./exports.js";
import { isLoaded, loadError, loaded, setLoader } from "./loader.js";

export * from "./exports.js";

/** @type {Promise<void> | undefined} */
let ready;
/** Loads the wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(loaded, (e) => {
    ready = undefined; // a later init(input) may try again, with the right URL say
    throw loadError(e);
  });
  return ready;
}
setLoader(() => init());

/** Loads the wasm module synchronously from its bytes or a compiled WebAssembly.Module. */
export function initSync(module) {
  glue.initSync(module !== null && typeof module === "object" && "module" in module ? module : { module });
  loaded();
}

// The functions that read requests or states with the wasm, guarded (local exports take
// precedence over `export *`): before the module loads, a `bad_state` that says what to do
// instead of the glue's bare TypeError. They are called in handlers, where awaiting is allowed.
const guarded = {};
for (const name of ["pending", "authRequired", "isRelayRequest", "relayCallsOf", "checkRevision"]) {
  const f = api[name];
  guarded[name] = (...args) => {
    if (!isLoaded()) {
      throw new api.ToolnexusError(`${name}: the wasm module is not loaded yet: \`await init()\` first, in this handler (it is idempotent; a service worker cannot await at its top level, and any client call loads the module too)`, "bad_state");
    }
    return f(...args);
  };
}
export const { pending, authRequired, isRelayRequest, relayCallsOf, checkRevision } = guarded;
