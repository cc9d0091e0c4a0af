// @ts-check
// `toolnexus-wasm/mcp` for browsers, extension pages, MV3 service workers and bundlers: call
// `await init()` once before `mcpTools` (the MCP client is its own small wasm module). Until then
// every function throws (`mcpTools` and `a2aTools` reject with) a ToolnexusError `bad_state` that
// says so, instead of the glue's bare TypeError on its missing wasm exports.
import initWasm, { initSync as initGlue } from "./toolnexus_mcp.js";
import * as api from "./api.js";
import * as oauth from "./oauth.js";

export { ToolnexusError } from "./api.js";

let ready, loaded = false;
/** Loads the MCP wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(() => {
    loaded = true;
  });
  return ready;
}

export function initSync(module) {
  const out = initGlue(module);
  loaded = true;
  return out;
}

const guarded = (name, f, async) => (...args) => {
  if (loaded) return f(...args);
  const e = new api.ToolnexusError(`${name}: \`await init()\` first`, "bad_state");
  if (async) return Promise.reject(e);
  throw e;
};
export const mcpTools = guarded("mcpTools", api.mcpTools, true);
export const a2aTools = guarded("a2aTools", api.a2aTools, true);
export const httpTool = guarded("httpTool", api.httpTool);
export const builtinTools = guarded("builtinTools", api.builtinTools);
export const skillTool = guarded("skillTool", api.skillTool);
export const authorizationGrant = guarded("authorizationGrant", oauth.authorizationGrant);
export { exchangeCode } from "./oauth.js";
