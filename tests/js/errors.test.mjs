// Bad input through the JS API: every failure is an Error with a stable `code`, nothing is lost,
// and the API key never shows. Provider replies come from an in-process fetch.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayTool, pending, authRequired } from "toolnexus-wasm";

const KEY = "sk-very-secret-key";
// A reply is a factory: a Response body can be read only once.
const reply = (body, status = 200) => () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
const scripted = (...replies) => { let i = 0; return async () => replies[Math.min(i++, replies.length - 1)](); };
const client = (fetch, extra = {}) => createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "m", apiKey: KEY, fetch, ...extra });
const calls = (...c) => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: c.map(([id, name, args]) => ({ id, type: "function", function: { name, arguments: args } })) } }] });
const text = (t) => ({ choices: [{ message: { role: "assistant", content: t } }] });

async function rejects(promise, code) {
  const e = await promise.then(() => null, (err) => err);
  assert.ok(e instanceof Error, `expected an Error, got ${e}`);
  assert.equal(e.name, "ToolnexusError");
  assert.equal(e.code, code, e.message);
  assert.ok(!e.message.includes(KEY), "no key in the message");
  return e;
}

test("provider bodies that are not what the API promises", async () => {
  await rejects(client(scripted(reply("<html>gateway</html>"))).run("x", {}), "provider_parse");
  await rejects(client(scripted(reply('{"choices":[{"message":{"content":"trunc'))).run("x", {}), "provider_parse");
  await rejects(client(scripted(reply({ object: "chat.completion" }))).run("x", {}), "provider_parse");
  await rejects(client(scripted(reply({ error: { message: "model overloaded" } }))).run("x", {}), "provider_error");
  const http = await rejects(client(scripted(reply(`bad key ${KEY}`, 500))).run("x", {}), "provider_http");
  assert.equal(http.status, 500);
  await rejects(client(async () => { throw new TypeError("Failed to fetch"); }).run("x", {}), "transport");
  await rejects(client(async () => ({ nope: true })).run("x", {}), "transport");
  const anthropic = createClient({ baseUrl: "http://m", style: "anthropic", model: "m", apiKey: KEY, fetch: scripted(reply({ id: "msg" })) });
  await rejects(anthropic.run("x", {}), "provider_parse");
});

test("tools that throw, return odd values, or are unknown become error results for the model", async () => {
  const kit = createToolkit({ tools: [
    defineTool({ name: "boom", description: "throws", run: () => { throw new Error("disk on fire"); } }),
    defineTool({ name: "reject", description: "rejects", run: async () => Promise.reject("nope") }),
    defineTool({ name: "obj", description: "object", run: () => ({ a: 1 }) }),
    defineTool({ name: "fn", description: "a function", run: () => () => 1 }),
    defineTool({ name: "nothing", description: "undefined", run: () => undefined }),
  ] });
  const f = scripted(reply(calls(["1", "boom", "{}"], ["2", "reject", "{}"], ["3", "obj", "{}"], ["4", "fn", "{}"], ["5", "nothing", "{}"], ["6", "ghost", "{}"], ["7", "obj", "[1]"])), reply(text("ok")));
  const r = await client(f).run("go", { toolkit: kit });
  assert.equal(r.status, "done");
  assert.deepEqual(r.toolCalls.map((c) => [c.output, c.isError]), [
    ["disk on fire", true],
    ["nope", true],
    ['{"a":1}', false],
    ["tool fn returned a value that is not JSON data", true],
    ["", false],
    ["Unknown tool: ghost", true],
    ["Invalid arguments for tool obj: arguments must be a JSON object, got an array", true],
  ]);
});

test("bad options, toolkits and states are rejected with codes", async () => {
  const f = scripted(reply(text("ok")));
  assert.equal(createClient({ style: "openai", model: "m" }).style, "openai", "baseUrl defaults by style");
  assert.throws(() => createClient({ style: "openai" }), { code: "bad_input" });
  assert.throws(() => createClient({ baseUrl: "u", style: "cohere", model: "m" }), { code: "bad_input" });
  assert.throws(() => createClient({ baseUrl: "u", style: "openai", model: "m", maxTurns: 0 }), { code: "bad_input" });
  assert.throws(() => createToolkit({ tools: [relayTool("bash", "x")] }), { code: "relay_collision" });
  const kit = createToolkit({ tools: [relayTool("click", "x")] });
  assert.throws(() => kit.add(relayTool("todowrite", "x")), { code: "relay_collision" });
  assert.throws(() => kit.add(relayTool("click", "again")), { code: "bad_input" });
  assert.equal(kit.tools.length, 1, "a refused add changes nothing");
  assert.throws(() => defineTool({ name: "x", description: "no run" }), { code: "bad_input" });
  await rejects(client(f).run("x", { history: "not an array" }), "bad_input");
  await rejects(client(f).run("x", { history: [{ role: "wizard" }] }), "bad_state");
  const answer = { id: "p", ok: true };
  await rejects(client(f).runWithAnswer({ state: { schemaVersion: 99, status: "pending", messages: [], pending: { id: "p" } }, answer }), "bad_state");
  await rejects(client(f).runWithAnswer({ state: { status: "pending" }, answer }), "bad_state");
  await rejects(client(f).runWithAnswer({ history: [{ role: "user", content: "hi" }], pending: { id: "p" }, answer }), "bad_state");
  await rejects(client(f).runWithAnswer({ history: [], pending: { id: "p" }, answer: { id: "q", ok: true } }), "answer_mismatch");
  await rejects(client(f).runWithAnswer({ pending: { id: "p" } }), "bad_input");
});

test("waitFor that throws stops the run; waitFor that returns nothing declines", async () => {
  const kit = createToolkit({ tools: [relayTool("click", "x")] });
  const f = () => scripted(reply(calls(["c", "click", "{}"])), reply(text("after")));
  const e = await rejects(client(f(), { waitFor: async () => { throw new Error("host went away"); } }).run("x", { toolkit: kit }), "host_callback");
  assert.match(e.message, /host went away/);
  const r = await client(f(), { waitFor: async () => undefined }).run("x", { toolkit: kit });
  assert.equal(r.toolCalls[0].output, "declined/expired: relay tool call click to the caller for execution");
});

test("pending() and authRequired() build suspensions; a tool using them halts or resumes", async () => {
  const p = pending({ kind: "approval", prompt: "Approve?", data: { amount: 3 } });
  assert.equal(p.isError, true);
  assert.match(p.metadata.pending.id, /^pnd-[0-9a-z]+-\d+$/);
  const a = authRequired("https://login.example", undefined);
  assert.equal(a.output, "Authorization required to continue\nhttps://login.example");
  assert.throws(() => pending("nope"), { code: "bad_input" });

  const seen = [];
  const kit = createToolkit({ tools: [defineTool({
    name: "pay", description: "pays",
    run: (args, ctx) => { seen.push(ctx.answer ?? null); return ctx.answer ? `paid ${ctx.answer.data.ok}` : pending({ kind: "approval", prompt: "Pay 3?" }); },
  })] });
  const f = scripted(reply(calls(["c1", "pay", "{}"])), reply(text("paid")));
  const halted = await client(f).run("pay", { toolkit: kit });
  assert.equal(halted.status, "pending");
  assert.equal(halted.text, "Pay 3?");
  const r = await client(f).runWithAnswer({ toolkit: kit, state: JSON.parse(JSON.stringify(halted)), answer: { id: halted.pending.id, ok: true, data: { ok: "yes" } } });
  assert.equal(r.status, "done");
  assert.equal(seen.length, 2);
  assert.equal(seen[1].id, halted.pending.id, "the re-run gets ctx.answer");
  assert.equal(r.toolCalls[0].output, "paid yes");
});

test("maxTurns stops a looping model as incomplete", async () => {
  const kit = createToolkit({ tools: [defineTool({ name: "t", description: "t", run: () => "again" })] });
  const r = await client(scripted(reply(calls(["c", "t", "{}"]))), { maxTurns: 3 }).run("loop", { toolkit: kit });
  assert.equal(r.status, "incomplete");
  assert.equal(r.limit, "maxTurns");
  assert.equal(r.turns, 3);
  assert.equal(r.toolCallCount, 3);
});

test("headers override defaults and requests carry the documented shape", async () => {
  const seen = [];
  const f = async (url, init) => { seen.push({ url, init }); return reply({ id: "m", content: [{ type: "text", text: "hi" }], usage: { input_tokens: 1, output_tokens: 2 } })(); };
  const c = createClient({ baseUrl: "https://api.anthropic.test/v1/", style: "anthropic", model: "claude-x", apiKey: KEY, headers: { "anthropic-version": "2099-01-01", "x-extra": "1" }, fetch: f });
  const r = await c.run("hello", {});
  assert.equal(seen[0].url, "https://api.anthropic.test/v1/messages");
  assert.equal(seen[0].init.method, "POST");
  assert.equal(seen[0].init.headers["anthropic-version"], "2099-01-01");
  assert.equal(seen[0].init.headers["x-api-key"], KEY);
  assert.deepEqual(JSON.parse(seen[0].init.body), { model: "claude-x", max_tokens: 4096, messages: [{ role: "user", content: "hello" }] });
  assert.deepEqual(r.usage, { promptTokens: 1, completionTokens: 2, totalTokens: 3 });
  assert.ok(!JSON.stringify(r).includes(KEY));
});

test("an AbortSignal stops the run before a call and aborts an in-flight fetch", async () => {
  const before = new AbortController();
  before.abort();
  await rejects(client(scripted(reply(text("never")))).run("x", { signal: before.signal }), "aborted");

  const during = new AbortController();
  let sawSignal = false;
  const hanging = (url, init) => new Promise((resolve, reject) => {
    sawSignal = init.signal === during.signal;
    init.signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
  });
  const running = client(hanging).run("x", { signal: during.signal });
  setTimeout(() => during.abort(), 10);
  await rejects(running, "aborted");
  assert.ok(sawSignal, "fetch received the run's signal");

  const seen = [];
  const kit = createToolkit({ tools: [defineTool({ name: "t", description: "t", run: (args, ctx) => { seen.push(ctx.signal); return "ok"; } })] });
  const ctl = new AbortController();
  await client(scripted(reply(calls(["c", "t", "{}"])), reply(text("done")))).run("x", { toolkit: kit, signal: ctl.signal });
  assert.equal(seen[0], ctl.signal, "tools get ctx.signal");
});

// A transport error says what failed: Node's fetch says only "fetch failed" and puts the cause
// (ECONNREFUSED, ENOTFOUND, a TLS error) on `cause`; the message carries it, once, and never the key.
test("a transport error keeps its cause: a server that is down says ECONNREFUSED, once, without the key", async () => {
  const net = await import("node:net");
  const server = net.createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const port = server.address().port;
  await new Promise((r) => server.close(r)); // nothing listens there now
  const client = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, style: "openai", model: "m", apiKey: "sk-SECRET-cause", retries: 0 });
  const e = await client.run("hi").then(() => assert.fail("resolved"), (e) => e);
  assert.equal(e.code, "transport");
  assert.match(e.message, /ECONNREFUSED/, e.message);
  assert.doesNotMatch(e.message, /fetch failed: fetch failed/);
  assert.doesNotMatch(e.message, /SECRET/);
});

test("a host fetch's error cause reaches the message in every host (code and message, nested)", async () => {
  const inner = Object.assign(new Error("certificate has expired"), { code: "CERT_HAS_EXPIRED" });
  const fetch = async () => {
    throw new TypeError("fetch failed", { cause: Object.assign(new Error("tls handshake", { cause: inner }), { code: "ERR_TLS" }) });
  };
  const client = createClient({ baseUrl: "http://x/v1", style: "openai", model: "m", apiKey: "k", retries: 0, fetch });
  const e = await client.run("hi").then(() => assert.fail("resolved"), (e) => e);
  assert.equal(e.code, "transport");
  assert.equal(e.message, "fetch failed (ERR_TLS: tls handshake (CERT_HAS_EXPIRED: certificate has expired))");
});
