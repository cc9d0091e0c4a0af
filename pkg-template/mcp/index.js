// `toolnexus-wasm/mcp` for browsers, extension pages, MV3 service workers and bundlers: call
// `await init()` once before `mcpTools` (the MCP client is its own small wasm module).
import initWasm, { initSync } from "./toolnexus_mcp.js";

export { a2aTools, builtinTools, httpTool, mcpTools, skillTool } from "./api.js";
export { initSync };

let ready;
/** Loads the MCP wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(() => undefined);
  return ready;
}
