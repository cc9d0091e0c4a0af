// Streaming side by side (issue 23): one 500-chunk OpenAI chat reply, its body read in pieces of
// a given size, consumed with `for await` by
//   ours     this package: client.stream(prompt), `text` events
//   aisdk    Vercel AI SDK: streamText over createOpenAI({ fetch }).chat(model), `fullStream`'s
//            `text-delta` parts (the lighter of its two iterables: `textStream` adds a tee)
//   floor    a hand-written SSE splitter: TextDecoder, split on "\n\n", JSON.parse, an async
//            generator of the text deltas (the least a JS consumer of this stream pays)
//   mock     the mock alone: the body read to its end (every variant pays it)
// Two figures per run: the time from the first body chunk (the mock's first `pull`, which
// enqueues it) to the consumer's first text event, and the run's whole time (stream() to the end
// of the loop) divided by the 500 chunks.
//   node bench/streaming.mjs          # all read sizes; QUICK=1 for a smoke run
//   SIZES=7,32,event BASELINE_PKG=dir node bench/streaming.mjs
// bench/compare.mjs runs it after the per-run figures (`runStreaming`).
// Read sizes: bytes per body read, or "event" (one SSE event per read, as a server that
// flushes each event and a network that keeps up deliver it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const { streamText } = await import("ai");
const { createOpenAI } = await import("@ai-sdk/openai");

export const CHUNKS = 500;
export const SIZES = [7, 32, 256, "event", 4096, 65536];
const enc = new TextEncoder();
const head = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1700000000, model: "bench", system_fingerprint: "fp_bench" };
const sse = (o) => `data: ${JSON.stringify({ ...head, ...o })}\n\n`;
const choice = (delta, finish = null) => ({ choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const TOKENS = Array.from({ length: CHUNKS }, (_, i) => `${i % 7 ? " " : ""}${["the", "model", "streams", "a", "long", "reply", "token"][i % 7]}${i}`);
export const TEXT = TOKENS.join("");
const EVENTS = [
  sse(choice({ role: "assistant", content: "" })),
  ...TOKENS.map((t) => sse(choice({ content: t }))),
  sse(choice({}, "stop")),
  sse({ choices: [], usage: { prompt_tokens: 12, completion_tokens: CHUNKS, total_tokens: CHUNKS + 12 } }),
  "data: [DONE]\n\n",
];
const BODY = enc.encode(EVENTS.join(""));

// The body cut into reads, once per size (subarrays of one buffer: the mock allocates nothing).
const cuts = new Map();
function piecesOf(size) {
  if (!cuts.has(size)) {
    const out = [];
    if (size === "event") {
      let at = 0;
      for (const e of EVENTS) {
        const n = enc.encode(e).length;
        out.push(BODY.subarray(at, at + n));
        at += n;
      }
    } else for (let at = 0; at < BODY.length; at += size) out.push(BODY.subarray(at, at + size));
    cuts.set(size, out);
  }
  return cuts.get(size);
}

// The mock: every call returns the reply as a `Response` over a pull stream of the pieces.
// `first` is when the first piece was enqueued (the body's first chunk is there).
const mock = { calls: 0, size: 4096, first: 0, bodies: null };
/** For profiling one variant alone (bench/profile.mjs style): the read size of the next runs. */
export const setReadSize = (size) => (mock.size = size);
async function mockFetch(url, init) {
  mock.calls++;
  if (mock.bodies) mock.bodies.push(JSON.parse(init.body));
  const pieces = piecesOf(mock.size);
  let i = 0;
  const body = new ReadableStream({
    pull(c) {
      if (i === 0) mock.first = performance.now();
      if (i < pieces.length) c.enqueue(pieces[i++]);
      else c.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

const PROMPT = "write a long reply";

/** Each variant: `run()` resolves to { text, n, ttft } (ms from the first chunk to the first
 * text event). */
export async function oursVariant(pkgDir) {
  const { createClient } = await import(path.join(pkgDir, "node.js"));
  const client = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", fetch: mockFetch });
  return async () => {
    let text = "", n = 0, ttft;
    for await (const e of client.stream(PROMPT)) {
      if (e.type !== "text") continue;
      if (n++ === 0) ttft = performance.now() - mock.first;
      text += e.delta;
    }
    return { text, n, ttft };
  };
}

const model = createOpenAI({ fetch: mockFetch, apiKey: "k", baseURL: "http://mock/v1" }).chat("bench");
async function aisdk() {
  let text = "", n = 0, ttft;
  const r = streamText({ model, prompt: PROMPT, onError: () => {} });
  for await (const p of r.fullStream) {
    if (p.type === "error") throw p.error;
    if (p.type !== "text-delta") continue;
    if (n++ === 0) ttft = performance.now() - mock.first;
    text += p.text;
  }
  return { text, n, ttft };
}

const HEADERS = { "content-type": "application/json", authorization: "Bearer k" };
async function* floorDeltas(res) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    for (let i; (i = buf.indexOf("\n\n")) >= 0; ) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (!line.startsWith("data: ")) continue;
      if (line === "data: [DONE]") return;
      const t = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
      if (t) yield t;
    }
  }
}
async function floor() {
  let text = "", n = 0, ttft;
  const res = await mockFetch("http://mock/v1/chat/completions", { method: "POST", headers: HEADERS,
    body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: PROMPT }], stream: true }) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  for await (const t of floorDeltas(res)) {
    if (n++ === 0) ttft = performance.now() - mock.first;
    text += t;
  }
  return { text, n, ttft };
}

async function mockOnly() {
  const res = await mockFetch("http://mock/v1/chat/completions", { method: "POST", body: "{}" });
  const reader = res.body.getReader();
  let bytes = 0;
  for (let x; !(x = await reader.read()).done; ) bytes += x.value.byteLength;
  return { text: TEXT, n: CHUNKS, ttft: NaN, bytes };
}

const ok = (r) => r.text === TEXT && r.n === CHUNKS;

// ---- timing (as bench/compare.mjs: interleaved batches, shuffled, CPU time per batch) ----------
let seed = 2023;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const shuffled = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const sorted = (xs) => Float64Array.from(xs).sort();
const q = (s, p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
const meanOf = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Runs per variant per round: a 7-byte read size makes about 12,000 reads a run.
const RUNS = { 7: 4, 32: 10, 256: 24, event: 30, 4096: 40, 65536: 40 };

async function measureSize(size, variants, cfg) {
  mock.size = size;
  const per = Math.max(1, Math.round((RUNS[size] ?? 20) * cfg.scale));
  const rec = new Map(variants.map((v) => [v.name, { total: [], ttft: [], cpu: [] }]));
  const batch = async (record) => {
    for (const v of shuffled(variants)) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < Math.min(per, cfg.batch); i++) {
        mock.calls = 0;
        const t = performance.now();
        const r = await v.run();
        const dt = performance.now() - t;
        if (mock.calls !== 1 || !ok(r)) throw new Error(`${v.name} @ ${size}: a timed run did not do the work`);
        if (record) rec.get(v.name).total.push(dt), rec.get(v.name).ttft.push(r.ttft);
      }
      const c = process.cpuUsage(c0);
      if (record) rec.get(v.name).cpu.push((c.user + c.system) / 1000 / Math.min(per, cfg.batch));
    }
  };
  for (let w = 0; w < Math.max(1, Math.ceil(per / cfg.batch)); w++) await batch(false);
  for (let r = 0; r < cfg.rounds; r++) for (let done = 0; done < per; done += cfg.batch) await batch(true);
  const out = {};
  for (const [name, x] of rec) {
    const t = sorted(x.total), f = sorted(x.ttft);
    out[name] = {
      n: t.length,
      // µs per chunk: the run's wall time / 500 (p50 and mean), and its CPU time / 500
      perChunkUs: { p50: (q(t, 0.5) / CHUNKS) * 1000, mean: (meanOf(x.total) / CHUNKS) * 1000, cpu: (meanOf(x.cpu) / CHUNKS) * 1000 },
      // ms from the body's first chunk to the first text event
      ttftMs: { p50: q(f, 0.5), p95: q(f, 0.95), mean: meanOf(x.ttft) },
    };
  }
  return out;
}

/** Verifies each variant at every read size (the text and its 500 deltas, one fetch, a streamed
 * request), then times every read size. Returns { sizes: [{ size, variants: { [name]: figures } }] }. */
export async function runStreaming({ pkgDir, basePkg = null, quick = false, sizes = SIZES, log = console.log } = {}) {
  const variants = [
    { name: "ours", run: await oursVariant(pkgDir) },
    ...(basePkg ? [{ name: "base", run: await oursVariant(basePkg) }] : []),
    { name: "aisdk", run: aisdk },
    { name: "floor", run: floor },
    { name: "mock", run: mockOnly },
  ];
  for (const size of sizes) {
    mock.size = size;
    for (const v of variants) {
      mock.calls = 0;
      mock.bodies = [];
      const r = await v.run();
      const bodies = mock.bodies;
      mock.bodies = null;
      if (!ok(r) || mock.calls !== 1) throw new Error(`check failed: ${v.name} @ ${size}: ${r.n} deltas, text ${r.text === TEXT ? "right" : "wrong"}, ${mock.calls} calls`);
      if (v.name !== "mock" && bodies[0]?.stream !== true) throw new Error(`check failed: ${v.name} did not ask for a stream`);
    }
  }
  log(`streaming: checked ${variants.map((v) => v.name).join(", ")} at read sizes ${sizes.join(", ")} (${BODY.length} B body, ${EVENTS.length} events, ${CHUNKS} text deltas)`);
  const cfg = { rounds: quick ? 2 : 5, batch: 2, scale: quick ? 0.25 : 1 };
  const load0 = os.loadavg();
  const t0 = performance.now();
  const out = [];
  for (const size of sizes) {
    out.push({ size, variants: await measureSize(size, variants, cfg) });
    log(`  read size ${size}: ${table1(out.at(-1).variants)}`);
  }
  return { bodyBytes: BODY.length, events: EVENTS.length, chunks: CHUNKS, config: { ...cfg, quick }, loadavg: { start: load0, end: os.loadavg() }, seconds: (performance.now() - t0) / 1000, sizes: out };
}

const f1 = (x) => x.toFixed(1), f2 = (x) => x.toFixed(2), f3 = (x) => x.toFixed(3);
const table1 = (s) => Object.entries(s).map(([k, v]) => `${k} ${f2(v.perChunkUs.p50)} µs/chunk`).join(", ");

/** The table printed by compare.mjs and by this file. */
export function printStreaming(res, log = console.log) {
  const names = Object.keys(res.sizes[0].variants);
  log(`\nstreaming: ${CHUNKS}-chunk OpenAI reply (${res.bodyBytes} B), µs per chunk (run wall time / ${CHUNKS}; p50, cpu mean) and ms from the first body chunk to the first text event (p50)`);
  log(`read size  ${names.map((n) => `${n} µs/chunk`.padStart(20)).join("")}  ${names.filter((n) => n !== "mock").map((n) => `${n} ttft`.padStart(12)).join("")}   ours/aisdk (p50, cpu; net of mock)`);
  for (const { size, variants: s } of res.sizes) {
    const r = (pick) => pick(s.ours) / pick(s.aisdk);
    const net = (pick) => (pick(s.ours) - pick(s.mock)) / (pick(s.aisdk) - pick(s.mock));
    log(`${String(size).padEnd(9)}  ${names.map((n) => `${f2(s[n].perChunkUs.p50)} (${f2(s[n].perChunkUs.cpu)})`.padStart(20)).join("")}  ${names.filter((n) => n !== "mock").map((n) => f3(s[n].ttftMs.p50).padStart(12)).join("")}   ${f2(r((x) => x.perChunkUs.p50))}, ${f2(r((x) => x.perChunkUs.cpu))}; ${f2(net((x) => x.perChunkUs.p50))}; ttft ${f2(r((x) => x.ttftMs.p50))}`);
  }
  log(`(${res.config.rounds} rounds, ${f1(res.seconds)} s, load average ${res.loadavg.start.map(f2).join(" ")} → ${res.loadavg.end.map(f2).join(" ")})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pkgDir = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(here, "..", "pkg"));
  const basePkg = process.env.BASELINE_PKG ? path.resolve(process.env.BASELINE_PKG) : null;
  const sizes = process.env.SIZES ? process.env.SIZES.split(",").map((s) => (s === "event" ? s : Number(s))) : SIZES;
  const res = await runStreaming({ pkgDir, basePkg, quick: !!process.env.QUICK, sizes });
  printStreaming(res);
  const out = { date: new Date().toISOString(), node: process.version, machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length }, pkg: pkgDir, baseline: basePkg, ...res };
  fs.mkdirSync(path.join(here, "out"), { recursive: true });
  fs.writeFileSync(path.join(here, "out", "streaming.json"), JSON.stringify(out, null, 2));
}
