// @ts-check
// The declarations: `defineTool`, `relayTool` and `relayAnswer`, usable before the wasm module
// loads (the browser entry loads it on first use: a service worker that just woke may get its
// event first). Until then a declaration is plain data: what it will be, with a `LATER` function
// that makes it as it would have been made after the load, checked. A toolkit calls that when a
// run first needs its tools, so a refusal surfaces there, with the same message.

import { isLoaded, LATER } from "./loader.js";
import { answerOf, declareRelay, declareTool } from "./api.js";
import { schemaTool } from "./schema-tools.js";

function deferred(shown, make) {
  let o = {};
  try {
    o = { ...shown };
  } catch {} // a hostile object: `make` refuses it when the toolkit binds
  Object.defineProperty(o, LATER, { value: make });
  return o;
}

/** Whether `t` is a declaration made before the module loaded (`deferred`). */
export function isLater(t) {
  try {
    return typeof t?.[LATER] == "function";
  } catch {
    return false;
  }
}

/** `relayTool(name, description?, schema?)`: a declaration-only tool whose calls go to the host. */
export function relayTool(name, description, schema) {
  const make = () => declareRelay(name, description, schema);
  return isLoaded() ? make() : deferred({ name, description, inputSchema: schema, source: "relay" }, make);
}

/**
 * `relayAnswer(requestId, results)`: the answer to a relay request. Before the module loads it
 * is the Answer as data, which the run reads and checks where it is used, as it does an Answer
 * written by hand.
 */
export function relayAnswer(requestId, results) {
  return isLoaded() ? answerOf(requestId, results) : { id: requestId, ok: true, data: { results } };
}

/** `defineTool(def)`: `inputSchema` is a JSON Schema or a Standard Schema (zod, valibot, arktype). */
export function defineTool(def) {
  const tool = schemaTool(def);
  return isLoaded() ? declareTool(tool) : deferred(tool, () => declareTool(tool));
}
