// The in-process seam's per-call cost (node bench/workers-ai.mjs; measures, never asserts): one
// run of two model calls (a tool call, then the answer) with the model answered five ways, in
// one process:
//   http        `fetch` to a scripted model on 127.0.0.1 (a node:http server in this process)
//   fetch shim  the client's `fetch` option answering the same chat-completions JSON in memory
//   in-process  inProcessModel({ generate }) returning the same turns
//   workers-ai  workersAI(stand-in) with the stand-in returning the older family's answers
//   workers-ai streamed: the same through client.stream, the stand-in returning SSE
// Figures: mean and p50 per run and per model call; writes bench/out/workers-ai.json.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const { createClient, createToolkit, defineTool } = await import(path.resolve(here, "../pkg/node.js"));
const { inProcessModel } = await import(path.resolve(here, "../pkg/in-process.js"));
const { workersAI } = await import(path.resolve(here, "../pkg/workers-ai.js"));

const N = Number(process.env.RUNS ?? 400), WARM = 50;
const tool = defineTool({ name: "lookup", description: "Price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: ({ item }) => `${item}: $3` });
const toolkit = createToolkit([tool]);
const called = (body) => JSON.parse(body).messages.some((m) => m.role === "tool");
const reply = (body) => JSON.stringify(called(body)
  ? { choices: [{ index: 0, message: { role: "assistant", content: "It costs $3." }, finish_reason: "stop" }], usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 } }
  : { choices: [{ index: 0, message: { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"item":"mug"}' } }] }, finish_reason: "tool_calls" }] });

const server = http.createServer((req, res) => { let b = ""; req.on("data", (d) => (b += d)); req.on("end", () => { res.writeHead(200, { "content-type": "application/json" }); res.end(reply(b)); }); });
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/v1`;

const turnOf = (req) => (req.messages.some((m) => m.role === "tool") ? { text: "It costs $3.", usage: { promptTokens: 20, completionTokens: 4 } } : { toolCalls: [{ id: "c1", name: "lookup", args: { item: "mug" } }] });
const sse = (events) => new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode([...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), "data: [DONE]\n\n"].join(""))); c.close(); } });
const legacy = (inputs) => (inputs.messages.some((m) => m.role === "tool")
  ? { response: "It costs $3.", usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 } }
  : { response: null, tool_calls: [{ name: "lookup", arguments: { item: "mug" } }] });
const standIn = { run: async (_m, inputs) => (inputs.stream ? sse([legacy(inputs)]) : legacy(inputs)) };
const model = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

const cases = {
  http: () => createClient({ style: "openai", baseUrl: base, model: "bench", apiKey: "k", retries: 0 }),
  "fetch shim": () => createClient({ style: "openai", baseUrl: "http://mock/v1", model: "bench", apiKey: "k", retries: 0, fetch: async (_u, init) => new Response(reply(init.body), { status: 200, headers: { "content-type": "application/json" } }) }),
  "in-process": () => createClient(inProcessModel({ generate: turnOf })),
  "workers-ai": () => createClient(workersAI(standIn, { model })),
  "workers-ai streamed": () => createClient(workersAI(standIn, { model })),
};
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: s[s.length >> 1], p95: s[Math.floor(s.length * 0.95)] }; };

const out = {};
for (const [name, make] of Object.entries(cases)) {
  const client = make();
  const once = name.endsWith("streamed")
    ? async () => { let last; for await (const e of client.stream("What does the mug cost?", { toolkit })) last = e; return last.result; }
    : () => client.run("What does the mug cost?", { toolkit });
  const times = [];
  for (let i = 0; i < WARM + N; i++) {
    const t = performance.now();
    const r = await once();
    if (r.text !== "It costs $3.") throw new Error(`${name}: ${JSON.stringify(r)}`);
    if (i >= WARM) times.push(performance.now() - t);
  }
  const s = stats(times);
  out[name] = { runMeanMs: +s.mean.toFixed(3), runP50Ms: +s.p50.toFixed(3), runP95Ms: +s.p95.toFixed(3), perCallMeanMs: +(s.mean / 2).toFixed(3) };
  console.log(`${name.padEnd(20)} run mean ${s.mean.toFixed(3)} ms  p50 ${s.p50.toFixed(3)}  p95 ${s.p95.toFixed(3)}  per model call ${(s.mean / 2).toFixed(3)} ms`);
}
server.close();
fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out/workers-ai.json"), JSON.stringify({ runs: N, node: process.version, cases: out }, null, 2));
