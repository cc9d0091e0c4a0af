// What one delegation costs (not a test: it measures). A run whose model calls one tool, side
// by side with the same run whose tool is an agent (a child with its own model call), in this
// package (`agentTool`) and in the Vercel AI SDK (a tool whose `execute` runs `generateText`, its
// subagent pattern), over one in-process mock fetch whose replies are prebuilt; and the mock
// alone, the floor (two or three fetches and reading their bodies).
//   cd bench && npm ci && cd .. && ./scripts/build.sh && node bench/agents.mjs
// Variants run round-robin in batches after a warm-up; each run is checked (text, call count).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(here, "../pkg"));
const { createClient, createToolkit, defineTool } = await import(path.join(pkg, "node.js"));
const { agentTool } = await import(path.join(pkg, "agents.js"));
const { generateText, tool, jsonSchema, stepCountIs } = await import("ai");
const { createOpenAI } = await import("@ai-sdk/openai");

const reply = (message, finish) => JSON.stringify({ id: "x", object: "chat.completion", created: 1700000000, model: "bench",
  choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } });
const CALL = (name) => reply({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name, arguments: '{"prompt":"find the price of the blue mug"}' } }] }, "tool_calls");
const TEXT = (t) => reply({ role: "assistant", content: t }, "stop");
// By the system prompt of the request: the root's script, or the child's.
const SCRIPTS = { root: { plain: [CALL("lookup"), TEXT("done")], agent: [CALL("research"), TEXT("done")] }, research: [TEXT("$12.50")] };
const state = { root: [], research: [], calls: 0 };
const reset = (kind) => {
  state.root = [...SCRIPTS.root[kind]];
  state.research = [...SCRIPTS.research];
  state.calls = 0;
};
async function mockFetch(_url, init) {
  state.calls++;
  const system = JSON.parse(init.body).messages[0].content;
  const next = (system === "research" ? state.research : state.root).shift();
  return new Response(next ?? '{"error":{"message":"too many calls"}}', { status: next ? 200 : 500, headers: { "content-type": "application/json" } });
}

const schema = { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] };
const lookup = async () => "$12.50";

// this package
const ours = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", systemPrompt: "root", fetch: mockFetch, retries: 0 });
const oursPlain = createToolkit([defineTool({ name: "lookup", description: "Looks a price up", inputSchema: schema, run: lookup })]);
const oursAgent = createToolkit([agentTool({ name: "research", description: "Finds prices", systemPrompt: "research", tools: [] })]);
// the AI SDK: the subagent is a tool whose execute runs generateText with its own system prompt
const model = createOpenAI({ baseURL: "http://mock/v1", apiKey: "k", fetch: mockFetch }).chat("bench");
const sdkPlain = { lookup: tool({ description: "Looks a price up", inputSchema: jsonSchema(schema), execute: lookup }) };
const sdkAgent = {
  research: tool({ description: "Finds prices", inputSchema: jsonSchema(schema),
    execute: async ({ prompt }) => (await generateText({ model, system: "research", prompt })).text }),
};
const sdk = (tools) => generateText({ model, system: "root", prompt: "price of the blue mug?", tools, stopWhen: stepCountIs(5) });

const variants = {
  "ours plain": ["plain", () => ours.run("price of the blue mug?", { toolkit: oursPlain }), (r) => r.text === "done" && r.toolCallCount === 1, 2],
  "ours agent": ["agent", () => ours.run("price of the blue mug?", { toolkit: oursAgent }), (r) => r.text === "done" && r.agentUsage?.research?.totalTokens === 60, 3],
  "aisdk plain": ["plain", () => sdk(sdkPlain), (r) => r.text === "done", 2],
  "aisdk agent": ["agent", () => sdk(sdkAgent), (r) => r.text === "done" && r.steps[0].toolResults[0].output === "$12.50", 3],
  "mock 2 calls": ["plain", async () => { for (const _ of [0, 1]) await (await mockFetch("", { body: '{"messages":[{"content":"root"}]}' })).text(); }, () => true, 2],
  "mock 3 calls": ["agent", async () => { for (const s of ["root", "research", "root"]) await (await mockFetch("", { body: `{"messages":[{"content":"${s}"}]}` })).text(); }, () => true, 3],
};

async function once(name) {
  const [kind, run, ok, calls] = variants[name];
  reset(kind);
  const t = performance.now();
  const r = await run();
  const ms = performance.now() - t;
  if (!ok(r) || state.calls !== calls) throw new Error(`${name}: the run did not do the work (${state.calls} calls): ${JSON.stringify(r?.text ?? r)}`);
  return ms;
}

const names = Object.keys(variants);
const WARMUP = Number(process.env.WARMUP ?? 400), ROUNDS = Number(process.env.ROUNDS ?? 40), BATCH = 10;
for (let i = 0; i < WARMUP; i++) for (const n of names) await once(n);
const times = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const n of [...names].sort(() => Math.random() - 0.5)) for (let i = 0; i < BATCH; i++) times[n].push(await once(n));
}
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] * 1000;
const us = Object.fromEntries(names.map((n) => [n, p50(times[n])]));
console.log(`per run, p50 of ${ROUNDS * BATCH} runs each (µs):`);
for (const n of names) console.log(`  ${n.padEnd(13)} ${us[n].toFixed(1)}`);
const floor = us["mock 3 calls"] - us["mock 2 calls"];
console.log(`one delegation (agent − plain): ours ${(us["ours agent"] - us["ours plain"]).toFixed(1)} µs, ` +
  `AI SDK ${(us["aisdk agent"] - us["aisdk plain"]).toFixed(1)} µs, floor (one more fetch) ${floor.toFixed(1)} µs`);
