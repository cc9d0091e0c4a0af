// A model of the Workflows engine's replay rules, for tests in Node (tests/js/workflows.test.mjs,
// tests/mcp/workflows.test.mjs; the real runtime, Miniflare's, is driven in tests/workflows/):
// each `replay()` runs `run(step)` from the top; a finished step hands back its kept result
// without running; a wait with no event yet parks the instance (the replay ends there), and the
// next replay after `send(event)` runs to it again and on.
const PARK = Symbol("park");

/** One Workflow instance: its kept step results and its event queue, across replays of run(). */
export function instance(run) {
  const kept = new Map(); // "<name>-<n>" → { value } | { error }
  const events = [];
  const log = [];
  const timedOut = new Set();
  let attempts = 0;
  const engine = {
    log,
    kept,
    failNext: new Map(), // step name → how many attempts throw before the real one
    send: (e) => events.push(e),
    expire: (name) => timedOut.add(name),
    get attempts() { return attempts; },
    async replay() {
      const counts = new Map();
      const key = (name) => {
        const n = (counts.get(name) ?? 0) + 1;
        counts.set(name, n);
        return `${name}-${n}`;
      };
      const step = {
        async do(name, config, fn) {
          if (typeof config === "function") fn = config;
          const k = key(name);
          const hit = kept.get(k);
          if (hit) {
            if ("error" in hit) throw hit.error;
            return structuredClone(hit.value);
          }
          log.push(name);
          const limit = config?.retries?.limit ?? 5;
          for (let i = 0; ; i++) {
            attempts++;
            try {
              const left = engine.failNext.get(name) ?? 0;
              if (left) engine.failNext.set(name, left - 1);
              const v = await fn();
              if (left) throw new Error("injected");
              kept.set(k, { value: structuredClone(v) });
              return v;
            } catch (e) {
              if (i >= limit) { kept.set(k, { error: e }); throw e; }
            }
          }
        },
        async waitForEvent(name, { type }) {
          const k = key(name);
          const hit = kept.get(k);
          if (hit) {
            if ("error" in hit) throw hit.error;
            return hit.value;
          }
          log.push(name);
          if (timedOut.has(name)) {
            const e = Object.assign(new Error("Execution timed out after 1000ms"), { name: "WorkflowTimeoutError" });
            kept.set(k, { error: e });
            throw e;
          }
          const i = events.findIndex((e) => e.type === type);
          if (i < 0) throw PARK;
          const [ev] = events.splice(i, 1);
          kept.set(k, { value: ev });
          return ev;
        },
      };
      try {
        return { done: await run(step) };
      } catch (e) {
        if (e === PARK || e?.cause === PARK || String(e?.message).includes("Symbol(park)") || engine.parked(e)) return { parked: true };
        throw e;
      }
    },
    parked: () => false,
  };
  return engine;
}

// The engine treats a rejected run() as parked when its last step parked: PARK reaches the loop
// through `waitFor`, which fails the run with a host_callback error.
export function parkedBy(engine) {
  engine.parked = (e) => e?.code === "host_callback" || /park/.test(String(e?.message));
  return engine;
}

