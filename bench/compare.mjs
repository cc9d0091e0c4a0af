// The figures users feel, side by side with the Vercel AI SDK: per-run overhead (this file),
// streaming (bench/streaming.mjs: time to the first text event and cost per chunk at body read
// sizes from 7 B to 64 KB) and startup (bench/startup.mjs: a Chromium MV3 service worker and
// workerd). Per-run and streaming run interleaved in one Node process on one mock fetch.
//
//   cd bench && npm ci          # the one install step: ai, @ai-sdk/openai, zod, pinned in package-lock.json
//   ./scripts/build.sh          # (repo root) builds pkg/
//   node bench/compare.mjs      # prints the tables, writes bench/out/compare.json
//   QUICK=1 node bench/compare.mjs   # a short smoke run (same checks, few samples)
//   PARTS=run,stream,startup         # which parts run (all by default; startup needs setup.sh --browser)
//   TOOLNEXUS_PKG=dir                # time another build of this package instead of pkg/
//   BASELINE_PKG=dir                 # also time a second build as "base", interleaved (before/after;
//                                    # per run and streaming)
//   ROUNDS=, BATCH=, WARMUP=         # per run: 5 rounds, batches of 10, 600 warm-up runs by default
//
// Workload (the one of bench/run.mjs): two model calls, two parallel tools. The first reply is
// an OpenAI chat completion with two parallel tool calls, the second a final text. Every call
// of the mock returns a real `Response` built from a prebuilt JSON text.
//   ours     this package (pkg/node.js): client.run(prompt, { toolkit })
//   aisdk    Vercel AI SDK: generateText over createOpenAI({ fetch }).chat(model), stopWhen: stepCountIs(5)
//   minimal  a hand-written JS loop: JSON.stringify the body, fetch, res.json(), tools in parallel, again
//   mock     the mock alone: two fetches and reading both bodies (the floor every variant pays)
// and the same runs after a 100- and a 1,000-message history (ours, minimal; aisdk at 100).
//
// Each variant is checked before it is timed (final text, both tools ran with the model's
// arguments, the second request carries both tool results): a benchmark that silently measures
// nothing is worse than none. Every timed run also checks the call count and the result shape.
//
// Timing: variants run round-robin in small batches (order shuffled per batch) after an
// interleaved warm-up, each run timed on its own with performance.now(). No forced GC: each
// variant pays for its allocations about in proportion to them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const pkgDir = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(root, "pkg"));
const need = (p, hint) => {
  if (!fs.existsSync(p)) {
    console.error(`missing ${p}: ${hint}`);
    process.exit(2);
  }
};
need(path.join(pkgDir, "node.js"), "run ./scripts/build.sh first");
need(path.join(here, "node_modules", "ai"), "run `cd bench && npm ci` first");

const { runStreaming, printStreaming } = await import("./streaming.mjs");
const { runStartup, printStartup } = await import("./startup.mjs");
const { mock, verify, loadOurs, oursOk, aisdkRun, aisdkOk, minimalRun, minimalOk, mockRun, mockOk } = await import("./workload.mjs");
const oursRun = await loadOurs(pkgDir);
// BASELINE_PKG=dir: another build of this package (say main's, before a change) runs beside
// "ours" as "base", interleaved with the rest: a before/after under the same load.
const basePkg = process.env.BASELINE_PKG ? path.resolve(process.env.BASELINE_PKG) : null;
if (basePkg) need(path.join(basePkg, "node.js"), "BASELINE_PKG must be a built package folder");
const baseRun = basePkg ? await loadOurs(basePkg) : null;

const QUICK = !!process.env.QUICK;
const PARTS = (process.env.PARTS ?? "run,stream,startup").split(",");
const cfg = {
  rounds: Number(process.env.ROUNDS ?? (QUICK ? 2 : 5)),
  batch: Number(process.env.BATCH ?? 10),
  warmup: Number(process.env.WARMUP ?? (QUICK ? 100 : 600)),
  // runs per variant per round, by group
  perRound: { h0: QUICK ? 100 : 1000, h100: QUICK ? 30 : 300, h1000: QUICK ? 6 : 40 },
};

// ---- timing --------------------------------------------------------------------------------
const variant = (name, kind, n, run, ok, calls = 2) => ({ name, kind, history: n, run: run(n), ok, calls, xs: [], roundMeans: [], cpuRoundMeans: [] });
const groups = {
  h0: [variant("ours", "ours", 0, oursRun, oursOk), variant("aisdk", "aisdk", 0, aisdkRun, aisdkOk), variant("minimal", "minimal", 0, minimalRun, minimalOk), variant("mock", "mock", 0, mockRun, mockOk)],
  h100: [variant("ours@100", "ours", 100, oursRun, oursOk), variant("aisdk@100", "aisdk", 100, aisdkRun, aisdkOk), variant("minimal@100", "minimal", 100, minimalRun, minimalOk)],
  h1000: [variant("ours@1000", "ours", 1000, oursRun, oursOk), variant("minimal@1000", "minimal", 1000, minimalRun, minimalOk)],
};
if (baseRun) {
  groups.h0.push(variant("base", "ours", 0, baseRun, oursOk));
  groups.h100.push(variant("base@100", "ours", 100, baseRun, oursOk));
}

let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const shuffled = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

async function once(v, record) {
  mock.calls = 0;
  const t = performance.now();
  const r = await v.run();
  const dt = performance.now() - t;
  if (mock.calls !== v.calls || !v.ok(r)) throw new Error(`${v.name}: a timed run did not do the work (calls ${mock.calls})`);
  if (record) record.push(dt);
}

// Interleaved: each batch runs every variant `batch` times, in a fresh random order. Beside the
// wall time of each run, the process CPU time of each batch (user + system, all threads, so GC
// helpers count) is summed: on a shared VM it does not count the time other processes held the
// CPU, which inflates wall-time means and p95 when the machine is busy.
async function interleave(vs, perVariant, sink, cpu) {
  for (let done = 0; done < perVariant; done += cfg.batch) {
    const k = Math.min(cfg.batch, perVariant - done);
    for (const v of shuffled(vs)) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < k; i++) await once(v, sink?.(v));
      const c = process.cpuUsage(c0);
      if (cpu) cpu(v, (c.user + c.system) / 1000, k);
    }
  }
}

const stats = (xs) => {
  const s = Float64Array.from(xs).sort();
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const q = (p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
  return { n: s.length, mean, p50: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
};
const meanOf = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ---- per run --------------------------------------------------------------------------------
async function perRun() {
  for (const vs of Object.values(groups)) for (const v of vs) await verify(v);
  console.log(`checked: ${Object.values(groups).flat().map((v) => v.name).join(", ")} (text, tool runs, tool results in the second request)`);

  const load0 = os.loadavg();
  const t0 = performance.now();
  for (const [g, vs] of Object.entries(groups)) await interleave(vs, Math.max(cfg.batch, Math.round(cfg.warmup * cfg.perRound[g] / cfg.perRound.h0)));
  for (let r = 0; r < cfg.rounds; r++) {
    for (const [g, vs] of Object.entries(groups)) {
      const round = new Map(vs.map((v) => [v, []]));
      const cpu = new Map(vs.map((v) => [v, { ms: 0, n: 0 }]));
      await interleave(vs, cfg.perRound[g], (v) => round.get(v), (v, ms, n) => {
        cpu.get(v).ms += ms;
        cpu.get(v).n += n;
      });
      for (const [v, xs] of round) {
        v.xs.push(...xs);
        v.roundMeans.push(meanOf(xs));
        v.cpuRoundMeans.push(cpu.get(v).ms / cpu.get(v).n);
      }
    }
  }
  const wall = (performance.now() - t0) / 1000;

  // ---- report --------------------------------------------------------------------------------
  const all = Object.fromEntries(Object.values(groups).flat().map((v) => [v.name, {
    ...stats(v.xs), roundMeans: v.roundMeans, cpuMean: meanOf(v.cpuRoundMeans), cpuRoundMeans: v.cpuRoundMeans,
  }]));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // One ratio on each measure: wall mean and p50 over all runs, CPU mean, and the median of the
  // per-round ratios of wall means (each round's variants ran interleaved, under the same load).
  function ratio(f) {
    const on = (pick) => f((k) => pick(all[k]));
    const rounds = all.ours.roundMeans.map((_, i) => f((k) => all[k].roundMeans[i]));
    const cpuRounds = all.ours.cpuRoundMeans.map((_, i) => f((k) => all[k].cpuRoundMeans[i]));
    return { mean: on((s) => s.mean), p50: on((s) => s.p50), cpuMean: on((s) => s.cpuMean), roundMedian: median(rounds), rounds, cpuRounds };
  }
  const ratios = {
    oursNetOverAisdkNet: { budget: 0.15, ...ratio((x) => (x("ours") - x("mock")) / (x("aisdk") - x("mock"))) },
    oursOverMinimal: { aim: 1.5, ...ratio((x) => x("ours") / x("minimal")) },
    oursNetOverMinimalNet: ratio((x) => (x("ours") - x("mock")) / (x("minimal") - x("mock"))),
    oursOverAisdk: ratio((x) => x("ours") / x("aisdk")),
    ...(baseRun ? { oursOverBase: ratio((x) => x("ours") / x("base")), oursAt100OverBaseAt100: ratio((x) => x("ours@100") / x("base@100")) } : {}),
    oursAt100OverMinimalAt100: { mean: all["ours@100"].mean / all["minimal@100"].mean, p50: all["ours@100"].p50 / all["minimal@100"].p50, cpuMean: all["ours@100"].cpuMean / all["minimal@100"].cpuMean },
    oursAt1000OverMinimalAt1000: { mean: all["ours@1000"].mean / all["minimal@1000"].mean, p50: all["ours@1000"].p50 / all["minimal@1000"].p50, cpuMean: all["ours@1000"].cpuMean / all["minimal@1000"].cpuMean },
  };
  // Linear growth: the per-message cost from 100 to 1,000 messages matches the one from 0 to 100
  // (a quadratic loop would make the second several times the first). p50 and CPU means: both
  // shrug off the other processes on a shared machine.
  const slope = (a, b, na, nb, pick) => ((pick(all[b]) - pick(all[a])) / (nb - na)) * 1000;
  const slopes = (k, pick) => ({
    "0-100": slope(k, `${k}@100`, 0, 100, pick),
    ...(all[`${k}@1000`] ? { "100-1000": slope(`${k}@100`, `${k}@1000`, 100, 1000, pick) } : {}),
  });
  const perMessageUs = Object.fromEntries(["ours", "minimal", "aisdk"].map((k) => [k, { p50: slopes(k, (s) => s.p50), cpu: slopes(k, (s) => s.cpuMean) }]));
  console.log(`per run: ${cfg.rounds} rounds, batches of ${cfg.batch}, ${wall.toFixed(1)} s, load average ${load0.map(f2).join(" ")} → ${os.loadavg().map(f2).join(" ")}\n`);
  console.log("ms per run      n     mean      p50      p95   cpu mean   round means (wall)");
  for (const [k, s] of Object.entries(all)) {
    console.log(`${k.padEnd(13)}${String(s.n).padStart(5)}  ${f3(s.mean).padStart(7)}  ${f3(s.p50).padStart(7)}  ${f3(s.p95).padStart(7)}  ${f3(s.cpuMean).padStart(9)}   ${s.roundMeans.map(f3).join(" / ")}`);
  }
  const show = (r) => `mean ${f3(r.mean)}, p50 ${f3(r.p50)}, cpu ${f3(r.cpuMean)}, round median ${f3(r.roundMedian)} (rounds ${r.rounds.map(f2).join(" / ")})`;
  console.log(`\nours net of mock / AI SDK net of mock  [budget <= 0.15]: ${show(ratios.oursNetOverAisdkNet)}`);
  console.log(`ours / minimal loop, mock included     [aim <= 1.5]:    ${show(ratios.oursOverMinimal)}`);
  if (baseRun) console.log(`ours / base (${path.relative(root, basePkg)}): ${show(ratios.oursOverBase)}; at 100 messages: ${show(ratios.oursAt100OverBaseAt100)}`);
  console.log(`ours / minimal at 100 messages: mean ${f2(ratios.oursAt100OverMinimalAt100.mean)}, p50 ${f2(ratios.oursAt100OverMinimalAt100.p50)}, cpu ${f2(ratios.oursAt100OverMinimalAt100.cpuMean)}; at 1,000: mean ${f2(ratios.oursAt1000OverMinimalAt1000.mean)}, p50 ${f2(ratios.oursAt1000OverMinimalAt1000.p50)}, cpu ${f2(ratios.oursAt1000OverMinimalAt1000.cpuMean)}`);
  const sl = (k) => Object.entries(perMessageUs[k]).map(([by, o]) => `${by} ${Object.entries(o).map(([r, x]) => `${f2(x)} (${r})`).join(" ")}`).join("; ");
  console.log(`µs per history message: ours ${sl("ours")} | minimal ${sl("minimal")} | aisdk ${sl("aisdk")}`);
  return {
    config: { ...cfg, quick: QUICK, wallSeconds: wall, pkg: path.relative(root, pkgDir) || ".", baseline: basePkg && path.relative(root, basePkg), loadavg: { start: load0, end: os.loadavg() } },
    units: "ms per run; mean/p50/p95 are wall time of single runs, cpuMean is process CPU time per run",
    variants: all,
    ratios,
    perMessageUs,
  };
}

const git = (...a) => {
  try {
    return execFileSync("git", a, { cwd: root }).toString().trim();
  } catch {
    return null;
  }
};
const ver = (p) => JSON.parse(fs.readFileSync(path.join(here, "node_modules", p, "package.json"))).version;
const load00 = os.loadavg();
const out = {
  date: new Date().toISOString(),
  node: process.version,
  machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, os: `${os.type()} ${os.release()}`, memGB: Math.round(os.totalmem() / 2 ** 30), loadavg: { start: load00 } },
  commit: git("rev-parse", "--short", "HEAD"),
  dirty: !!git("status", "--porcelain", "--", "src", "pkg-template", "Cargo.toml"),
  versions: { ai: ver("ai"), "@ai-sdk/openai": ver("@ai-sdk/openai"), zod: ver("zod"), wasmBytes: fs.statSync(path.join(pkgDir, "toolnexus_wasm_bg.wasm")).size },
  parts: PARTS,
};
const f3 = (x) => x.toFixed(3);
const f2 = (x) => x.toFixed(2);
console.log(`node ${out.node}, ${out.machine.cpu} x${out.machine.cores}, ai ${out.versions.ai}, @ai-sdk/openai ${out.versions["@ai-sdk/openai"]}, commit ${out.commit}${out.dirty ? "+dirty" : ""}`);
if (PARTS.includes("run")) Object.assign(out, await perRun());
if (PARTS.includes("stream")) printStreaming((out.streaming = await runStreaming({ pkgDir, basePkg, quick: QUICK })));
if (PARTS.includes("startup")) printStartup((out.startup = await runStartup({ pkgDir, quick: QUICK })));
out.machine.loadavg.end = os.loadavg();
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "compare.json"), JSON.stringify(out, null, 2));
console.log(`wrote ${path.relative(process.cwd(), path.join(here, "out", "compare.json"))}`);

