// @ts-check
// The options objects the host passes, read once each: `createClient`'s (as JSON text for the
// core, and its host functions) and an operation's.
import { quietly, withSignal } from "./callbacks.js";
import { runSignal } from "./signal.js";

// `createClient`'s options as JSON text for the core to read (src/options.rs): a function
// option is `true` there (so the core sees every key it must check against its table), and the
// store, an object of the host's, not data, is left out. A value that is not JSON data (a cycle,
// a BigInt) gives "", which the core refuses.
export function optionsJson(o) {
  return shapeJson(o, "store");
}

// An object as JSON text with its own functions as `true` (a tool's `run`, `needsApproval`,
// `execute`), so the core checks every key; `drop` is left out. "" for what is not JSON data.
export function shapeJson(o, drop) {
  try {
    return JSON.stringify(o, function (k, v) {
      return this !== o ? v : k === drop ? undefined : typeof v === "function" || v;
    });
  } catch {
    return "";
  }
}

// The own keys of an object whose value is not `undefined` (as JSON drops them); [] for anything
// else. A getter that throws throws.
export function keysOf(o) {
  return o !== null && typeof o === "object" && !Array.isArray(o) ? Object.keys(o).filter((k) => o[k] !== undefined) : [];
}

// What a call's options hold besides JSON data, read once (one crossing), each checked.
// Throws the message of a refusal, or what a getter threw. `signal` is the run's (`runSignal`),
// made only when something can abort the run: the caller's signal, the deadline `ms`, or the
// `stream` its consumer may leave; never for a call that is no run (`run` false: `discard`).
// The slots are the core's `RunSlot` (src/ops.rs, whose tests read this typedef).
// `keys` are the options' own keys whose value is not `undefined`, which the core checks against
// what the operation reads (`options::check_call_options`): `run(p, { tools })` is refused, not
// run without tools.
/** @typedef {[toolkit: unknown, signal: any, onText: Function | undefined, id: string | undefined, keepHistory: boolean, history: unknown, keys: string[]]} RunOptions */
/** @returns {RunOptions} */
export function runOptions(o, run, ms, stream) {
  /** @type {RunOptions} */
  let a = [undefined, undefined, undefined, undefined, false, undefined, []];
  if (o != null) {
    if (typeof o !== "object") throw "options must be an object";
    const { toolkit, signal: s, id, history } = o;
    if (s != null && !(typeof s.aborted === "boolean" && typeof s.addEventListener === "function")) {
      throw "options.signal must be an AbortSignal";
    }
    if (id != null && typeof id !== "string") throw "options.id must be a string";
    a = [toolkit, s ?? undefined, quietly(fn(o, "onText", "options")), id || undefined, o.keepHistory === true, history, keysOf(o)];
  }
  a[1] = run && (a[1] || ms !== undefined || stream) ? runSignal(a[1], ms, stream) : undefined;
  return a;
}

// The data fields of a resume call's options as JSON text, for the core's reader
// (`conversation::ResumeOptions`); "" (refused there) for a value that is not JSON data.
export function resumeJson(o) {
  if (o === null || typeof o !== "object") return "{}";
  try {
    return JSON.stringify({ answer: o.answer, pending: o.pending, state: o.state, history: o.history, id: o.id });
  } catch {
    return "";
  }
}

// The host's objects among `createClient`'s options, checked (`undefined` when absent, `dflt`
// for the store; `onMetric` wrapped by `quietly`, `waitFor` and `onError` by `withSignal`).
// Throws the message of a refusal as a string, or what a getter threw. The array's slots are the
// core's `HostSlot`, derived from the rows of its options table that the edge reads
// (src/options.rs): it is `slots`' values, named by their keys, which a test there checks are
// `HostSlot`'s names in its order, so two slots cannot trade places unnoticed.
/** @returns {unknown[]} */
export function hostOptions(o, dflt) {
  o = o !== null && typeof o === "object" ? o : {};
  const s = o.store;
  if (s != null && !["get", "save", "delete"].every((m) => typeof s[m] === "function")) {
    throw "store must have get(id), save(id, state) and delete(id) methods";
  }
  const h = o.hooks, c = "createClient options";
  const [w, f, m, e] = ["waitFor", "fetch", "onMetric", "onError"].map((k) => fn(o, k, c));
  if (h != null && typeof h !== "object") throw "hooks must be an object of functions";
  const hook = (k) => fn(h ?? {}, k, "hooks");
  const slots = {
    waitFor: withSignal(w),
    store: s ?? dflt,
    onMetric: quietly(m),
    fetch: f,
    onError: withSignal(e),
    beforeLLM: hook("beforeLLM"),
    afterLLM: hook("afterLLM"),
    beforeTool: hook("beforeTool"),
    afterTool: hook("afterTool"),
    bodyTransform: fn(o, "bodyTransform", c),
  };
  return Object.values(slots);
}

function fn(o, k, what) {
  const f = o[k];
  if (f != null && typeof f !== "function") throw `${what}.${k} must be a function`;
  return f ?? undefined;
}
