// `toolnexus-wasm/prompt-api` in Node against the scripted `LanguageModel` (fake-language-model.mjs):
// the mode chosen at creation (native, constrained, fallback), the mapping of the loop's
// transcript onto sessions (initialPrompts, typed tool parts, no null, the responseConstraint
// union), three parallel calls answered by a durable halt resumed by a fresh client, streaming,
// usage from contextUsage, and Chrome's errors as typed ones.
import test, { afterEach } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayAnswer, relayCallsOf, relayTool, ToolnexusError } from "toolnexus-wasm";
import { promptApi, replySchema, noNulls } from "toolnexus-wasm/prompt-api";
import { installFakeLanguageModel } from "./fake-language-model.mjs";

const clicks = () => createToolkit([relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] })]);
const CHROME = ["LanguageModel", "LanguageModelToolCall", "LanguageModelToolSuccess", "LanguageModelToolError"];
afterEach(() => { for (const k of CHROME) delete globalThis[k]; });

async function haltAndResume(options) {
  const halted = await createClient({ ...options, systemPrompt: "You operate the tab." }).run("click #a, #b and #c", { toolkit: clicks() });
  assert.equal(halted.status, "pending", JSON.stringify(halted));
  const state = JSON.parse(JSON.stringify(halted));
  const calls = relayCallsOf(state.pending);
  assert.deepEqual(calls.map((c) => c.input.selector), ["#a", "#b", "#c"]);
  const answer = relayAnswer(state.pending.id, calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));
  return { calls, done: await createClient({ ...options, systemPrompt: "You operate the tab." }).runWithAnswer({ toolkit: clicks(), state, answer }) };
}

test("auto with tool use: native open-loop calls, three in one turn, answered as tool-response parts in a rebuilt session", async () => {
  const log = installFakeLanguageModel({ toolUse: true });
  const events = [];
  const options = await promptApi({ onEvent: (e) => events.push(e) });
  assert.equal(options.mode, "native");
  assert.ok(!Object.keys({ ...options }).includes("mode"), "mode is not spread into createClient");
  const { calls, done } = await haltAndResume(options);
  assert.deepEqual(calls.map((c) => c.id), ["fake-2-0", "fake-2-1", "fake-2-2"], "Chrome's callIDs are the calls' ids");
  assert.equal(done.status, "done");
  assert.equal(done.text, "Results: clicked #a; clicked #b; clicked #c");
  const [first, second] = log.creates;
  assert.deepEqual(first.tools.map((t) => t.name), ["click"]);
  assert.ok(first.expectedOutputs.some((x) => x.type == "tool-call"));
  assert.ok(first.expectedInputs.some((x) => x.type == "tool-response"));
  assert.deepEqual(first.initialPrompts, [{ role: "system", content: "You operate the tab." }]);
  // The resumed call's session: history as initialPrompts (the tool calls replayed), the results prompted.
  assert.equal(second.initialPrompts.length, 3);
  const replayed = second.initialPrompts[2];
  assert.equal(replayed.role, "assistant");
  assert.deepEqual(replayed.content.map((p) => [p.type, p.value.callID, p.value.arguments.selector]), [["tool-call", "fake-2-0", "#a"], ["tool-call", "fake-2-1", "#b"], ["tool-call", "fake-2-2", "#c"]]);
  const input = log.prompts[1].input;
  assert.equal(input.length, 1, "the three results are one user message");
  assert.deepEqual(input[0].content.map((p) => [p.type, p.value.constructor.name, p.value.name, p.value.result[0].value]), [
    ["tool-response", "LanguageModelToolSuccess", "click", "clicked #a"], ["tool-response", "LanguageModelToolSuccess", "click", "clicked #b"], ["tool-response", "LanguageModelToolSuccess", "click", "clicked #c"],
  ]);
  assert.equal(log.destroyed, 2, "each call's session is destroyed");
  assert.ok(done.usage.promptTokens > 0 && done.usage.completionTokens > 0, JSON.stringify(done.usage));
  assert.ok(events.some((e) => e.type == "context" && e.window == 4096 && e.used > 0));
});

test("auto without tool use: constrained, a responseConstraint union of each tool's call and an answer", async () => {
  const log = installFakeLanguageModel({ toolUse: false });
  const options = await promptApi();
  assert.equal(options.mode, "constrained");
  const { done } = await haltAndResume(options);
  assert.equal(done.text, "Results: clicked #a; clicked #b; clicked #c");
  const schema = log.prompts[0].constraint;
  assert.deepEqual(schema.anyOf.map((s) => s.required), [["calls"], ["answer"]]);
  assert.deepEqual(schema.anyOf[0].properties.calls.items.properties.tool, { const: "click" });
  assert.equal(log.creates[0].tools, undefined, "no native tools declared");
  assert.match(log.creates[0].initialPrompts[0].content, /^You operate the tab\.\n\nYou can call tools\./);
  assert.deepEqual(JSON.parse(log.creates[1].initialPrompts[2].content), { calls: [{ tool: "click", args: { selector: "#a" } }, { tool: "click", args: { selector: "#b" } }, { tool: "click", args: { selector: "#c" } }] });
  assert.match(log.prompts[1].input[0].content, /Result of click \(call_0_0\): clicked #a\nResult of click \(call_0_1\): clicked #b/);
});

test("replySchema: toolChoice none, required and a named tool; noNulls", () => {
  const tools = [{ name: "a", parameters: { type: "object" } }, { name: "b" }];
  assert.deepEqual(replySchema(tools, "none").required, ["answer"]);
  assert.deepEqual(replySchema(tools, "required").required, ["calls"]);
  assert.equal(replySchema(tools, "required").properties.calls.items.anyOf.length, 2);
  assert.deepEqual(replySchema(tools, { name: "b" }).properties.calls.items.properties.tool, { const: "b" });
  assert.deepEqual(replySchema([], "auto").required, ["answer"]);
  assert.deepEqual(noNulls({ a: null, b: [1, null, { c: null, d: 2 }], e: "x" }), { b: [1, { d: 2 }], e: "x" });
});

test("native: nulls in a call's arguments are stripped before they reach Chrome", async () => {
  let n = 0;
  const log = installFakeLanguageModel({ toolUse: true, respond: ({ messages }) => (n++ == 0 ? [{ type: "tool-call", value: { callID: "x1", name: "click", arguments: { selector: "#a", frame: null } } }] : [{ type: "text", value: `${messages.length} messages` }]) });
  const r = await createClient({ ...(await promptApi({ mode: "native" })), waitFor: async (req) => relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: "ok" }))) }).run("go", { toolkit: clicks() });
  assert.equal(r.status, "done", JSON.stringify(r));
  assert.deepEqual(log.creates[1].initialPrompts.at(-1).content[0].value.arguments, { selector: "#a" });
});

test("streamed: text deltas and three tool calls from promptStreaming", async () => {
  installFakeLanguageModel({ toolUse: true });
  const options = await promptApi({ mode: "native" });
  const client = createClient({ ...options, waitFor: async (req) => relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: `did ${c.input.selector}` }))) });
  const events = [];
  for await (const e of client.stream("click #x, #y and #z", { toolkit: clicks() })) events.push(e);
  assert.equal(events.filter((e) => e.type == "tool_call").length, 3);
  assert.equal(events.at(-1).result.text, "Results: did #x; did #y; did #z");
});

test("fallback: no LanguageModel, unavailable, or native asked without tool use; errors carry a reason without one", async () => {
  const fallback = { style: "openai", baseUrl: "https://api.example/v1", model: "m", apiKey: "k" };
  const events = [];
  const a = await promptApi({ fallback, onEvent: (e) => events.push(e) });
  assert.equal(a.mode, "fallback");
  assert.equal(a.baseUrl, fallback.baseUrl);
  assert.equal(events[0].reason, "unavailable");
  installFakeLanguageModel({ availability: "unavailable" });
  assert.equal((await promptApi({ fallback })).mode, "fallback");
  const e = await promptApi().catch((x) => x);
  assert.ok(e instanceof ToolnexusError);
  assert.equal(e.code, "provider_error");
  assert.equal(e.reason, "unavailable");
  assert.match(e.message, /fallback/);
  installFakeLanguageModel({ toolUse: false });
  assert.equal((await promptApi({ mode: "native" }).catch((x) => x)).reason, "no_tool_use");
  assert.equal((await promptApi({ mode: "bogus" }).catch((x) => x)).code, "bad_input");
});

test("download: progress events when it may, needs_activation when Chrome refuses it", async () => {
  installFakeLanguageModel({ availability: "downloadable" });
  const events = [];
  assert.equal((await promptApi({ onEvent: (e) => events.push(e) })).mode, "constrained");
  assert.deepEqual(events.filter((e) => e.type == "download").map((e) => e.loaded), [0, 0.5, 1]);
  installFakeLanguageModel({ availability: "downloadable", activation: false });
  assert.equal((await promptApi().catch((x) => x)).reason, "needs_activation");
  installFakeLanguageModel({ availability: "downloading" });
  assert.equal((await promptApi({ download: false }).catch((x) => x)).reason, "downloadable");
});

test("context overflow is provider_http 413 naming the window; a malformed constrained reply is 502", async () => {
  installFakeLanguageModel({ toolUse: true, contextWindow: 30 });
  const e = await createClient(await promptApi()).run("x".repeat(400)).catch((x) => x);
  assert.ok(e instanceof ToolnexusError, String(e));
  assert.equal(e.code, "provider_http");
  assert.equal(e.status, 413);
  assert.match(e.message, /QuotaExceededError.*context window/);
  for (const k of CHROME) delete globalThis[k];
  installFakeLanguageModel({ respond: () => "not json" });
  const bad = await createClient(await promptApi()).run("hi").catch((x) => x);
  assert.equal(bad.status, 502);
  assert.match(bad.message, /not JSON/);
});

test("contextoverflow reaches onEvent; images declared only when the transcript holds one", async () => {
  const log = installFakeLanguageModel({ toolUse: true, overflowAt: 10 });
  const events = [];
  const client = createClient(await promptApi({ onEvent: (e) => events.push(e) }));
  await client.run("a prompt long enough to pass the overflow mark");
  assert.ok(events.some((e) => e.type == "contextoverflow"));
  assert.ok(!log.creates[0].expectedInputs.some((x) => x.type == "image"));
  await client.run([{ type: "text", text: "what is this?" }, { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }]);
  assert.ok(log.creates[1].expectedInputs.some((x) => x.type == "image"));
  const image = log.prompts[1].input[0].content[1];
  assert.equal(image.type, "image");
  assert.ok(image.value instanceof Blob && image.value.type == "image/png" && image.value.size == 8);
});

test("an approval halts, the approved tool runs once on resume, and an abort stays an abort", async () => {
  let n = 0;
  installFakeLanguageModel({ toolUse: true, respond: ({ messages }) => (n++ == 0 ? [{ type: "tool-call", value: { callID: "p1", name: "pay", arguments: {} } }] : [{ type: "text", value: `after ${messages.at(-1).content[0].value.result[0].value}` }]) });
  const ran = [];
  const pay = () => createToolkit([defineTool({ name: "pay", description: "Pays", needsApproval: true, run: async () => (ran.push(1), "paid") })]);
  const options = { ...(await promptApi({ mode: "native" })), stateSecret: "a-secret-of-at-least-32-characters!!" };
  const halted = await createClient(options).run("pay", { toolkit: pay() });
  assert.equal(halted.pending.kind, "approval");
  const done = await createClient(options).runWithAnswer({ toolkit: pay(), state: halted, answer: { id: halted.pending.id, ok: true } });
  assert.equal(done.text, "after paid");
  assert.deepEqual(ran, [1]);
  const ac = new AbortController();
  ac.abort();
  assert.equal((await createClient(options).run("x", { signal: ac.signal }).catch((e) => e)).code, "aborted");
});

test("the scripted LanguageModel refuses what Chrome refuses (so the tests above can fail)", async () => {
  installFakeLanguageModel({ toolUse: true });
  const LM = globalThis.LanguageModel;
  const io = { expectedInputs: [{ type: "text" }, { type: "tool-call" }, { type: "tool-response" }], expectedOutputs: [{ type: "text" }, { type: "tool-call" }] };
  await assert.rejects(LM.create({ tools: [{ name: "t", description: "", inputSchema: {} }] }), { name: "NotSupportedError" });
  await assert.rejects(LM.create({ ...io, initialPrompts: [{ role: "assistant", content: [{ type: "tool-call", value: { callID: "c", name: "t", arguments: {} } }] }] }), { name: "SyntaxError" });
  const s = await LM.create(io);
  await assert.rejects(s.prompt([{ role: "user", content: [{ type: "tool-response", value: { callID: "c", name: "t", result: [] } }] }]), TypeError);
  await assert.rejects(s.prompt([{ role: "user", content: [{ type: "text", value: null }] }]), /null/);
});
