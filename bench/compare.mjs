// Per-run overhead side by side, interleaved in one Node process on one mock fetch.
//
//   cd bench && npm ci          # the one install step: ai, @ai-sdk/openai, zod, pinned in package-lock.json
//   ./scripts/build.sh          # (repo root) builds pkg/
//   node bench/compare.mjs      # prints a table, writes bench/out/compare.json
//   QUICK=1 node bench/compare.mjs   # a short smoke run (same checks, few samples)
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

const { createClient, createToolkit, defineTool } = await import(path.join(pkgDir, "node.js"));
const { generateText, tool, jsonSchema, stepCountIs } = await import("ai");
const { createOpenAI } = await import("@ai-sdk/openai");

const QUICK = !!process.env.QUICK;
const cfg = {
  rounds: Number(process.env.ROUNDS ?? (QUICK ? 2 : 5)),
  batch: Number(process.env.BATCH ?? 10),
  warmup: Number(process.env.WARMUP ?? (QUICK ? 100 : 600)),
  // runs per variant per round, by group
  perRound: { h0: QUICK ? 100 : 1000, h100: QUICK ? 30 : 300, h1000: QUICK ? 6 : 40 },
};

// ---- the scripted model and the mock -------------------------------------------------------
const PROMPT = "weather and time in Paris?";
const SYSTEM = "Be brief.";
const FINAL_TEXT = "It is sunny in Paris and 14:00.";
const TOOL_CALLS = JSON.stringify({
  id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "bench",
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [
    { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    { id: "call_b", type: "function", function: { name: "get_time", arguments: '{"tz":"Europe/Paris"}' } },
  ] }, finish_reason: "tool_calls" }],
  usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
});
const FINAL = JSON.stringify({
  id: "chatcmpl-2", object: "chat.completion", created: 1700000001, model: "bench",
  choices: [{ index: 0, message: { role: "assistant", content: FINAL_TEXT }, finish_reason: "stop" }],
  usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 },
});
const REPLIES = [TOOL_CALLS, FINAL];
const URL_ = "http://mock/v1/chat/completions";

// One mock for every variant. `calls` is reset before each run; a third call is a 500 so a
// variant that loops too far fails loudly. `bodies` records request bodies only while checking.
const mock = { calls: 0, bodies: null };
async function mockFetch(url, init) {
  const i = mock.calls++;
  if (mock.bodies) mock.bodies.push({ url: String(url), body: init?.body });
  if (i >= REPLIES.length) return new Response('{"error":{"message":"too many calls"}}', { status: 500, headers: { "content-type": "application/json" } });
  return new Response(REPLIES[i], { status: 200, headers: { "content-type": "application/json" } });
}

// ---- the tools (one implementation, shared by every variant) -------------------------------
let toolLog = null; // [name, args] while checking
const getWeather = async ({ city }) => {
  if (toolLog) toolLog.push(["get_weather", { city }]);
  return `sunny in ${city}`;
};
const getTime = async ({ tz }) => {
  if (toolLog) toolLog.push(["get_time", { tz }]);
  return "14:00";
};
const SCHEMAS = {
  get_weather: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  get_time: { type: "object", properties: { tz: { type: "string" } }, required: ["tz"] },
};

function history(n) {
  const h = [];
  for (let i = 0; h.length < n; i++) {
    h.push({ role: "user", content: `question ${i}: what is the weather like in city number ${i}?` });
    h.push({ role: "assistant", content: `answer ${i}: it is sunny there, about 20 degrees, light wind.` });
  }
  return h.slice(0, n);
}
const HIST = { 0: [], 100: history(100), 1000: history(1000) };

// (a) this package
const toolkit = createToolkit({ tools: [
  defineTool({ name: "get_weather", description: "weather", inputSchema: SCHEMAS.get_weather, run: getWeather }),
  defineTool({ name: "get_time", description: "time", inputSchema: SCHEMAS.get_time, run: getTime }),
] });
const client = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", systemPrompt: SYSTEM, fetch: mockFetch });
// A history is the whole transcript: the client's systemPrompt is not added to it, so it
// starts with the system message (every variant sends system + history + prompt).
const oursRun = (n) => {
  const opts = n ? { toolkit, history: [{ role: "system", content: SYSTEM }, ...HIST[n]] } : { toolkit };
  return () => client.run(PROMPT, opts);
};
const oursOk = (r) => r.status === "done" && r.toolCallCount === 2 && r.text === FINAL_TEXT;

// (b) the Vercel AI SDK
const openai = createOpenAI({ fetch: mockFetch, apiKey: "k", baseURL: "http://mock/v1" });
const model = openai.chat("bench");
const aiTools = {
  get_weather: tool({ description: "weather", inputSchema: jsonSchema(SCHEMAS.get_weather), execute: getWeather }),
  get_time: tool({ description: "time", inputSchema: jsonSchema(SCHEMAS.get_time), execute: getTime }),
};
const aisdkRun = (n) => {
  const base = { model, system: SYSTEM, tools: aiTools, stopWhen: stepCountIs(5) };
  const msgs = n ? [...HIST[n], { role: "user", content: PROMPT }] : null;
  return () => generateText(msgs ? { ...base, messages: msgs } : { ...base, prompt: PROMPT });
};
const aisdkOk = (r) => r.steps.length === 2 && r.text === FINAL_TEXT;

// (c) the minimal hand-written loop
const MIN_TOOLS = [
  { type: "function", function: { name: "get_weather", description: "weather", parameters: SCHEMAS.get_weather } },
  { type: "function", function: { name: "get_time", description: "time", parameters: SCHEMAS.get_time } },
];
const IMPLS = { get_weather: getWeather, get_time: getTime };
const MIN_HEADERS = { "content-type": "application/json", authorization: "Bearer k" };
async function minimalLoop(prompt, hist) {
  const messages = [{ role: "system", content: SYSTEM }, ...hist, { role: "user", content: prompt }];
  for (let turn = 0; turn < 5; turn++) {
    const res = await mockFetch(URL_, { method: "POST", headers: MIN_HEADERS, body: JSON.stringify({ model: "bench", messages, tools: MIN_TOOLS }) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const msg = (await res.json()).choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls?.length) return msg.content;
    const results = await Promise.all(msg.tool_calls.map(async (c) => {
      let content;
      try {
        content = String(await IMPLS[c.function.name](JSON.parse(c.function.arguments)));
      } catch (e) {
        content = `error: ${e.message}`;
      }
      return { role: "tool", tool_call_id: c.id, content };
    }));
    messages.push(...results);
  }
  throw new Error("too many turns");
}
const minimalRun = (n) => () => minimalLoop(PROMPT, HIST[n]);
const minimalOk = (r) => r === FINAL_TEXT;

// (d) the mock alone: two calls, both bodies read
const mockRun = () => async () => {
  const a = await (await mockFetch(URL_, { method: "POST", body: "{}" })).text();
  const b = await (await mockFetch(URL_, { method: "POST", body: "{}" })).text();
  return a.length + b.length;
};
const mockOk = (r) => r === TOOL_CALLS.length + FINAL.length;

// ---- checks before timing ------------------------------------------------------------------
function assert(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}
const bodyOf = (b) => JSON.parse(typeof b === "string" ? b : new TextDecoder().decode(b));
const textOf = (content) => (typeof content === "string" ? content : JSON.stringify(content));

async function verify(v) {
  mock.calls = 0;
  mock.bodies = [];
  toolLog = [];
  const bodies = mock.bodies, log = toolLog;
  let r;
  try {
    r = await v.run();
  } finally {
    mock.bodies = null;
    toolLog = null;
  }
  assert(v.ok(r), `${v.name}: result shape / final text`);
  assert(mock.calls === v.calls, `${v.name}: ${mock.calls} fetch calls (want ${v.calls})`);
  if (v.kind === "mock") return;
  assert(log.length === 2, `${v.name}: ${log.length} tool executions (want 2)`);
  const byName = Object.fromEntries(log);
  assert(byName.get_weather?.city === "Paris" && byName.get_time?.tz === "Europe/Paris", `${v.name}: tool arguments ${JSON.stringify(log)}`);
  const [first, second] = bodies.map((b) => bodyOf(b.body));
  assert(bodies.every((b) => b.url === URL_), `${v.name}: request url ${bodies.map((b) => b.url)}`);
  const names = (first.tools ?? []).map((t) => t.function?.name).sort().join(",");
  assert(names === "get_time,get_weather", `${v.name}: first request declares the tools (${names})`);
  // system + history + prompt (a duplicate system message would be extra work: counted exactly)
  assert(first.messages.length === v.history + 2, `${v.name}: first request has ${first.messages.length} messages (want ${v.history + 2})`);
  assert(first.messages.at(-1).role === "user" && textOf(first.messages.at(-1).content).includes(PROMPT), `${v.name}: prompt last`);
  const asst = second.messages.find((m) => m.role === "assistant" && m.tool_calls?.length === 2);
  assert(asst, `${v.name}: second request carries the assistant tool calls`);
  const tool = (id) => second.messages.find((m) => m.role === "tool" && m.tool_call_id === id);
  assert(tool("call_a") && textOf(tool("call_a").content).includes("sunny in Paris"), `${v.name}: second request carries get_weather's result`);
  assert(tool("call_b") && textOf(tool("call_b").content).includes("14:00"), `${v.name}: second request carries get_time's result`);
  assert(second.messages.length === v.history + 5, `${v.name}: second request has ${second.messages.length} messages (want ${v.history + 5})`);
}

// ---- timing --------------------------------------------------------------------------------
const variant = (name, kind, n, run, ok, calls = 2) => ({ name, kind, history: n, run: run(n), ok, calls, xs: [], roundMeans: [], cpuRoundMeans: [] });
const groups = {
  h0: [variant("ours", "ours", 0, oursRun, oursOk), variant("aisdk", "aisdk", 0, aisdkRun, aisdkOk), variant("minimal", "minimal", 0, minimalRun, minimalOk), variant("mock", "mock", 0, mockRun, mockOk)],
  h100: [variant("ours@100", "ours", 100, oursRun, oursOk), variant("aisdk@100", "aisdk", 100, aisdkRun, aisdkOk), variant("minimal@100", "minimal", 100, minimalRun, minimalOk)],
  h1000: [variant("ours@1000", "ours", 1000, oursRun, oursOk), variant("minimal@1000", "minimal", 1000, minimalRun, minimalOk)],
};

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

const git = (...a) => {
  try {
    return execFileSync("git", a, { cwd: root }).toString().trim();
  } catch {
    return null;
  }
};
const ver = (p) => JSON.parse(fs.readFileSync(path.join(here, "node_modules", p, "package.json"))).version;
const out = {
  date: new Date().toISOString(),
  node: process.version,
  machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, os: `${os.type()} ${os.release()}`, memGB: Math.round(os.totalmem() / 2 ** 30), loadavg: { start: load0, end: os.loadavg() } },
  commit: git("rev-parse", "--short", "HEAD"),
  dirty: !!git("status", "--porcelain", "--", "src", "pkg-template", "Cargo.toml"),
  versions: { ai: ver("ai"), "@ai-sdk/openai": ver("@ai-sdk/openai"), zod: ver("zod"), wasmBytes: fs.statSync(path.join(pkgDir, "toolnexus_wasm_bg.wasm")).size },
  config: { ...cfg, quick: QUICK, wallSeconds: wall },
  units: "ms per run; mean/p50/p95 are wall time of single runs, cpuMean is process CPU time per run",
  variants: all,
  ratios,
  perMessageUs,
};
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "compare.json"), JSON.stringify(out, null, 2));

const f3 = (x) => x.toFixed(3);
const f2 = (x) => x.toFixed(2);
console.log(`node ${out.node}, ${out.machine.cpu} x${out.machine.cores}, ai ${out.versions.ai}, @ai-sdk/openai ${out.versions["@ai-sdk/openai"]}, commit ${out.commit}${out.dirty ? "+dirty" : ""}`);
console.log(`${cfg.rounds} rounds, batches of ${cfg.batch}, ${wall.toFixed(1)} s, load average ${load0.map(f2).join(" ")} → ${os.loadavg().map(f2).join(" ")}\n`);
console.log("ms per run      n     mean      p50      p95   cpu mean   round means (wall)");
for (const [k, s] of Object.entries(all)) {
  console.log(`${k.padEnd(13)}${String(s.n).padStart(5)}  ${f3(s.mean).padStart(7)}  ${f3(s.p50).padStart(7)}  ${f3(s.p95).padStart(7)}  ${f3(s.cpuMean).padStart(9)}   ${s.roundMeans.map(f3).join(" / ")}`);
}
const show = (r) => `mean ${f3(r.mean)}, p50 ${f3(r.p50)}, cpu ${f3(r.cpuMean)}, round median ${f3(r.roundMedian)} (rounds ${r.rounds.map(f2).join(" / ")})`;
console.log(`\nours net of mock / AI SDK net of mock  [budget <= 0.15]: ${show(ratios.oursNetOverAisdkNet)}`);
console.log(`ours / minimal loop, mock included     [aim <= 1.5]:    ${show(ratios.oursOverMinimal)}`);
console.log(`ours / minimal, both net of mock: ${show(ratios.oursNetOverMinimalNet)}`);
console.log(`ours / minimal at 100 messages: mean ${f2(ratios.oursAt100OverMinimalAt100.mean)}, p50 ${f2(ratios.oursAt100OverMinimalAt100.p50)}, cpu ${f2(ratios.oursAt100OverMinimalAt100.cpuMean)}; at 1,000: mean ${f2(ratios.oursAt1000OverMinimalAt1000.mean)}, p50 ${f2(ratios.oursAt1000OverMinimalAt1000.p50)}, cpu ${f2(ratios.oursAt1000OverMinimalAt1000.cpuMean)}`);
const sl = (k) => Object.entries(perMessageUs[k]).map(([by, o]) => `${by} ${Object.entries(o).map(([r, x]) => `${f2(x)} (${r})`).join(" ")}`).join("; ");
console.log(`µs per history message: ours ${sl("ours")} | minimal ${sl("minimal")} | aisdk ${sl("aisdk")}`);
console.log(`wrote ${path.relative(process.cwd(), path.join(here, "out", "compare.json"))}`);
