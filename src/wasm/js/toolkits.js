// @ts-check
// Which toolkit a run is given: a bound `Toolkit` by its id, else a list of tools.
import { gate } from "./approvals.js";

// Toolkits made by `createToolkit`, mapped to their decoded tools' id in the wasm. Only the
// object itself finds them: a plain `{ id }` or a copied handle cannot pose as a toolkit.
// `kitId(o, true)` binds `o` to a new id unless it has one; `kitId(o)` is o's id, or 0.
const kits = new WeakMap();
let lastKit = 0;
export function kitId(o, bind) {
  if (bind && o !== null && typeof o === "object" && !kits.has(o)) kits.set(o, (lastKit = (lastKit % 4294967295) + 1));
  return kits.get(o) ?? 0;
}

// A run's toolkit: a Toolkit's id, else a real array copy of its tools (an array of tools, or
// `{ tools }`), else undefined (a getter that throws, a revoked Proxy included).
export function kitOf(t) {
  try {
    return kits.get(t) ?? (listOf(t) ?? listOf(t.tools))?.map(gate);
  } catch {}
}

// A real array copy of `v` when it is an array (of a toolkit's tools), else undefined; an array
// that throws on reading (a Proxy, an index getter) is refused too.
export function listOf(v) {
  try {
    if (Array.isArray(v)) return Array.from(v);
  } catch {}
}
