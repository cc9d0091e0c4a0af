// @ts-check
// `toolnexus-wasm/mcp` in Node: the module is compiled synchronously on import.
import { readFileSync } from "node:fs";
import { initSync } from "./toolnexus_mcp.js";

initSync({ module: readFileSync(new URL("./toolnexus_mcp_bg.wasm", import.meta.url)) });

// The exports are one table for every entry: the value exports of api.js and oauth.js
// (tests/mcp/surface.test.mjs checks each entry against index.d.ts).
export * from "./api.js";
export * from "./oauth.js";
export { initSync };

export function init() {
  return Promise.resolve();
}
