// The workload of bench/compare.mjs and bench/profile.mjs: the scripted model, the mock fetch,
// the two tools, and the four ways of doing one run (this package, the AI SDK, a minimal JS
// loop, the mock alone), each with a check that it did the work.
import path from "node:path";

const { generateText, tool, jsonSchema, stepCountIs } = await import("ai");
const { createOpenAI } = await import("@ai-sdk/openai");

// ---- the scripted model and the mock -------------------------------------------------------
export const PROMPT = "weather and time in Paris?";
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
export const mock = { calls: 0, bodies: null };
export async function mockFetch(url, init) {
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

// (a) this package, from a built package folder (pkg/, or an instrumented copy)
export async function loadOurs(pkgDir) {
  const { createClient, createToolkit, defineTool } = await import(path.join(pkgDir, "node.js"));
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
  return oursRun;
}
export const oursOk = (r) => r.status === "done" && r.toolCallCount === 2 && r.text === FINAL_TEXT;

// (b) the Vercel AI SDK
const openai = createOpenAI({ fetch: mockFetch, apiKey: "k", baseURL: "http://mock/v1" });
const model = openai.chat("bench");
const aiTools = {
  get_weather: tool({ description: "weather", inputSchema: jsonSchema(SCHEMAS.get_weather), execute: getWeather }),
  get_time: tool({ description: "time", inputSchema: jsonSchema(SCHEMAS.get_time), execute: getTime }),
};
export const aisdkRun = (n) => {
  const base = { model, system: SYSTEM, tools: aiTools, stopWhen: stepCountIs(5) };
  const msgs = n ? [...HIST[n], { role: "user", content: PROMPT }] : null;
  return () => generateText(msgs ? { ...base, messages: msgs } : { ...base, prompt: PROMPT });
};
export const aisdkOk = (r) => r.steps.length === 2 && r.text === FINAL_TEXT;

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
export const minimalRun = (n) => () => minimalLoop(PROMPT, HIST[n]);
export const minimalOk = (r) => r === FINAL_TEXT;

// (d) the mock alone: two calls, both bodies read
export const mockRun = () => async () => {
  const a = await (await mockFetch(URL_, { method: "POST", body: "{}" })).text();
  const b = await (await mockFetch(URL_, { method: "POST", body: "{}" })).text();
  return a.length + b.length;
};
export const mockOk = (r) => r === TOOL_CALLS.length + FINAL.length;

// ---- checks before timing ------------------------------------------------------------------
function assert(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}
const bodyOf = (b) => JSON.parse(typeof b === "string" ? b : new TextDecoder().decode(b));
const textOf = (content) => (typeof content === "string" ? content : JSON.stringify(content));

export async function verify(v) {
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

