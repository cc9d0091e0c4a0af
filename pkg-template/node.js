// @ts-check
// Node: the module is compiled synchronously on import; `init()` exists for symmetry.
import { readFileSync } from "node:fs";
import { initSync } from "./toolnexus_wasm.js";
import { loaded } from "./loader.js";

initSync({ module: readFileSync(new URL("./toolnexus_wasm_bg.wasm", import.meta.url)) });
loaded();

export { initSync };
export * from "./exports.js";


export function init() {
  return Promise.resolve();
}
