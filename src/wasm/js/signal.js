// @ts-check
// A run's abort and timers: its signal (the caller's `signal` and the `timeoutMs` deadline as
// one), `guard` (a host promise settled when the run aborts or ends), the abort state the edge
// reads, and backoff sleeps.

// The run's abort: one internal controller per run, made only when the caller gave a `signal`
// (any object with `aborted` and `addEventListener`) or a `timeoutMs` deadline; without either
// there is nothing to listen to and no race at all. Fetch, the body reader, tools and the backoff
// sleep race the internal signal; fetch and tools see it as `public` (the caller's own signal
// when there is no deadline). `endRun` removes the listener from the caller's signal, clears
// the deadline's timer and settles what the run still waits on: wasm-bindgen frees the callbacks
// of an awaited promise only when it settles, so nothing is kept per settled run.
const RUN = Symbol();
/** @typedef {AbortSignal & { public?: AbortSignal }} RunSignal the run's signal, and the one fetch and tools see */
/** @returns {RunSignal} */
export function runSignal(u, ms, stream) {
  const c = new AbortController();
  const s = /** @type {RunSignal} */ (c.signal);
  if (u === null || typeof u !== "object") u = undefined;
  // A stream's run is aborted by its consumer leaving too: fetch and tools get the run's own.
  s.public = ms === undefined && !stream ? u : s;
  // Aborting ends the run: what it awaits settles (`guard`, `onAbort`, `sleep`).
  const stop = (reason) => (c.abort(reason), endRun(s));
  // A `reason` that throws aborts all the same (the default AbortError), throwing at no one.
  const on = () => {
    let r;
    try {
      r = u.reason;
    } catch {}
    stop(r);
  };
  let t;
  s[RUN] = [
    () => {
      clearTimeout(t);
      // `?.`: without a caller's signal there is nothing to remove, and a TypeError caught per
      // run cost more than the rest of the run's signal (a thrown error captures a stack).
      try {
        u?.removeEventListener("abort", on);
      } catch {}
    },
  ];
  if (ms !== undefined) t = setTimeout(() => stop(named("TimeoutError")), ms);
  try {
    if (u?.aborted) on();
    else u?.addEventListener("abort", on, { once: true });
  } catch {}
  stream?.bind(s, stop);
  return s;
}

export function endRun(s) {
  for (const f of s?.[RUN]?.splice(0) ?? []) f();
}

const named = (name) => Object.assign(new Error(name), { name });

// `p`, rejected with an AbortError when the run aborts (or ends): a host promise that never
// settles (a fetch or tool that ignores the signal, a parked `waitFor`, a store) must not keep
// the run's callbacks alive. Without a signal nothing can end a run early: `p` as is.
export function guard(p, s) {
  return s?.[RUN]
    ? new Promise((resolve, reject) => {
        const stop = () => reject(named("AbortError"));
        s.aborted ? stop() : s[RUN].push(stop);
        // A settled call's stop leaves the run's list: a stream guards each body read, and every
        // stop kept would hold the bytes it guarded and build an AbortError when the run ends.
        Promise.resolve(p)
          .then(resolve, reject)
          .then(() => s[RUN].splice(s[RUN].indexOf(stop) >>> 0, 1));
      })
    : p;
}

// 0: not aborted; 1: aborted; 2: aborted by a deadline (the reason is a TimeoutError).
export function abortState(s) {
  if (!s?.aborted) return 0;
  // A caller's reason whose `name` throws is no deadline.
  try {
    const r = s.reason;
    return r !== null && typeof r === "object" && r.name === "TimeoutError" ? 2 : 1;
  } catch {
    return 1;
  }
}

// A backoff sleep, cut short (its timer cleared) when the run's signal aborts: an aborted run
// must not keep the process alive until the timer fires. A host without `setTimeout` does not
// wait (the rejection ends the sleep). `ms` is within the timer range (the core clamps it).
// Without `ms` it is the wait for the abort: it resolves once the run aborts, or when it ends
// (then nothing awaits it).
export function sleep(ms, s) {
  return new Promise((resolve) => {
    const t = s?.aborted ? undefined : ms >= 0 ? setTimeout(resolve, ms) : undefined;
    if (s?.aborted) resolve();
    s?.[RUN]?.push(() => (clearTimeout(t), resolve()));
  });
}
