// A soak of 20,000 mixed runs in one client (bench/soak-runs.mjs: tools, halts and resumes, streams
// broken early, aborts in flight, fetches that ignore the abort, parked waits aborted, deadlines,
// a long-lived signal shared by many runs), sampling every 1,000 runs, after a full GC: live
// externrefs (the JS values the wasm holds), the externref table's size, the wasm memory and the
// JS heap. Memory is flat when the samples of the second half stop growing.
//
//   ./scripts/build.sh && node bench/soak.mjs     # prints a table, writes bench/out/soak.json
//   RUNS=, EVERY=                                  # 20,000 runs, a sample every 1,000 by default
//   TOOLNEXUS_PKG=dir                              # soak another build of this package
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeRuns, sample } from "./soak-runs.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(here, "..", "pkg"));
const pkg = await import(path.join(pkgDir, "node.js"));
const RUNS = Number(process.env.RUNS ?? 20000);
const EVERY = Number(process.env.EVERY ?? 1000);

const wasm = pkg.initSync();
const run = makeRuns(pkg);
// Builds before this one let Node exit with a run still waiting (their deadline timer is
// unref'd): an ordinary timer keeps the process up meanwhile.
const keep = setInterval(() => {}, 1000);
const samples = [{ runs: 0, ...(await sample(wasm)) }];
const t0 = performance.now();
for (let i = 0; i < RUNS; i++) {
  await run(i);
  if ((i + 1) % EVERY === 0) samples.push({ runs: i + 1, ...(await sample(wasm)) });
}
clearInterval(keep);
const secs = (performance.now() - t0) / 1000;

const kb = (n) => (n / 1024).toFixed(0).padStart(8);
console.log(`${RUNS} mixed runs in ${secs.toFixed(1)} s, ${pkgDir}`);
console.log("    runs  externrefs  table   wasm KiB  heap KiB");
for (const s of samples) console.log(`${String(s.runs).padStart(8)}  ${String(s.externrefs).padStart(10)} ${String(s.table).padStart(6)} ${kb(s.wasmBytes)}  ${kb(s.heapUsed)}`);
// Growth per 1,000 runs over the second half: what a leak would show as a steady slope.
const mid = samples[Math.floor(samples.length / 2)];
const end = samples.at(-1);
const per = (k) => ((end[k] - mid[k]) / ((end.runs - mid.runs) / 1000)).toFixed(1);
console.log(`growth per 1,000 runs over the second half: externrefs ${per("externrefs")}, wasm ${per("wasmBytes")} B, heap ${per("heapUsed")} B`);
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "soak.json"), JSON.stringify({ pkg: pkgDir, runs: RUNS, secs, samples }, null, 1));
