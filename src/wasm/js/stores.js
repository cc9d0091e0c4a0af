// @ts-check
// The conversation store's calls (the stores themselves are pkg-template/stores.js's).
import { drained } from "./stream.js";

// One store call, `method(id, state?)` with the store as `this`, awaited; `state` crosses as
// JSON text (a save waits for the run's stream to drain). Resolves to [value], or [] when the store lacks the method; rejects with what the
// store threw.
export async function callStore(s, m, id, state, signal) {
  if (state !== undefined) await drained(signal);
  const f = s?.[m];
  if (typeof f !== "function") return [];
  return [await (state === undefined ? f.call(s, id) : f.call(s, id, JSON.parse(state)))];
}
