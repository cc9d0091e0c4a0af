// @ts-check
// `toolnexus-wasm/mcp` in Node: the module is compiled synchronously on import.
import { readFileSync } from "node:fs";
import { initSync } from "./toolnexus_mcp.js";

initSync({ module: readFileSync(new URL("./toolnexus_mcp_bg.wasm", import.meta.url)) });

export { ToolnexusError, a2aTools, builtinTools, httpTool, mcpTools, skillTool } from "./api.js";
export { authorizationGrant, exchangeCode } from "./oauth.js";

export function init() {
  return Promise.resolve();
}
