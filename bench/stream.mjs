// Streaming and memory benchmarks of the built package in Node (they measure, never assert).
//   node bench/stream.mjs          # prints figures, writes bench/out/stream.json
// 1. time to first `text` event: stream() to the first text event, with an in-process fetch
//    whose body is ready at once, so the time is the library's own;
// 2. throughput: text events per second over a 10,000-delta stream;
// 3. a 20-turn conversation with tools kept by id in a store: saves, and state size per turn.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const { createClient, createToolkit, defineTool, memoryStore } = await import(path.resolve(here, "../pkg/node.js"));
const enc = new TextEncoder();
const chunk = (delta) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
const tail = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\ndata: [DONE]\n\n`;

/** A Response whose body is the given SSE text, delivered in `size`-byte chunks. */
const sseResponse = (text, size = 4096) => {
  const bytes = enc.encode(text);
  let at = 0;
  return new Response(new ReadableStream({
    pull(c) { if (at >= bytes.length) return c.close(); c.enqueue(bytes.subarray(at, at + size)); at += size; },
  }), { status: 200, headers: { "content-type": "text/event-stream" } });
};
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { n: s.length, mean: s.reduce((a, b) => a + b, 0) / s.length, p50: s[s.length >> 1], p95: s[Math.floor(s.length * 0.95)] }; };

// 1. time to first text event
const short = chunk({ role: "assistant", content: "" }) + ["Hello", " there", "!"].map((t) => chunk({ content: t })).join("") + tail;
const ttftClient = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", fetch: async () => sseResponse(short) });
const ttft = [];
for (let i = 0; i < 700; i++) {
  const t = performance.now();
  const it = ttftClient.stream("hi", {});
  for await (const e of it) {
    if (e.type === "text") { if (i >= 200) ttft.push(performance.now() - t); await it.return(); break; }
  }
}

// 2. throughput on 10,000 deltas
const big = chunk({ role: "assistant", content: "" }) + Array.from({ length: 10_000 }, (_, i) => chunk({ content: `tok${i} ` })).join("") + tail;
const tpClient = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", fetch: async () => sseResponse(big) });
const rates = [];
for (let round = 0; round < 6; round++) {
  let n = 0;
  const t = performance.now();
  for await (const e of tpClient.stream("go", {})) if (e.type === "text") n++;
  const s = (performance.now() - t) / 1000;
  if (n !== 10_000) throw new Error(`expected 10000 text events, got ${n}`);
  if (round > 0) rates.push(n / s);
}

// 3. a 20-turn conversation with tools, kept by id
let turn = 0;
const convoFetch = async (url, init) => {
  const body = JSON.parse(init.body);
  const last = body.messages.at(-1);
  turn++;
  const msg = last.role === "tool"
    ? { role: "assistant", content: `The weather in city ${turn} is ${last.content}.` }
    : { role: "assistant", content: null, tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: `city ${turn}` }) } }] };
  return new Response(JSON.stringify({ choices: [{ index: 0, message: msg }], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } }), { status: 200 });
};
const inner = memoryStore();
let saves = 0;
const sizes = [];
const store = { get: (id) => inner.get(id), delete: (id) => inner.delete(id), save: (id, s) => { saves++; sizes.push(JSON.stringify(s).length); return inner.save(id, s); } };
const kit = createToolkit({ tools: [defineTool({ name: "get_weather", description: "weather", inputSchema: { type: "object", properties: { city: { type: "string" } } }, run: async ({ city }) => `sunny, 21°C in ${city}` })] });
const convo = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", fetch: convoFetch, store, systemPrompt: "You are a weather assistant." });
for (let i = 0; i < 20; i++) await convo.ask(`What is the weather in city ${i}?`, { toolkit: kit, id: "bench" });
const finalState = JSON.stringify(await store.get("bench"));

const results = {
  date: new Date().toISOString(), node: process.version,
  timeToFirstText: stats(ttft),
  throughputEventsPerSecond: stats(rates),
  conversation20: { asks: 20, saves, savesPerAsk: saves / 20, finalStateBytes: finalState.length, finalStateMessages: JSON.parse(finalState).messages.length, bytesPerAsk: finalState.length / 20, largestSave: Math.max(...sizes) },
};
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "stream.json"), JSON.stringify(results, null, 2));
const f = (x) => x.toFixed(3);
console.log(`time to first text event (n=${ttft.length}): mean ${f(results.timeToFirstText.mean)} ms, p50 ${f(results.timeToFirstText.p50)} ms, p95 ${f(results.timeToFirstText.p95)} ms`);
console.log(`throughput on 10,000 deltas (5 rounds): mean ${Math.round(results.throughputEventsPerSecond.mean)} events/s, min ${Math.round(Math.min(...rates))}`);
const c = results.conversation20;
console.log(`20 asks with a tool each: ${c.saves} saves (${c.savesPerAsk}/ask), final state ${c.finalStateBytes} B for ${c.finalStateMessages} messages (${Math.round(c.bytesPerAsk)} B/ask)`);
