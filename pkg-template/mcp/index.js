// @ts-check
// `toolnexus-wasm/mcp` for browsers, extension pages, MV3 service workers and bundlers. As in the
// default entry, `init()` is optional (the MCP client is its own small wasm module, loaded from
// beside this file on first use): `mcpTools` and `a2aTools` load it themselves, and `httpTool`,
// `builtinTools` and `skillTool` made before it loaded are declarations that a toolkit makes
// when a run first needs them. `init(input)` stays for hosts that must pass the module.
import initWasm, { initSync as initGlue } from "./toolnexus_mcp.js";
import * as api from "./api.js";
import * as oauth from "./oauth.js";
import { loadError } from "../loader.js";

// The exports are one table for every entry: the value exports of api.js and oauth.js
// (tests/mcp/surface.test.mjs checks each entry against index.d.ts). The functions below that
// need the module loaded take their place here (local exports take precedence over `export *`).
export * from "./api.js";
export * from "./oauth.js";

let ready, loaded = false;
/** Loads the MCP wasm module (idempotent). `input`: a URL, Response, BufferSource or WebAssembly.Module. */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(
    () => {
      loaded = true;
    },
    (e) => {
      ready = undefined; // a later init(input) may try again
      throw loadError(e);
    },
  );
  return ready;
}

export function initSync(module) {
  const out = initGlue(module);
  loaded = true;
  return out;
}

// Before the module loads: an async function loads it first; a declaration is plain data with
// the registered `LATER` symbol (the default entry's loader.js), whose function a toolkit calls.
const LATER = Symbol.for("toolnexus-wasm.later");
const deferred = (shown, make) => Object.defineProperty(shown, LATER, { value: async () => (await init(), make()) });
const text = (v) => (typeof v == "string" ? v : undefined);
const notLoaded = (name) => new api.ToolnexusError(`${name}: the MCP wasm module is not loaded yet: \`await init()\` (from toolnexus-wasm/mcp) first, in this handler`, "bad_state");

export const mcpTools = (options) => (loaded ? api.mcpTools(options) : init().then(() => api.mcpTools(options)));
export const a2aTools = (options) => (loaded ? api.a2aTools(options) : init().then(() => api.a2aTools(options)));
export function httpTool(definition) {
  if (loaded) return api.httpTool(definition);
  let name, description;
  try {
    ({ name, description } = definition);
  } catch {}
  return deferred({ name: text(name), description: text(description), source: "http" }, () => api.httpTool(definition));
}
// One declaration that stands for the builtins: the toolkit puts each of them in its place.
export function builtinTools(names, options) {
  return loaded ? api.builtinTools(names, options) : [deferred({}, () => api.builtinTools(names, options))];
}
export function skillTool(skills, options) {
  if (loaded) return api.skillTool(skills, options);
  const tool = deferred({ name: "skill" }, () => api.skillTool(skills, options));
  return Object.defineProperty(tool, "prompt", {
    get() {
      throw notLoaded("skillTool(...).prompt");
    },
  });
}
export function authorizationGrant(...args) {
  if (!loaded) throw notLoaded("authorizationGrant");
  return oauth.authorizationGrant(...args);
}
