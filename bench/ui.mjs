// The UI message stream's cost (toolnexus-wasm/ui, issue 34), in one Node process on one mock
// fetch that answers with the same streamed OpenAI chat reply (N text deltas):
//   events   our event stream alone: `for await (const e of client.stream(prompt))`
//   ui       the same run as a UI message stream Response, its body read to the end
//   aisdk    the AI SDK: streamText(...).toUIMessageStreamResponse(), its body read to the end
//   mock     the mock alone: one fetch and its body read (the floor every variant pays)
// p50 per run (µs) of ROUNDS x BATCH runs, interleaved; per chunk = (ui - events) / deltas.
//
//   cd bench && npm ci && cd .. && ./scripts/build.sh && node bench/ui.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(here, "../pkg"));
const { createClient } = await import(path.join(pkg, "node.js"));
const { toUIMessageStreamResponse } = await import(path.join(pkg, "ui.js"));
const { streamText } = await import("ai");
const { createOpenAI } = await import("@ai-sdk/openai");

const DELTAS = Number(process.env.DELTAS ?? 50);
const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: null, ...extra }] })}\n\n`;
let sse = chunk({ role: "assistant", content: "" });
for (let i = 0; i < DELTAS; i++) sse += chunk({ content: `word${i} ` });
sse += chunk({}, { finish_reason: "stop" });
sse += `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 5, completion_tokens: DELTAS, total_tokens: DELTAS + 5 } })}\n\ndata: [DONE]\n\n`;
const bytes = new TextEncoder().encode(sse);
const fetch = async () => new Response(bytes, { headers: { "content-type": "text/event-stream" } });
const expected = Array.from({ length: DELTAS }, (_, i) => `word${i} `).join("");

const client = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", retries: 0, fetch });
const openai = createOpenAI({ baseURL: "http://m/v1", apiKey: "k", fetch });
const drain = async (body) => {
  const reader = body.getReader();
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return n;
    n += value.length;
  }
};
const variants = {
  async events() {
    let text = "";
    for await (const e of client.stream("hi")) if (e.type == "text") text += e.delta;
    if (text != expected) throw new Error("events: wrong text");
  },
  async ui() {
    const n = await drain(toUIMessageStreamResponse(client.stream("hi")).body);
    if (n < bytes.length / 3) throw new Error("ui: short body");
  },
  async aisdk() {
    const n = await drain(streamText({ model: openai.chat("m"), prompt: "hi" }).toUIMessageStreamResponse().body);
    if (n < bytes.length / 3) throw new Error("aisdk: short body");
  },
  async mock() {
    await drain((await fetch()).body);
  },
};
// Checked before timed: the UI body holds every delta.
const body = await new Response(toUIMessageStreamResponse(client.stream("hi")).body).text();
if (!body.includes('"delta":"word0 "') || !body.endsWith("data: [DONE]\n\n")) throw new Error("ui body is not what it should be");

const ROUNDS = Number(process.env.ROUNDS ?? 5), BATCH = Number(process.env.BATCH ?? 40);
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < 100; i++) for (const f of Object.values(variants)) await f();
for (let r = 0; r < ROUNDS; r++) {
  for (const [k, f] of Object.entries(variants).sort(() => Math.random() - 0.5)) {
    for (let i = 0; i < BATCH; i++) {
      const t = performance.now();
      await f();
      times[k].push((performance.now() - t) * 1000);
    }
  }
}
const p50 = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
const m = Object.fromEntries(Object.entries(times).map(([k, a]) => [k, p50(a)]));
console.log(`UI message stream, ${DELTAS} text deltas, p50 of ${ROUNDS * BATCH} runs (µs):`);
for (const [k, v] of Object.entries(m)) console.log(`  ${k.padEnd(7)} ${v.toFixed(1)}`);
console.log(`  per chunk over our events: ${((m.ui - m.events) / DELTAS).toFixed(2)} µs; ui / aisdk ${(m.ui / m.aisdk).toFixed(2)}x; net of mock ${((m.ui - m.mock) / (m.aisdk - m.mock)).toFixed(2)}x`);
