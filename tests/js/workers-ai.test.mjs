// `toolnexus-wasm/workers-ai` in Node: the mapping onto the binding's inputs and back, for the
// four families of recorded answers (tests/workerd/workers-ai-fixtures.mjs), whole and streamed;
// ids the binding accepts, kept consistent through a halt; the binding's quirks (content: null,
// JSON for a stream request, calls leaked into text, 3040 out of capacity, 5023); AI Gateway.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayAnswer, relayCallsOf, relayTool, ToolnexusError } from "toolnexus-wasm";
import { workersAI, wireId, inputsOf, leakedCalls, turnOf, deltasOf } from "toolnexus-wasm/workers-ai";
import { families, recordedAI, expectedCalls, sseStream } from "../workerd/workers-ai-fixtures.mjs";

const weather = (runs) => defineTool({ name: "get_weather", description: "Weather in a city", inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, run: (a) => { runs.push(["get_weather", a]); return "18°C"; } });
const click = (runs) => defineTool({ name: "click", description: "Click an element", inputSchema: { type: "object", properties: { selector: { type: "string" } } }, run: (a) => { runs.push(["click", a]); return "clicked"; } });
const relayClick = () => relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } } });
const WIRE = /^[a-zA-Z0-9]{9}$/;

for (const [name, f] of Object.entries(families)) {
  for (const mode of ["json", "sse"]) {
    test(`${name} (${mode === "json" ? "whole" : "streamed"}): a three-turn tool loop on the recorded answers`, async () => {
      const ai = recordedAI(name);
      const runs = [];
      const client = createClient({ ...workersAI(ai, { model: f.model }), systemPrompt: "Be brief." });
      const toolkit = createToolkit([weather(runs), click(runs)]);
      let result;
      if (mode === "json") result = await client.run("Weather in London, then buy.", { toolkit });
      else {
        const events = [];
        for await (const e of client.stream("Weather in London, then buy.", { toolkit })) events.push(e);
        result = events.at(-1).result;
        assert.equal(events.filter((e) => e.type === "text").map((e) => e.delta).join(""), f.text.sse);
      }
      assert.equal(result.status, "done", JSON.stringify(result));
      assert.equal(result.text, f.text[mode]);
      assert.deepEqual(runs, [["get_weather", expectedCalls.weather], ["click", expectedCalls.click]]);
      assert.equal(ai.seen.length, 3, "one binding call per turn");
      const last = ai.seen[2].inputs;
      assert.equal(last.stream, mode === "sse" ? true : undefined);
      assert.equal(last.messages[0].role, "system");
      const tools = last.tools;
      if (name === "llama-3.3") assert.deepEqual(Object.keys(tools[0]).sort(), ["description", "name", "parameters"], "flat tools for the older family");
      else assert.equal(tools[0].type, "function");
      const ids = last.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
      assert.equal(ids.length, 2);
      assert.ok(ids.every((id) => WIRE.test(id)), ids.join());
      assert.deepEqual(last.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id), ids, "each result answers its call's id");
    });
  }
}

test("a relay halt keeps the ids: the resumed run in a fresh client sends the ids the first one did", async () => {
  const f = families["glm-kimi"];
  const ai = recordedAI("glm-kimi");
  const options = () => workersAI(ai, { model: f.model });
  const runs = [];
  const halted = await createClient(options()).run("Weather, then buy.", { toolkit: createToolkit([weather(runs), relayClick()]) });
  assert.equal(halted.status, "pending");
  const state = JSON.parse(JSON.stringify(halted));
  const [call] = relayCallsOf(state.pending);
  assert.match(call.id, WIRE, "the transcript's ids are already of the binding's form");
  assert.deepEqual(call.input, expectedCalls.click);
  const done = await createClient(options()).runWithAnswer({ toolkit: createToolkit([weather(runs), relayClick()]), state, answer: relayAnswer(state.pending.id, [{ id: call.id, output: "clicked" }]) });
  assert.equal(done.status, "done");
  assert.equal(done.text, "Hello");
  const sent = ai.seen[2].inputs.messages;
  assert.equal(sent.find((m) => m.role === "tool" && m.content === "clicked").tool_call_id, call.id);
  assert.deepEqual(runs, [["get_weather", expectedCalls.weather]], "the Worker's tool ran once, not again on resume");
});

test("wireId: nine letters or digits, kept when already so, the same in any process, distinct per id", () => {
  assert.equal(wireId("abcDEF123"), "abcDEF123");
  const ids = ["functions.click:0", "call_1_0", "chatcmpl-tool-abc", "", "x"].map(wireId);
  for (const id of ids) assert.match(id, WIRE);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(wireId("functions.click:0"), ids[0], "deterministic: no table in state");
});

test("Kimi-style ids repeated across turns become distinct ids", async () => {
  const calls = [];
  const ai = { run: async (_m, inputs) => {
    calls.push(inputs);
    const turn = inputs.messages.filter((m) => m.role === "assistant").length;
    if (turn < 2) return { choices: [{ message: { content: "", tool_calls: [{ id: "functions.click:0", type: "function", function: { name: "click", arguments: "{}" } }] }, finish_reason: "tool_calls" }] };
    return { choices: [{ message: { content: "done" }, finish_reason: "stop" }] };
  } };
  const r = await createClient(workersAI(ai, { model: "@cf/moonshotai/kimi-k2.7-code" })).run("click twice", { toolkit: createToolkit([click([])]) });
  assert.equal(r.status, "done");
  const ids = calls[2].messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
  assert.equal(ids.length, 2);
  assert.notEqual(ids[0], ids[1]);
});

test("inputsOf: no content null, tool choice in the OpenAI form, params passed on, images as image_url", () => {
  const request = {
    model: "m", stream: false, params: { temperature: 0.2, max_tokens: 50, parallel_tool_calls: true }, body: {},
    tools: [{ name: "t", description: "d", parameters: { type: "object" } }], toolChoice: { name: "t" },
    messages: [
      { role: "user", content: [{ type: "text", text: "see" }, { type: "image", mediaType: "image/png", data: "AAAA" }] },
      { role: "assistant", content: undefined, toolCalls: [{ id: "call_0_0", name: "t", args: { a: 1 } }] },
      { role: "tool", toolCallId: "call_0_0", toolName: "t", content: "ok" },
    ],
  };
  const i = inputsOf(request, false);
  assert.equal(i.messages[1].content, "");
  assert.equal(i.messages[1].tool_calls[0].function.arguments, '{"a":1}');
  assert.equal(i.messages[2].tool_call_id, i.messages[1].tool_calls[0].id);
  assert.deepEqual(i.tool_choice, { type: "function", function: { name: "t" } });
  assert.equal(i.temperature, 0.2);
  assert.equal(i.max_tokens, 50);
  assert.equal(i.parallel_tool_calls, undefined);
  assert.deepEqual(i.messages[0].content[1], { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } });
  assert.equal(inputsOf(request, true).tool_choice, undefined, "the older family takes no tool_choice");
});

test("calls leaked into text: a whole call naming a declared tool is read, JSON that is not a call stays text", async () => {
  const tools = [{ name: "get_weather", description: "", parameters: {} }];
  assert.deepEqual(leakedCalls('{"name":"get_weather","arguments":{"location":"Paris"}}', tools, 0).map((c) => [c.name, c.args]), [["get_weather", { location: "Paris" }]]);
  assert.deepEqual(leakedCalls('<tool_call>{"name":"get_weather","arguments":"{\\"location\\":\\"Rome\\"}"}</tool_call>', tools, 0).map((c) => c.args), [{ location: "Rome" }]);
  assert.equal(leakedCalls('{"name":"analysis","location":"x"}', tools, 0), undefined, "an undeclared name is text");
  assert.equal(leakedCalls('Here: {"name":"get_weather"}', tools, 0), undefined, "prose around it is text");
  assert.equal(turnOf({ response: { answer: 42 } }, [], 0).text, '{"answer":42}', "JSON mode's object response is the text");
  // Streamed: a text that opens with "{" but is no call comes through whole at the end.
  const out = [];
  for await (const d of deltasOf(sseStream([{ response: '{"answer":' }, { response: "42}" }]), tools, 0)) out.push(d);
  assert.deepEqual(out.filter((d) => d.type === "text").map((d) => d.delta), ['{"answer":42}']);
});

test("3040 out of capacity is retried as a 429, and is provider_http 429 when retries run out", async () => {
  const f = families["llama-3.3"];
  const ai = recordedAI("llama-3.3", { failFirst: 1 });
  const r = await createClient(workersAI(ai, { model: f.model })).run("hi", { toolkit: createToolkit([weather([]), click([])]) });
  assert.equal(r.status, "done");
  assert.equal(ai.seen.length, 4, "the first call failed and was tried again");
  const none = recordedAI("llama-3.3", { failFirst: 5 });
  await assert.rejects(createClient(workersAI(none, { model: f.model, retries: 0 })).run("hi"), (e) => e instanceof ToolnexusError && e.code === "provider_http" && e.status === 429 && /3040/.test(e.message));
});

test("5023 (JSON schema with a stream) is asked again whole; other errors keep their message", async () => {
  const seen = [];
  const ai = { run: async (_m, inputs) => {
    seen.push(inputs.stream === true);
    if (inputs.stream) throw new Error("AiError: 5023: JSON Schema mode is not supported with stream mode");
    return { response: '{"city":"Paris"}' };
  } };
  const client = createClient({ ...workersAI(ai, { model: "@cf/meta/llama-3.1-8b-instruct" }), requestParams: { response_format: { type: "json_schema", json_schema: { type: "object" } } } });
  const events = [];
  for await (const e of client.stream("city?")) events.push(e);
  assert.deepEqual(seen, [true, false]);
  assert.equal(events.at(-1).result.text, '{"city":"Paris"}');
  const broken = { run: async () => { throw new Error("5007: No such model @cf/none"); } };
  await assert.rejects(createClient(workersAI(broken, { model: "@cf/none" })).run("x"), (e) => e.code === "provider_http" && e.status === 500 && /5007: No such model/.test(e.message));
});

test("AI Gateway: the gateway option reaches every run; bad arguments are bad_input", async () => {
  const ai = recordedAI("gemma-4");
  const gateway = { id: "my-gateway", skipCache: true };
  await createClient(workersAI(ai, { model: families["gemma-4"].model, gateway })).run("hi", { toolkit: createToolkit([weather([]), click([])]) });
  assert.ok(ai.seen.every((s) => s.options.gateway === gateway));
  assert.throws(() => workersAI(/** @type {any} */ ({}), { model: "m" }), (e) => e instanceof ToolnexusError && e.code === "bad_input" && /env\.AI/.test(e.message));
  assert.throws(() => workersAI(ai, /** @type {any} */ ({})), (e) => e.code === "bad_input" && /model/.test(e.message));
});
