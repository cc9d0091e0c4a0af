// A run's result reads its `messages` only when asked (host.js `runResult`): the lazy property
// must look like the plain one it replaced to every reader: JSON.stringify, structuredClone,
// spreading, key order, repeated reads, assignment, a frozen result; in run, ask, the
// *WithAnswer calls and a stream's `done` event.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, memoryStore, relayTool, relayAnswer, relayCallsOf } from "toolnexus-wasm";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const reply = (message) =>
  new Response(JSON.stringify({ id: "x", object: "chat.completion", model: "m", choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));

/** Two model calls: one tool call, then a text saying "é\u2028\"done\"" (escapes survive). */
function twoTurns() {
  let n = 0;
  return async () =>
    n++ % 2 === 0
      ? reply({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "echo", arguments: '{"x":"ü"}' } }] })
      : reply({ role: "assistant", content: 'é\u2028"done"' });
}

const toolkit = createToolkit({ tools: [defineTool({ name: "echo", description: "echo", inputSchema: { type: "object" }, run: async ({ x }) => `got ${x}` })] });
const KEYS = ["schemaVersion", "style", "status", "text", "messages", "toolCalls", "toolCallCount", "turns", "usage", "model"];
// After `model`, in this order: the finish of the last model call (absent when the run made
// none), `reasoning` always, then `limit` / `pending` when they apply.
const TAIL = ["finishReason", "providerFinishReason", "reasoning", "limit", "pending"];

function checkResult(r, first) {
  const keys = Object.keys(r);
  assert.deepEqual(keys, [...KEYS, ...TAIL.filter((k) => k === "reasoning" || keys.includes(k))]);
  assert.equal(typeof r.reasoning, "string");
  const whole = JSON.parse(JSON.stringify(r));
  const messages = r.messages;
  assert.ok(Array.isArray(messages) && messages.length >= 2, "messages is the transcript");
  assert.equal(r.messages, messages, "a second read gives the same array");
  assert.deepEqual(whole.messages, messages);
  assert.deepEqual(structuredClone(r), whole);
  assert.deepEqual({ ...r }, { ...whole, messages });
  assert.deepEqual(Object.assign({}, r).messages, messages);
  if (first) assert.deepEqual(messages[0], first);
}

test("run: messages is read lazily but looks like a plain property to every reader", async () => {
  const client = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "m", apiKey: "k", fetch: twoTurns() });
  const r = await client.run("hi ✓", { toolkit });
  assert.equal(typeof Object.getOwnPropertyDescriptor(r, "messages").get, "function", "not parsed before it is read");
  assert.equal(r.text, 'é\u2028"done"');
  checkResult(r, { role: "user", content: "hi ✓" });
  assert.deepEqual(r.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.equal(r.messages[2].content, "got ü");

  // Stringified before any read: the same text as after.
  const r2 = await client.run("hi ✓", { toolkit });
  const before = JSON.stringify(r2);
  assert.equal(before, JSON.stringify(r));
  assert.equal(JSON.stringify(r2), before);

  // Assignment replaces it, before or after a read.
  const r3 = await client.run("hi ✓", { toolkit });
  r3.messages = [1];
  assert.deepEqual(r3.messages, [1]);
  assert.equal(JSON.stringify(r3), before.replace(JSON.stringify(r.messages), "[1]"));
  r3.messages = null;
  assert.equal(r3.messages, null);

  // Frozen before the first read, it still reads; deleted, it is gone.
  const r4 = Object.freeze(await client.run("hi ✓", { toolkit }));
  assert.deepEqual(r4.messages, r.messages);
  const r5 = await client.run("hi ✓", { toolkit });
  delete r5.messages;
  assert.equal("messages" in r5, false);
});

test("anthropic style: the messages in the caller's dialect; a history round-trips through them", async () => {
  let n = 0;
  const fetch = async () =>
    new Response(JSON.stringify(n++ === 0
      ? { id: "a", type: "message", role: "assistant", model: "m", content: [{ type: "tool_use", id: "t1", name: "echo", input: { x: "1" } }], stop_reason: "tool_use", usage: { input_tokens: 1, output_tokens: 1 } }
      : { id: "b", type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } }));
  const client = createClient({ baseUrl: "http://mock", style: "anthropic", model: "m", apiKey: "k", fetch });
  const r = await client.run("q", { toolkit });
  checkResult(r, { role: "user", content: "q" });
  assert.equal(r.messages[1].content[0].type, "tool_use");
  const again = await client.run("q2", { toolkit, history: r.messages });
  assert.equal(again.messages.length, r.messages.length + 2);
});

test("ask, askWithAnswer, runWithAnswer and a stream's done event carry the same lazy messages", async () => {
  const model = await startScriptedModel();
  try {
    const store = memoryStore();
    const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k", store });
    const kit = createToolkit({ tools: [
      defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$2 for ${item}` }),
      relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } }),
    ] });
    const clickAll = (request) => relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));

    const halted = await client.ask("#mixed", { toolkit: kit, id: "a" });
    assert.equal(halted.status, "pending");
    checkResult(halted, { role: "user", content: "#mixed" });
    const asked = await client.askWithAnswer({ toolkit: kit, id: "a", answer: clickAll(halted.pending) });
    assert.equal(asked.status, "done");
    checkResult(asked, { role: "user", content: "#mixed" });
    assert.deepEqual(asked.messages.slice(0, 2), halted.messages.slice(0, 2));

    const ran = await client.run("#mixed", { toolkit: kit });
    const resumed = await client.runWithAnswer({ toolkit: kit, history: ran.messages, pending: ran.pending, answer: clickAll(ran.pending) });
    checkResult(resumed, { role: "user", content: "#mixed" });
    assert.equal(JSON.stringify(resumed.messages), JSON.stringify(asked.messages));
    assert.equal(resumed.text, asked.text);

    const events = [];
    for await (const e of client.stream("#mixed", { toolkit: kit, id: "s" })) events.push(e);
    const done = events.at(-1);
    assert.deepEqual(Object.keys(done), ["type", "result"]);
    assert.equal(done.type, "done");
    checkResult(done.result, { role: "user", content: "#mixed" });
    const more = [];
    for await (const e of client.streamWithAnswer({ toolkit: kit, id: "s", answer: clickAll(done.result.pending) })) more.push(e);
    checkResult(more.at(-1).result, { role: "user", content: "#mixed" });
    assert.equal(JSON.stringify(more.at(-1).result.messages), JSON.stringify(asked.messages));
  } finally {
    await model.close();
  }
});
