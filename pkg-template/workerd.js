// @ts-check
// Cloudflare Workers: workerd only instantiates precompiled modules, so the .wasm is imported as
// a module (CompiledWasm) and instantiated synchronously. No nodejs_compat needed.
import wasmModule from "./toolnexus_wasm_bg.wasm";
import { initSync } from "./toolnexus_wasm.js";
import { loaded } from "./loader.js";

initSync({ module: wasmModule });
loaded();

export { initSync };
export * from "./exports.js";


export function init() {
  return Promise.resolve();
}
