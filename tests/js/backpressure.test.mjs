// Streams a UI can trust, observed from the consumer's side: a suspended call's `pending` event
// has been received (its `next()` resolved with it) before `waitFor` is called, and before a
// durable halt is saved, in every style and in `streamWithAnswer`; the run waits for a slow
// consumer at every host call; leaving a stream (`break`, a throw, `return()`) cancels its run:
// the in-flight fetch is aborted (the provider stub sees the connection go), no further model
// call or tool starts, a parked `waitFor` sees its `signal` abort, and the store keeps the last
// state it saved.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, createToolkit, defineTool, relayTool, relayCallsOf, relayAnswer, memoryStore } from "toolnexus-wasm";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

let model;
before(async () => { model = await startScriptedModel(); });
after(async () => { await model.close(); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const baseUrl = (style) => (style === "openai" ? `${model.url}/v1` : model.url);
const click = relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } });
const clicked = (request) => relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));

/** Reads a stream slowly (a UI drawing each event), logging what it received. */
async function consume(events, log, { slow = 5 } = {}) {
  let result;
  for await (const e of events) {
    if (e.type === "pending") log.push(`pending ${e.request.id}`);
    if (e.type === "tool_call") log.push(`tool_call ${e.id}`);
    if (e.type === "done") result = e.result;
    await sleep(slow);
  }
  return result;
}

for (const style of ["openai", "anthropic", "gemini"]) {
  test(`${style}: each pending event is received before its waitFor is called, and waitFor gets the run's signal`, async () => {
    const log = [];
    const signals = [];
    const waitFor = async (request, ctx) => {
      assert.ok(log.includes(`pending ${request.id}`), `waitFor(${request.id}) ran before the consumer received its pending event: ${log.join(", ")}`);
      log.push(`waitFor ${request.id}`);
      signals.push(ctx.signal);
      await sleep(2);
      return clicked(request);
    };
    const client = createClient({ baseUrl: baseUrl(style), style, model: "scripted", apiKey: "k", waitFor });
    const result = await consume(client.stream("#three-clicks", { toolkit: createToolkit({ tools: [click] }) }), log);
    assert.equal(result.status, "done");
    assert.equal(log.filter((l) => l.startsWith("waitFor")).length, 3, log.join(", "));
    // Every tool_call of the turn was received before any call of it suspended.
    assert.ok(log.findIndex((l) => l.startsWith("pending")) > log.findLastIndex((l) => l.startsWith("tool_call")), log.join(", "));
    for (const s of signals) assert.ok(s instanceof AbortSignal && !s.aborted, "waitFor's ctx.signal is the run's");
  });
}

test("streamWithAnswer: a resumed run's next suspension is received before its waitFor", async () => {
  const store = memoryStore();
  const toolkit = createToolkit({ tools: [relayTool("type", "type"), relayTool("click", "click"), relayTool("read_text", "read")] });
  // Halts durably on type + click (no waitFor), then resumes with a waitFor for read_text.
  const halting = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k", store });
  const first = await consume(halting.stream("#todo", { toolkit, id: "c" }), []);
  assert.equal(first.status, "pending");
  const log = [];
  const waitFor = async (request) => {
    assert.ok(log.includes(`pending ${request.id}`), log.join(", "));
    log.push(`waitFor ${request.id}`);
    return relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: "Buy milk" })));
  };
  const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k", store, waitFor });
  const done = await consume(client.streamWithAnswer({ toolkit, id: "c", answer: clicked(first.pending) }), log);
  assert.equal(done.status, "done");
  assert.equal(log.filter((l) => l.startsWith("waitFor")).length, 1, log.join(", "));
});

test("a durable halt is saved only after its pending event was received", async () => {
  const log = [];
  const inner = memoryStore();
  const store = { get: (id) => inner.get(id), delete: (id) => inner.delete(id),
    save: (id, state) => { log.push(state.pending ? "save halted" : "save"); return inner.save(id, state); } };
  const client = createClient({ baseUrl: model.url, style: "anthropic", model: "scripted", apiKey: "k", store });
  const result = await consume(client.stream("#three-clicks", { toolkit: createToolkit({ tools: [click] }), id: "h" }), log, { slow: 20 });
  assert.equal(result.status, "pending");
  const halted = log.indexOf("save halted");
  assert.ok(halted > 0, log.join(", "));
  assert.equal(log.slice(0, halted).filter((l) => l.startsWith("pending")).length, 3, `the pending events came first: ${log.join(", ")}`);
  assert.equal(log.slice(halted).filter((l) => l.startsWith("pending")).length, 0);
});

test("a slow consumer holds the run back: no model call starts while events wait to be read", async () => {
  let results = 0;
  const resultsAtCall = [];
  const fetch = (url, init) => { resultsAtCall.push(results); return globalThis.fetch(url, init); };
  const tool = defineTool({ name: "lookup_price", description: "p", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async () => "$1" });
  const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k", fetch, maxTurns: 4 });
  // "#loop" asks for a tool call every turn, up to maxTurns; the consumer is slow on each result.
  for await (const e of client.stream("#loop", { toolkit: createToolkit({ tools: [tool] }) })) {
    if (e.type === "tool_result") { results += 1; await sleep(30); }
  }
  assert.deepEqual(resultsAtCall, [0, 1, 2, 3], "each model call began after the previous turn's result was read");
});

/** A provider that streams a reply slowly, then a tool call; records requests and connections closed early. */
async function slowProvider() {
  const seen = { requests: 0, aborted: 0 };
  const server = http.createServer((req, res) => {
    seen.requests += 1;
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const parts = [chunk({ role: "assistant", content: "thinking" })];
      for (let i = 0; i < 40; i++) parts.push(chunk({ content: "." }));
      parts.push(chunk({ tool_calls: [{ index: 0, id: `call_${seen.requests}`, type: "function", function: { name: "act", arguments: "{}" } }] }));
      parts.push(chunk({}, "tool_calls"), `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`, "data: [DONE]\n\n");
      let finished = false;
      res.on("close", () => { if (!finished) seen.aborted += 1; });
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(parts.shift());
        if (!parts.length) { clearInterval(timer); finished = true; res.end(); }
      }, 10);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { seen, url: `http://127.0.0.1:${server.address().port}/v1`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

for (const how of ["break", "throw", "return()"]) {
  test(`leaving a stream by ${how} aborts the in-flight fetch, and nothing else starts`, async () => {
    const p = await slowProvider();
    try {
      let runs = 0;
      const act = defineTool({ name: "act", description: "act", run: async () => { runs += 1; return "acted"; } });
      const client = createClient({ baseUrl: p.url, style: "openai", model: "m", apiKey: "k" });
      const stream = client.stream("go", { toolkit: createToolkit({ tools: [act] }) });
      if (how === "return()") {
        assert.equal((await stream.next()).value.type, "text");
        assert.deepEqual(await stream.return(), { value: undefined, done: true });
        assert.deepEqual(await stream.next(), { value: undefined, done: true });
      } else {
        await assert.rejects((async () => {
          for await (const e of stream) {
            if (e.type !== "text") continue;
            if (how === "break") break;
            throw new Error("the consumer failed");
          }
          throw new Error("left");
        })(), { message: how === "break" ? "left" : "the consumer failed" });
      }
      for (let i = 0; i < 50 && p.seen.aborted === 0; i++) await sleep(10);
      assert.equal(p.seen.aborted, 1, "the provider saw the connection aborted");
      await sleep(150);
      assert.equal(p.seen.requests, 1, "no further model call");
      assert.equal(runs, 0, "no tool started");
    } finally {
      await p.close();
    }
  });
}

test("leaving at a tool_call: the tool never starts; at a pending: the parked waitFor sees its signal abort", async () => {
  let runs = 0;
  const lookup = defineTool({ name: "lookup_price", description: "p", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async () => { runs += 1; return "$1"; } });
  const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k" });
  for await (const e of client.stream("#loop", { toolkit: createToolkit({ tools: [lookup] }) })) if (e.type === "tool_call") break;
  await sleep(50);
  assert.equal(runs, 0, "the tool did not start");

  // "#mixed": lookup_price runs, click (a relay call) parks in waitFor; the consumer leaves
  // once it is parked.
  const store = memoryStore();
  let parked;
  const waitFor = (request, { signal }) => new Promise((resolve, reject) => {
    parked = { request, signal, aborted: false };
    signal.addEventListener("abort", () => { parked.aborted = true; reject(signal.reason); });
  });
  const waiting = createClient({ baseUrl: model.url, style: "anthropic", model: "scripted", apiKey: "k", store, waitFor });
  const requests = model.requests.length;
  const toolkit = () => createToolkit({ tools: [lookup, click] });
  for await (const e of waiting.stream("#mixed", { toolkit: toolkit(), id: "w" })) {
    if (e.type !== "pending") continue;
    for (let i = 0; i < 50 && !parked; i++) await sleep(5);
    break;
  }
  await sleep(20);
  assert.ok(parked.aborted && parked.signal.aborted, "the parked waitFor saw the abort");
  assert.equal(parked.signal.reason.name, "AbortError");
  assert.equal(model.requests.length, requests + 1, "one model call, none after leaving");
  // The store keeps the last state it saved: the halted turn, saved before waitFor ran, which
  // an answer can still resume.
  const stored = await store.get("w");
  assert.equal(stored.pending.id, parked.request.id);
  const resumed = await createClient({ baseUrl: model.url, style: "anthropic", model: "scripted", apiKey: "k", store })
    .askWithAnswer({ toolkit: toolkit(), id: "w", answer: clicked(stored.pending) });
  assert.equal(resumed.status, "done");
  assert.match(resumed.text, /^Summary: lookup_price → \$1; click → clicked #buy/);
});

test("leaving during the first model call leaves a stored conversation as it was", async () => {
  const p = await slowProvider();
  try {
    const store = memoryStore();
    const client = createClient({ baseUrl: p.url, style: "openai", model: "m", apiKey: "k", store });
    const before = { schemaVersion: 1, style: "openai", messages: [{ role: "user", content: "earlier" }, { role: "assistant", content: "yes" }], revision: 4 };
    await store.save("s", before);
    for await (const e of client.stream("go", { id: "s" })) if (e.type === "text") break;
    for (let i = 0; i < 50 && p.seen.aborted === 0; i++) await sleep(10);
    assert.equal(p.seen.aborted, 1);
    assert.deepEqual(await store.get("s"), before);
  } finally {
    await p.close();
  }
});

test("a caller's signal still reaches waitFor in run(), and a stream's fetch gets an AbortSignal", async () => {
  const ctl = new AbortController();
  let got;
  const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k",
    waitFor: (request, ctx) => { got = ctx.signal; return clicked(request); } });
  const r = await client.run("#three-clicks", { toolkit: createToolkit({ tools: [click] }), signal: ctl.signal });
  assert.equal(r.status, "done");
  assert.equal(got, ctl.signal, "without a deadline, the caller's own signal");
  let init;
  const spy = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "k", fetch: (u, i) => { init = i; return fetch(u, i); } });
  for await (const _ of spy.stream("#hello")) { /* drain */ }
  assert.ok(init.signal instanceof AbortSignal);
});
