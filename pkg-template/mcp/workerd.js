// @ts-check
// `toolnexus-wasm/mcp` in Cloudflare Workers: the .wasm is imported as a compiled module.
import wasmModule from "./toolnexus_mcp_bg.wasm";
import { initSync } from "./toolnexus_mcp.js";

initSync({ module: wasmModule });

export { ToolnexusError, a2aTools, builtinTools, httpTool, mcpTools, skillTool } from "./api.js";
export { authorizationGrant, exchangeCode } from "./oauth.js";

export function init() {
  return Promise.resolve();
}
