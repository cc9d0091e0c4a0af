// @ts-check
// `toolnexus-wasm/mcp` in Cloudflare Workers: the .wasm is imported as a compiled module.
import wasmModule from "./toolnexus_mcp_bg.wasm";
import { initSync } from "./toolnexus_mcp.js";

initSync({ module: wasmModule });

// The exports are one table for every entry: the value exports of api.js and oauth.js
// (tests/mcp/surface.test.mjs checks each entry against index.d.ts).
export * from "./api.js";
export * from "./oauth.js";
export { initSync };

export function init() {
  return Promise.resolve();
}
