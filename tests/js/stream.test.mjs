// Streaming and conversation memory through the built package in Node, against the scripted
// model on 127.0.0.1 (real SSE over real sockets), plus a stub that splits recorded provider
// streams at every byte position.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, memoryStore } from "toolnexus-wasm";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
let model, splitter;

/** Serves a recorded stream from /<style>/<cut>/…: the bytes before `cut`, then the rest. */
function startSplitter() {
  const bodies = {
    openai: fs.readFileSync(path.join(fixtures, "openai/stream_text.sse")),
    anthropic: fs.readFileSync(path.join(fixtures, "anthropic/stream_text.sse")),
    gemini: fs.readFileSync(path.join(fixtures, "gemini/stream_text.sse")),
  };
  const server = http.createServer((req, res) => {
    const [, style, cut] = req.url.split("/");
    const body = bodies[style];
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      res.socket.setNoDelay(true);
      res.write(body.subarray(0, Number(cut)));
      setImmediate(() => res.end(body.subarray(Number(cut))));
    });
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r({ server, url: `http://127.0.0.1:${server.address().port}`, bodies })));
}

before(async () => { model = await startScriptedModel(); splitter = await startSplitter(); });
after(async () => { await model.close(); splitter.server.close(); });

const base = (style) => (style === "openai" ? `${model.url}/v1` : model.url);
const client = (style, extra = {}) => createClient({ baseUrl: base(style), style, model: "scripted", apiKey: "sk-stream", ...extra });
const toolkit = (lookups = []) => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => { lookups.push(item); return `$2 for ${item}`; } }),
  relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } }),
] });
const collect = async (iterable) => { const out = []; for await (const e of iterable) out.push(e); return out; };
const clickAll = (request) => relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));

for (const style of ["openai", "anthropic", "gemini"]) {
  test(`${style}: stream emits tool calls, pending before waitFor, results, text, usage, done`, async () => {
    const events = [];
    let sawPending;
    const pendingSeen = new Promise((r) => { sawPending = r; });
    // The host answers only once the consumer has seen the pending event: had it been emitted
    // after waitFor was called, this would time out.
    const waitFor = async (request) => {
      await Promise.race([pendingSeen, new Promise((_, no) => setTimeout(() => no(new Error("no pending event before waitFor")), 2000))]);
      return clickAll(request);
    };
    const stream = client(style, { waitFor }).stream("#default", { toolkit: toolkit() });
    for await (const e of stream) { events.push(e); if (e.type === "pending") sawPending(); }
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 2), ["tool_call", "tool_call"]);
    assert.ok(types.indexOf("pending") < types.lastIndexOf("tool_result"));
    assert.deepEqual(types.filter((t) => t === "tool_result").length, 2);
    assert.deepEqual(types.slice(-2), ["usage", "done"]);
    const text = events.filter((e) => e.type === "text").map((e) => e.delta).join("");
    const done = events.at(-1).result;
    assert.equal(done.status, "done");
    assert.equal(text, done.text);
    assert.equal(done.text, "Done. lookup_price → $2 for blue mug; click → clicked #add-to-cart");
    assert.ok(events.filter((e) => e.type === "text").length > 3, "text arrives in pieces");
    if (style !== "gemini") assert.equal(model.requests.at(-1).body.stream, true);
    else assert.match(model.requests.at(-1).path, /:streamGenerateContent\?alt=sse$/);
  });

  test(`${style}: a recorded stream split at every byte position gives the same answer`, async () => {
    const body = splitter.bodies[style];
    const expected = { openai: "It is sunny in Paris and Tokyo — ☀️ both.", anthropic: "Both are sunny: Paris and Tokyo — ☀️ both.", gemini: "It is sunny in Paris and Tokyo — ☀️." }[style];
    for (let cut = 0; cut <= body.length; cut++) {
      const c = createClient({ baseUrl: `${splitter.url}/${style}/${cut}${style === "openai" ? "/v1" : ""}`, style, model: "m", apiKey: "k" });
      const events = await collect(c.stream("weather?", {}));
      const text = events.filter((e) => e.type === "text").map((e) => e.delta).join("");
      assert.equal(text, expected, `split at ${cut}`);
      assert.equal(events.at(-1).result.text, expected, `split at ${cut}`);
    }
  });

  test(`${style}: ask keeps the conversation, saves before waiting, and onText streams`, async () => {
    const saves = [];
    const inner = memoryStore();
    const store = { get: (id) => inner.get(id), save: (id, s) => { saves.push(structuredClone(s)); return inner.save(id, s); }, delete: (id) => inner.delete(id) };
    let stateAtWait;
    const waitFor = async (request) => { stateAtWait = saves.at(-1); return clickAll(request); };
    const c = client(style, { store, waitFor });
    assert.equal(c.conversationStore(), store);
    const deltas = [];
    const first = await c.ask("#default", { toolkit: toolkit(), id: "conv-1", onText: (d) => deltas.push(d) });
    assert.equal(first.status, "done");
    assert.equal(deltas.join(""), first.text);
    assert.equal(stateAtWait.pending.kind, "tool_call", "the pending state was saved before waitFor ran");
    // the lookup may still be running when the relay call suspends: then it is outstanding too
    assert.ok(stateAtWait.outstanding.map((o) => o.name).includes("click"));
    const second = await c.ask("#hello", { toolkit: toolkit(), id: "conv-1" });
    assert.equal(second.text, "Hello from the scripted model.");
    const stored = await store.get("conv-1");
    assert.equal(stored.schemaVersion, 2);
    assert.equal(stored.style, style);
    assert.equal(stored.pending, undefined);
    assert.ok(JSON.stringify(stored).includes("#default") && JSON.stringify(stored).includes("Hello from"));
    assert.ok(!JSON.stringify(saves).includes("sk-stream"), "no key in any saved state");
  });

  test(`${style}: a halted ask resumes with askWithAnswer from the store alone, in a new client`, async () => {
    const store = memoryStore();
    const lookups = [];
    const halted = await client(style, { store }).ask("#mixed", { toolkit: toolkit(lookups), id: "c2" });
    assert.equal(halted.status, "pending");
    // a brand-new client (a restarted service worker) with only the store
    const saved = JSON.parse(JSON.stringify(await store.get("c2")));
    const store2 = memoryStore();
    await store2.save("c2", saved);
    const fresh = client(style, { store: store2 });
    await assert.rejects(fresh.ask("#hello", { toolkit: toolkit(), id: "c2" }), { code: "conversation_halted" });
    await assert.rejects(fresh.askWithAnswer({ toolkit: toolkit(), id: "c2", answer: clickAll(saved.pending), pending: { ...saved.pending, id: "pnd-stale" } }), { code: "conflict" });
    const r = await fresh.askWithAnswer({ toolkit: toolkit(lookups), id: "c2", answer: clickAll(saved.pending) });
    assert.equal(r.status, "done");
    assert.equal(r.text, "Summary: lookup_price → $2 for red mug; click → clicked #buy");
    assert.deepEqual(lookups, ["red mug"], "the completed call is not re-run");
    assert.equal((await store2.get("c2")).pending, undefined);
    await assert.rejects(fresh.askWithAnswer({ toolkit: toolkit(), id: "c2", answer: clickAll(saved.pending) }), { code: "conflict" }, "a stale answer: the conversation already moved on");
  });

  test(`${style}: streamWithAnswer resumes a stored halt by id`, async () => {
    const store = memoryStore();
    const halted = await collect(client(style, { store }).stream("#mixed", { toolkit: toolkit(), id: "s1" }));
    assert.deepEqual(halted.map((e) => e.type), ["tool_call", "tool_call", "tool_result", "pending", "done"]);
    const pending = halted.at(-1).result.pending;
    const events = await collect(client(style, { store }).streamWithAnswer({ toolkit: toolkit(), id: "s1", answer: clickAll(pending) }));
    assert.equal(events.at(-1).result.status, "done");
    assert.match(events.filter((e) => e.type === "text").map((e) => e.delta).join(""), /click → clicked #buy/);
  });
}

test("discard drops a conversation, or keeps it with the halted turn declined", async () => {
  const store = memoryStore();
  const c = client("openai", { store });
  await c.ask("#mixed", { toolkit: toolkit(), id: "d1" });
  await c.discard("d1", { keepHistory: true });
  const kept = await store.get("d1");
  assert.equal(kept.pending, undefined);
  assert.match(JSON.stringify(kept.messages), /declined\/expired: relay tool call click/);
  const next = await c.ask("#hello", { toolkit: toolkit(), id: "d1" });
  assert.equal(next.status, "done");
  await c.discard("d1");
  assert.equal(await store.get("d1"), undefined);
});

test("a conversation moves from an OpenAI client to an Anthropic client", async () => {
  const store = memoryStore();
  await client("openai", { store, waitFor: async (r) => clickAll(r) }).ask("#default", { toolkit: toolkit(), id: "x" });
  const r = await client("anthropic", { store }).ask("#hello", { toolkit: toolkit(), id: "x" });
  assert.equal(r.status, "done");
  assert.equal(r.style, "anthropic");
  const sent = model.requests.at(-1);
  assert.ok(sent.path.endsWith("/v1/messages"));
  assert.equal(sent.body.messages[1].content[0].type, "tool_use");
  assert.equal((await store.get("x")).style, "anthropic");
});

test("stream errors reject the iterator with a code; bad options are typed", async () => {
  const truncated = async () => new Response('data: {"choices":[{"delta":{"content":"hal', { status: 200 });
  const c = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch: truncated });
  await assert.rejects(collect(c.stream("x", {})), { code: "provider_parse" });
  const overloaded = async () => new Response('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n', { status: 200 });
  const a = createClient({ baseUrl: "http://m", style: "anthropic", model: "m", apiKey: "k", fetch: overloaded });
  await assert.rejects(collect(a.stream("x", {})), { code: "provider_error" });
  await assert.rejects(client("openai").askWithAnswer({ answer: { id: "p", ok: true } }), { code: "bad_input" });
  await assert.rejects(client("openai").askWithAnswer({ id: "nope", answer: { id: "p", ok: true } }), { code: "bad_state" });
  assert.throws(() => createClient({ baseUrl: "u", style: "openai", model: "m", store: {} }), { code: "bad_input" });
  const broken = { get: async () => ({ schemaVersion: 9, style: "openai", messages: [] }), save: async () => {}, delete: async () => {} };
  await assert.rejects(client("openai", { store: broken }).ask("x", { id: "b" }), { code: "bad_state" });
  const failing = { get: async () => undefined, save: async () => { throw new Error("quota exceeded"); }, delete: async () => {} };
  await assert.rejects(client("openai", { store: failing }).ask("#default", { toolkit: toolkit(), id: "f" }), { code: "store" });
});

test("breaking out of a stream stops delivery", async () => {
  const stream = client("openai", { waitFor: async (r) => clickAll(r) }).stream("#default", { toolkit: toolkit() });
  let n = 0;
  for await (const e of stream) { n++; if (e.type === "tool_call") break; }
  assert.equal(n, 1);
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
});

test("two clients resuming one halted conversation at once: exactly one wins, the other gets conflict", async () => {
  const store = memoryStore();
  const halted = await client("openai", { store }).ask("#mixed", { toolkit: toolkit(), id: "race" });
  assert.equal(halted.status, "pending");
  const saved = await store.get("race");
  const answer = clickAll(saved.pending);
  const outcomes = await Promise.allSettled([
    client("openai", { store }).askWithAnswer({ toolkit: toolkit(), id: "race", answer }),
    client("anthropic", { store }).askWithAnswer({ toolkit: toolkit(), id: "race", answer }),
  ]);
  const won = outcomes.filter((o) => o.status === "fulfilled");
  const lost = outcomes.filter((o) => o.status === "rejected");
  assert.equal(won.length, 1);
  assert.equal(lost.length, 1);
  assert.equal(lost[0].reason.code, "conflict");
  const after = await store.get("race");
  assert.equal(after.revision, saved.revision + 2, "two saves, by the winner: its claim, then its turn");
  assert.equal(after.pending, undefined);
  const answers = JSON.stringify(after.messages).match(/clicked #buy/g) ?? [];
  assert.equal(answers.length, 2, "the relay answer once in the transcript, once in the final text");
  // a stale write straight to the store is refused too
  await assert.rejects(store.save("race", { ...after, revision: after.revision }), { code: "conflict" });
});
