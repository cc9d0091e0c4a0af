// @ts-check
// How the host's callbacks are called: awaited in a promise of our own, quietly, or with the
// run's signal.
import { drained } from "./stream.js";

// Awaits what a host callback returned inside a promise of our own: a value's own `then`, a
// throwing `then` getter or a Promise's `constructor` getter then rejects it, never throws.
export async function awaited(v) {
  return v;
}

// A host callback whose outcome does not matter (`onMetric`, `onText`), wrapped so that neither
// its throw nor a rejection of the promise it returns reaches the host as uncaught.
export function quietly(f) {
  return (
    f &&
    ((a) => {
      try {
        const p = f(a);
        if (p instanceof Promise) Promise.prototype.then.call(p, undefined, () => {});
      } catch {}
    })
  );
}

// One metric event of the core (src/metrics.rs, whose `Serialize` gives the same members) for
// `onMetric` (the JS client's counter, then the caller's own), built here from plain numbers and
// strings: building it in the wasm and parsing it here was a fifth of a short run's cost.
// `kind` 0: llm (`a`, `b`: prompt and completion tokens, `c`, `d`: the cache's reads and
// writes among them, members only when not 0); 1: tool (`flag`: isError, `c`: pending); 2: run
// (`a` turns, `b` tool calls, `c` total tokens, `error`).
export function metric(f, kind, name, label, ms, a, b, c, d, flag, error) {
  f(
    kind == 0
      ? { event: "llm", model: name, status: label, ms, promptTokens: a, completionTokens: b, ...(c ? { cacheReadTokens: c } : {}), ...(d ? { cacheWriteTokens: d } : {}) }
      : kind == 1
        ? { event: "tool", tool: name, source: label, isError: flag, ms, ...(c ? { pending: true } : {}) }
        : { event: "run", model: name, turns: a, toolCalls: b, totalTokens: c, ms, ...(error == null ? {} : { error }) },
  );
}

// A host callback (`waitFor`, `onError`) as the edge calls it, `(arg, runSignal)`: once the
// run's stream has drained, `f(arg, { signal })` with the signal fetch and tools see.
export const withSignal = (f) => f && (async (arg, s) => (await drained(s), f(arg, { signal: s?.public })));
