// The agent in Cloudflare Workflows (issue 25), in workerd through Miniflare's local Workflows
// runtime (tests/workflows/harness.mjs):
//   resume   the time from `instance.sendEvent` (the answer route) until the instance reports
//            `complete`, polled every 2 ms, for an instance parked on a relay call: the replay of
//            `run()` from its kept steps, the wasm loop to the parked call, the answer, one more
//            model call (the scripted model on 127.0.0.1) and the end; beside it `bare`, a
//            Workflow that parks on one event and returns (what the runtime itself takes)
//   load     N instances started at once, each parked, then all answered at once: time to park
//            them all, time until all are complete, and whether any was lost or answered twice
//   node bench/workflows.mjs            # ROUNDS=30 N=100
import { performance } from "node:perf_hooks";
import { call, finished, load, open, startHarness } from "../tests/workflows/harness.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const N = Number(process.env.N ?? 100);
const h = await startHarness();
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

try {
  const mf = h.runtime(h.dir("bench"));
  const times = { ours: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of i % 2 ? ["bare", "ours"] : ["ours", "bare"]) {
      const id = `${kind}-${i}`;
      const q = kind === "bare" ? "&bare" : "";
      await call(mf, "/start", { id, prompt: "#mixed buy the red mug", bare: kind === "bare" });
      const [s] = await open(mf, id);
      await new Promise((r) => setTimeout(r, 50)); // let the instance reach its wait
      const t0 = performance.now();
      await call(mf, `/answer?id=${id}${q}`, { suspension: s, answer: { ok: true, data: { output: "clicked" } } });
      const st = await finished(mf, id, q, 2);
      if (st.status !== "complete") throw new Error(JSON.stringify(st));
      times[kind].push(performance.now() - t0);
    }
  }
  for (const [k, xs] of Object.entries(times)) {
    console.log(`resume ${k.padEnd(5)} median ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  (${xs.length} instances)`);
  }
  const before = h.executions.length;
  const { ids, done, parkedMs, doneMs } = await load(mf, N);
  const right = done.filter((s, i) => s.status === "complete" && s.output.text.endsWith(`clicked for ${ids[i]}`)).length;
  const runs = h.executions.length - before;
  console.log(`load ${N} instances: all parked in ${parkedMs.toFixed(0)} ms; answered and complete in ${doneMs.toFixed(0)} ms; ${right}/${N} finished with their own answer; ${runs} tool executions (1 per instance expected)`);
  await mf.dispose();
} finally {
  h.close();
}
