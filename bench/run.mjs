// Benchmarks of the built package in Node (not tests: they measure, they do not assert).
//   node bench/run.mjs            # prints a table and writes bench/out/results.json
// 1. size: gzip -9 of the .wasm and the JS the browser entry loads;
// 2. instantiate: compile + instantiate of the .wasm (initSync) in fresh Node processes;
// 3. per-run overhead: "two model calls, two parallel tools" with an in-process mock fetch whose
//    replies are prebuilt, so the time is the loop's own (wasm ⇄ JS, JSON, transcript);
// 4. the same run after a 100- and a 1,000-message history (cost growth with transcript length).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, "../pkg");
const { createClient, createToolkit, defineTool } = await import(path.join(pkg, "node.js"));

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, mean, p50: s[Math.floor(s.length * 0.5)], p95: s[Math.floor(s.length * 0.95)], min: s[0] };
};
const ms = (x) => `${x.toFixed(3)} ms`;

// 1. size
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(pkg, f)), { level: 9 }).length;
const size = {
  wasmRaw: fs.statSync(path.join(pkg, "toolnexus_wasm_bg.wasm")).size,
  wasmGzip: gz("toolnexus_wasm_bg.wasm"),
  jsGzip: ["toolnexus_wasm.js", "index.js", "exports.js"].reduce((n, f) => n + gz(f), 0), // what the browser entry loads
};
size.totalGzip = size.wasmGzip + size.jsGzip;

// 2. instantiate, each sample in a fresh process (no compile cache)
const probe = `
  import fs from "node:fs"; import { performance } from "node:perf_hooks";
  import { initSync } from ${JSON.stringify(path.join(pkg, "toolnexus_wasm.js"))};
  const bytes = fs.readFileSync(${JSON.stringify(path.join(pkg, "toolnexus_wasm_bg.wasm"))});
  const t = performance.now(); initSync({ module: bytes }); console.log(performance.now() - t);`;
const inst = [];
for (let i = 0; i < 20; i++) inst.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", probe]).toString()));

// 3 + 4. per-run overhead
const toolCalls = JSON.stringify({
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [
    { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    { id: "call_b", type: "function", function: { name: "get_time", arguments: '{"tz":"Europe/Paris"}' } },
  ] }, finish_reason: "tool_calls" }],
  usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
});
const final = JSON.stringify({
  choices: [{ index: 0, message: { role: "assistant", content: "It is sunny in Paris and 14:00." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 },
});
const replies = [toolCalls, final];
let turn = 0;
const fetch = async () => { const body = replies[turn++ % 2]; return { status: 200, text: async () => body }; };
const toolkit = createToolkit({ tools: [
  defineTool({ name: "get_weather", description: "weather", inputSchema: { type: "object", properties: { city: { type: "string" } } }, run: async ({ city }) => `sunny in ${city}` }),
  defineTool({ name: "get_time", description: "time", inputSchema: { type: "object", properties: { tz: { type: "string" } } }, run: async () => "14:00" }),
] });
const client = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", systemPrompt: "Be brief.", fetch });

function history(n) {
  const h = [{ role: "system", content: "Be brief." }];
  for (let i = 0; h.length < n; i++) {
    h.push({ role: "user", content: `question ${i}: what is the weather like in city number ${i}?` });
    h.push({ role: "assistant", content: `answer ${i}: it is sunny there, about 20 degrees, light wind.` });
  }
  return h.slice(0, n);
}

// The same client with all four hooks and onMetric set, each doing nothing: their overhead.
const hooked = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", systemPrompt: "Be brief.", fetch,
  onMetric: () => {}, hooks: { beforeLLM: async () => {}, afterLLM: async () => {}, beforeTool: async () => {}, afterTool: async () => {} } });

async function perRun(n, runs = 400, warmup = 300, c = client) {
  const opts = { toolkit, history: history(n) };
  for (let i = 0; i < warmup; i++) await c.run("weather and time in Paris?", opts);
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await c.run("weather and time in Paris?", opts);
    xs.push(performance.now() - t);
    if (r.status !== "done" || r.toolCallCount !== 2) throw new Error("bench workload failed");
  }
  return stats(xs);
}

// This machine is a shared VM: each figure is the median of three rounds (by mean), and the
// spread of the round means is reported beside it.
async function rounds(n, runs, warmup, c = client) {
  const rs = [];
  for (let i = 0; i < 3; i++) rs.push(await perRun(n, runs, warmup, c));
  rs.sort((a, b) => a.mean - b.mean);
  return { ...rs[1], roundMeans: rs.map((r) => r.mean) };
}
const runs = { h0: await rounds(0, 400, 300), h100: await rounds(100, 400, 100), h1000: await rounds(1000, 300, 50) };
const hooks = await rounds(0, 400, 300, hooked);
const results = { date: new Date().toISOString(), node: process.version, size, instantiate: stats(inst), runs, hooks };
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "results.json"), JSON.stringify(results, null, 2));

console.log(`size: wasm ${size.wasmRaw} B raw, ${size.wasmGzip} B gzip; JS ${size.jsGzip} B gzip; total ${size.totalGzip} B gzip (budget 122880)`);
console.log(`instantiate (initSync, fresh process, n=${inst.length}): mean ${ms(results.instantiate.mean)}, p95 ${ms(results.instantiate.p95)}`);
for (const [k, s] of Object.entries(runs)) {
  console.log(`per run, history ${k.slice(1).padStart(4)} msgs (n=${s.n}): mean ${ms(s.mean)}, p50 ${ms(s.p50)}, p95 ${ms(s.p95)}  (round means ${s.roundMeans.map((x) => x.toFixed(3)).join(" / ")})`);
}
console.log(`per run with 4 hooks + onMetric (n=${hooks.n}): mean ${ms(hooks.mean)}, p95 ${ms(hooks.p95)}  (round means ${hooks.roundMeans.map((x) => x.toFixed(3)).join(" / ")}); overhead ${ms(hooks.mean - runs.h0.mean)} mean`);
// Linear growth means the per-message cost between 100 and 1,000 messages matches the one
// between 0 and 100 (a quadratic loop would make the second several times larger).
const slopeLow = (runs.h100.p50 - runs.h0.p50) / 100, slopeHigh = (runs.h1000.p50 - runs.h100.p50) / 900;
console.log(`per-message cost (p50): ${(slopeLow * 1000).toFixed(2)} µs for 0→100, ${(slopeHigh * 1000).toFixed(2)} µs for 100→1000`);
