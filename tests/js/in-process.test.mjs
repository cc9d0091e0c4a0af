// `toolnexus-wasm/in-process`: a model that is a function, through everything past the model
// call: the request it receives, whole and streamed turns, relay tools answered by `waitFor`
// and by a durable halt resumed in a fresh client, approvals, a conversation store, signed
// states, an agent tool's child, and the typed errors of a throwing or malformed `generate`.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayAnswer, relayCallsOf, relayTool, ToolnexusError } from "toolnexus-wasm";
import { inProcessModel, IN_PROCESS_BASE_URL } from "toolnexus-wasm/in-process";
import { agentTool } from "toolnexus-wasm/agents";

/** A scripted model: each call takes the next step (a turn, or a function of the request). */
function scripted(steps) {
  const requests = [];
  const generate = async (request, { signal }) => {
    requests.push(structuredClone({ ...request, body: undefined }));
    assert.ok(signal === undefined || signal instanceof AbortSignal, "generate gets the run's signal when it has one");
    const step = steps.shift();
    assert.ok(step, "the model was called more often than scripted");
    return typeof step == "function" ? step(request) : step;
  };
  return { generate, requests };
}

const clicks = () => createToolkit([relayTool("click", "Click an element", { type: "object", properties: { ref: { type: "string" } }, required: ["ref"] })]);

test("inProcessModel: options for createClient, refused without a function", () => {
  const o = inProcessModel({ generate: () => ({ text: "x" }) });
  assert.equal(o.style, "openai");
  assert.equal(o.baseUrl, IN_PROCESS_BASE_URL);
  assert.equal(o.model, "in-process");
  assert.equal(o.retries, 0);
  assert.throws(() => inProcessModel(/** @type {any} */ ({})), (e) => e instanceof ToolnexusError && e.code === "bad_input" && /generate/.test(e.message));
});

test("the request generate receives: plain messages, parsed args, tool names on results, params", async () => {
  const m = scripted([{ toolCalls: [{ name: "lookup", args: { item: "mug" } }] }, { text: "It costs 4 EUR.", usage: { promptTokens: 7, completionTokens: 3 } }]);
  const lookup = defineTool({ name: "lookup", description: "Price of an item", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: ({ item }) => `${item}: 4 EUR` });
  const client = createClient({ ...inProcessModel({ generate: m.generate, model: "local" }), systemPrompt: "Be brief.", requestParams: { temperature: 0.2 } });
  const r = await client.run("What does the mug cost?", { toolkit: createToolkit([lookup]) });
  assert.equal(r.status, "done");
  assert.equal(r.text, "It costs 4 EUR.");
  assert.deepEqual(r.usage, { promptTokens: 7, completionTokens: 3, totalTokens: 10 });
  const [first, second] = m.requests;
  assert.equal(first.model, "local");
  assert.equal(first.stream, false);
  assert.deepEqual(first.messages, [{ role: "system", content: "Be brief." }, { role: "user", content: "What does the mug cost?" }]);
  assert.deepEqual(first.tools.map((t) => t.name), ["lookup"]);
  assert.equal(first.tools[0].description, "Price of an item");
  assert.equal(first.toolChoice, "auto");
  assert.equal(first.params.temperature, 0.2);
  assert.deepEqual(second.messages.slice(2), [
    { role: "assistant", content: "", toolCalls: [{ id: "call_0_0", name: "lookup", args: { item: "mug" } }] },
    { role: "tool", toolCallId: "call_0_0", toolName: "lookup", content: "mug: 4 EUR" },
  ]);
});

test("streamed: an async iterable of deltas arrives as stream events, and a whole turn serves a stream too", async () => {
  const m = scripted([
    async function* () {
      yield { type: "text", delta: "Let me " };
      yield { type: "text", delta: "click." };
      yield { type: "tool_call", id: "c1", name: "click", args: { ref: "e1" } };
      yield { type: "usage", usage: { promptTokens: 5, completionTokens: 2 } };
    },
    { text: "Clicked." },
  ]);
  const client = createClient({ ...inProcessModel(m), waitFor: async (req) => relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: `clicked ${c.input.ref}` }))) });
  const events = [];
  for await (const e of client.stream("click it", { toolkit: clicks() })) events.push(e);
  assert.equal(m.requests[0].stream, true);
  assert.deepEqual(events.filter((e) => e.type === "text").map((e) => e.delta), ["Let me ", "click.", "Clicked."]);
  const call = events.find((e) => e.type === "tool_call");
  assert.deepEqual([call.id, call.name, call.args], ["c1", "click", { ref: "e1" }]);
  assert.equal(events.find((e) => e.type === "tool_result").output, "clicked e1");
  const done = events.at(-1);
  assert.equal(done.type, "done");
  assert.equal(done.result.status, "done");
  assert.equal(done.result.usage.promptTokens, 5);
});

test("a relay halt goes through JSON and a fresh client resumes it; three parallel calls each run once", async () => {
  const m = scripted([
    { toolCalls: [{ name: "click", args: { ref: "a" } }, { name: "click", args: { ref: "b" } }, { name: "click", args: { ref: "c" } }] },
    (req) => ({ text: req.messages.filter((x) => x.role === "tool").map((x) => x.content).join(", ") }),
  ]);
  const options = inProcessModel(m);
  const halted = await createClient(options).run("click all three", { toolkit: clicks() });
  assert.equal(halted.status, "pending");
  const state = JSON.parse(JSON.stringify(halted));
  assert.ok(!JSON.stringify(state).includes("in-process.invalid"), "the state holds no base URL");
  const calls = relayCallsOf(state.pending);
  assert.deepEqual(calls.map((c) => c.input.ref), ["a", "b", "c"]);
  const answer = relayAnswer(state.pending.id, calls.reverse().map((c) => ({ id: c.id, output: `did ${c.input.ref}` })));
  const done = await createClient(options).runWithAnswer({ toolkit: clicks(), state, answer });
  assert.equal(done.status, "done");
  assert.equal(done.text, "did a, did b, did c");
  assert.equal(m.requests.length, 2, "the model was called once per turn, none again on resume");
});

test("an approval halts, and the approved tool runs exactly once on resume", async () => {
  const ran = [];
  const pay = defineTool({ name: "pay", description: "Pays", needsApproval: true, run: async () => (ran.push(1), "paid") });
  const m = scripted([{ toolCalls: [{ id: "p1", name: "pay", args: {} }] }, { text: "Paid." }]);
  const options = { ...inProcessModel(m), stateSecret: "a-secret-of-at-least-32-characters!!" };
  const halted = await createClient(options).run("pay", { toolkit: createToolkit([pay]) });
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.kind, "approval");
  const done = await createClient(options).runWithAnswer({ toolkit: createToolkit([pay]), state: halted, answer: { id: halted.pending.id, ok: true } });
  assert.equal(done.text, "Paid.");
  assert.deepEqual(ran, [1]);
});

test("ask: a conversation kept in the store goes on with the model's earlier turns", async () => {
  const m = scripted([{ text: "Hello." }, (req) => ({ text: `${req.messages.length} messages` })]);
  const client = createClient(inProcessModel(m));
  assert.equal((await client.ask("hi", { id: "c" })).text, "Hello.");
  assert.equal((await client.ask("again", { id: "c" })).text, "3 messages");
});

test("an agent tool's child calls the same function, its requests naming the delegate call", async () => {
  const m = scripted([
    { toolCalls: [{ id: "d1", name: "helper", args: { prompt: "say hi" } }] },
    (req) => ({ text: `child of ${req.callPath}` }),
    (req) => ({ text: `root got: ${req.messages.at(-1).content}` }),
  ]);
  const r = await createClient(inProcessModel(m)).run("delegate", { toolkit: createToolkit([agentTool({ name: "helper", description: "Helps", systemPrompt: "helper" })]) });
  assert.equal(r.text, `root got: child of ${m.requests[1].callPath}`);
  assert.ok(m.requests[1].callPath.includes("d1"));
});

test("typed errors: a throw is provider_http (its status kept, retried when asked), a malformed turn names what is wrong, an abort stays an abort", async () => {
  const thrown = await createClient(inProcessModel({ generate: () => { throw new Error("model not loaded"); } })).run("x").catch((e) => e);
  assert.ok(thrown instanceof ToolnexusError);
  assert.equal(thrown.code, "provider_http");
  assert.equal(thrown.status, 500);
  assert.match(thrown.message, /in-process model threw: model not loaded/);

  let n = 0;
  const busy = inProcessModel({ generate: () => { if (n++ === 0) throw Object.assign(new Error("out of capacity"), { status: 429 }); return { text: "ok" }; }, retries: 1 });
  assert.equal((await createClient({ ...busy, retryBaseMs: 1 }).run("x")).text, "ok");
  assert.equal(n, 2, "a 429 was retried once");

  for (const [turn, words] of [[null, /generate returned null/], [{ text: 3 }, /text is number/], [{ toolCalls: [{ args: {} }] }, /tool call 0 has no name/], [{ finishReason: "done" }, /finishReason is "done"/]]) {
    const e = await createClient(inProcessModel({ generate: () => turn })).run("x").catch((x) => x);
    assert.equal(e.code, "provider_http", JSON.stringify(turn));
    assert.equal(e.status, 502);
    assert.match(e.message, words);
    assert.match(e.message, /return \{ text\?, toolCalls\?/, "the message names the shape to return");
  }

  const ac = new AbortController();
  const slow = inProcessModel({ generate: (_req, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))) });
  const run = createClient(slow).run("x", { signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  const aborted = await run.catch((e) => e);
  assert.equal(aborted.code, "aborted");
});

test("a streamed turn of the wrong shape fails the stream with the shape named", async () => {
  const m = scripted([
    async function* () {
      yield { type: "text", delta: "hi" };
      yield { type: "image" };
    },
  ]);
  const events = [];
  const e = await (async () => {
    for await (const ev of createClient(inProcessModel(m)).stream("x")) events.push(ev);
  })().catch((x) => x);
  assert.ok(e instanceof ToolnexusError, String(e));
  assert.match(e.message, /an event is "image"/);
});

test("a whole turn with usage and tool calls serves a streamed call (no stall on events that write nothing)", async () => {
  let n = 0;
  const generate = () => (n++ === 0 ? { toolCalls: [{ name: "click", args: { ref: "e1" } }], usage: { promptTokens: 1, completionTokens: 2 } } : { text: "done", usage: { promptTokens: 3, completionTokens: 1 }, finishReason: "stop" });
  const client = createClient({ ...inProcessModel({ generate }), waitFor: async (req) => relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: "ok" }))) });
  const events = [];
  for await (const e of client.stream("click", { toolkit: clicks() })) events.push(e);
  assert.equal(events.at(-1).result.text, "done");
  assert.equal(events.at(-1).result.usage.promptTokens, 4);
});
