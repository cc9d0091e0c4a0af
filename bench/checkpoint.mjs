// Bytes written per checkpoint over a 50-turn conversation with screenshots, before (the state
// saved whole in a plain store) and after (toolnexus-wasm/blobs: withBlobs over the same store):
// every 5th turn a tool returns a ~100 KB PNG (137 KB of base64), every 5th a short lookup, the
// rest are text. A checkpoint is one save of the conversation; after, its bytes are the state
// saved plus the blobs first put during it. Measures, never asserts (tests/js/blobs.test.mjs does).
//   ./scripts/build.sh && node bench/checkpoint.mjs
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { createClient, createToolkit, defineTool, memoryStore } = await import(path.join(repo, "pkg/node.js"));
const { withBlobs, memoryBlobs, packValue, DEFAULT_THRESHOLD } = await import(path.join(repo, "pkg/blobs.js"));

const TURNS = 50;
const bytes = (v) => Buffer.byteLength(typeof v === "string" ? v : JSON.stringify(v));

function screenshot() {
  const b = crypto.randomBytes(100 * 1024);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b.toString("base64");
}
const shots = Array.from({ length: TURNS / 5 }, screenshot); // the same bytes for both runs
const toolkit = createToolkit({ tools: [
  defineTool({ name: "screenshot", description: "the visible tab", inputSchema: { type: "object", properties: { n: { type: "number" } } },
    run: async ({ n }) => ({ output: `captured the tab (${n})`, parts: [{ type: "image", data: shots[n], mediaType: "image/png" }] }) }),
  defineTool({ name: "lookup", description: "look up a product", inputSchema: { type: "object", properties: { q: { type: "string" } } },
    run: async ({ q }) => `${q}: in stock, 3 sizes, ships in 2 days. `.repeat(8) }),
] });

// The model: a screenshot on turns 0, 5, 10, …, a lookup on turns 2, 7, …, otherwise ~200 characters of text.
function model() {
  let calls = 0;
  return async (_url, init) => {
    const body = JSON.parse(init.body);
    const last = body.messages.at(-1);
    const turn = Number(/^turn (\d+)/.exec(typeof last.content === "string" ? last.content : "")?.[1] ?? -1);
    const tool = last.role === "user" && typeof last.content === "string" && (turn % 5 === 0 ? ["screenshot", { n: turn / 5 }] : turn % 5 === 2 ? ["lookup", { q: `item ${turn}` }] : null);
    calls++;
    const message = tool
      ? { role: "assistant", content: null, tool_calls: [{ id: `c${calls}`, type: "function", function: { name: tool[0], arguments: JSON.stringify(tool[1]) } }] }
      : { role: "assistant", content: `Done with step ${calls}. `.repeat(10) };
    return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: tool ? "tool_calls" : "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  };
}

async function conversation(wrap, prompts = Array.from({ length: TURNS }, (_, t) => `turn ${t}: what next?`)) {
  const inner = memoryStore();
  const blobs = memoryBlobs();
  let blobBytes = 0, blobPuts = 0;
  const counting = { get: blobs.get, has: blobs.has, put: async (k, v) => { blobBytes += bytes(v); blobPuts++; return blobs.put(k, v); } };
  const checkpoints = [];
  let timeMs = 0;
  const recording = {
    get: (id) => inner.get(id),
    delete: (id) => inner.delete(id),
    save: async (id, state) => {
      checkpoints.push({ state: bytes(state), blobs: blobBytes });
      blobBytes = 0;
      await inner.save(id, state);
    },
  };
  const store = wrap ? withBlobs(recording, counting) : recording;
  // Time spent in the store per save (packing, hashing, puts) as the loop sees it.
  const timed = { get: store.get, delete: store.delete, save: async (id, s) => { const t = performance.now(); await store.save(id, s); timeMs += performance.now() - t; } };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "m", apiKey: "k", fetch: model(), store: timed });
  for (const p of prompts) await client.ask(p, { toolkit, id: "c" });
  const stored = await inner.get("c");
  // A load (each blob read back and its hash checked), mean of 20.
  const t0 = performance.now();
  let loaded;
  for (let i = 0; i < 20; i++) loaded = await timed.get("c");
  const loadMs = (performance.now() - t0) / 20;
  return { checkpoints, blobPuts, final: bytes(stored), full: bytes(loaded), saveMs: timeMs / checkpoints.length, loadMs };
}

const summary = (r) => {
  const per = r.checkpoints.map((c) => c.state + c.blobs);
  const total = per.reduce((a, b) => a + b, 0);
  return {
    checkpoints: per.length, total, mean: Math.round(total / per.length), max: Math.max(...per),
    maxState: Math.max(...r.checkpoints.map((c) => c.state)), meanState: Math.round(r.checkpoints.reduce((a, c) => a + c.state, 0) / per.length),
    final: r.final, blobPuts: r.blobPuts,
    saveMs: r.saveMs.toFixed(2), loadMs: r.loadMs.toFixed(2),
  };
};

const before = summary(await conversation(false));
const after = summary(await conversation(true));
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`50 turns, ${shots.length} screenshots of ${kb(bytes(shots[0]))} base64 each; threshold ${DEFAULT_THRESHOLD} characters`);
console.log("                      checkpoints  written total  mean/ckpt  (state)   max/ckpt  max state  final state  blob puts  save ms  load ms");
for (const [name, s] of [["before (plain store)", before], ["after (withBlobs)", after]]) {
  console.log(`${name.padEnd(22)}${String(s.checkpoints).padStart(11)}${kb(s.total).padStart(15)}${kb(s.mean).padStart(11)}${kb(s.meanState).padStart(11)}${kb(s.max).padStart(11)}${kb(s.maxState).padStart(11)}${kb(s.final).padStart(13)}${String(s.blobPuts).padStart(11)}${s.saveMs.padStart(9)}${s.loadMs.padStart(9)}`);
}
console.log(`written ${(before.total / after.total).toFixed(1)}x less; final state ${(before.final / after.final).toFixed(0)}x smaller`);

// Ten screenshots in ten turns (the figure): the state held at the end.
const ten = Array.from({ length: 10 }, (_, i) => `turn ${i * 5}: a screenshot please`);
const [tenBefore, tenAfter] = [summary(await conversation(false, ten)), summary(await conversation(true, ten))];
console.log(`ten screenshots in ten turns: final state ${kb(tenBefore.final)} before, ${tenAfter.final} B after; largest checkpoint ${kb(tenBefore.max)} before, ${kb(tenAfter.max)} after`);

// A Workflow step result with a screenshot, as it is and packed.
const result = { output: "captured the tab", parts: [{ type: "image", data: shots[0], mediaType: "image/png" }] };
const packed = await packValue(result, memoryBlobs());
console.log(`a tool result with one screenshot as a step result: ${kb(bytes(result))} plain, ${bytes(packed)} B packed`);

// Store limits: the largest single value each store is asked to hold. In a Durable Object a
// blob is split into 60,000-character chunks (base64: 60,000 B; any text: at most 120,000 B).
const largestBlob = bytes("data:image/png;base64," + shots[0]);
const rows = [
  ["Durable Object value (128 KiB)", 128 * 1024, before.maxState, Math.max(after.maxState, Math.min(largestBlob, 60_000))],
  ["KV value (25 MiB)", 25 * 1024 * 1024, before.maxState, Math.max(after.maxState, largestBlob)],
  ["Workflow step result (1 MiB)", 1024 * 1024, before.maxState, after.maxState],
];
for (const [what, limit, b, a] of rows) console.log(`${what}: largest value before ${kb(b)} ${b <= limit ? "fits" : "DOES NOT FIT"}; after ${kb(a)} ${a <= limit ? "fits" : "DOES NOT FIT"}`);
console.log(`chrome.storage.local (10 MB quota without unlimitedStorage): before ${kb(before.total)} written over the conversation, after ${kb(after.total)}; held at the end: before ${kb(before.final)}, after ${kb(after.final + shots.length * largestBlob)}`);
