// `toolnexus-wasm/workflows` against a model of the Workflows engine's replay rules (the real
// runtime, Miniflare's, is driven in tests/workflows/): each `run()` starts from the top; a
// finished step hands back its kept result without running; a wait with no event yet parks the
// instance, and the next `run()` after an event replays to it. The loop must make the same steps
// in the same order from the same results, and run each tool exactly once.
import test from "node:test";
import assert from "node:assert/strict";
import { defineTool, relayTool } from "toolnexus-wasm";
import { answerEvent, eventType, runInWorkflow } from "toolnexus-wasm/workflows";
import { respond } from "../../demo/scripted-logic.mjs";
import { instance, parkedBy } from "./workflow-engine.mjs";
import { memoryBlobs, packState } from "toolnexus-wasm/blobs";

// The scripted model as the client's fetch (no network): `#mixed` calls lookup_price and the
// relay tool click, then sums up the results.
function scriptedFetch(counter, fail) {
  return async (url, init) => {
    counter.calls++;
    if (fail?.()) return new Response("overloaded", { status: 503 });
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const r = respond(new URL(url).pathname, headers, init.body);
    return new Response(JSON.stringify(r.body), { status: r.status, headers: { "content-type": "application/json" } });
  };
}

const BASE = { openai: "http://model/v1", responses: "http://model/v1", anthropic: "http://model", gemini: "http://model" };

function agent({ counter, fail, opened, runs, style = "openai", extra = {} }) {
  const lookup = defineTool({
    name: "lookup_price",
    description: "price of an item",
    inputSchema: { type: "object", properties: { item: { type: "string" } } },
    run: async ({ item }) => (runs.push(item), `$3 for ${item}`),
  });
  const click = relayTool("click", "click an element", { type: "object", properties: { selector: { type: "string" } } });
  return (step) =>
    runInWorkflow(step, {
      client: { style, baseUrl: BASE[style], model: "m", apiKey: "k", fetch: scriptedFetch(counter, fail) },
      tools: [lookup, click],
      prompt: "#mixed buy the red mug",
      onSuspend: (s) => void opened.push(s),
      ...extra,
    });
}

test("workflows: parks on a relay call, resumes on its event, every tool once, same steps on every replay", async () => {
  const counter = { calls: 0 }, opened = [], runs = [];
  const wf = parkedBy(instance(agent({ counter, opened, runs })));
  assert.deepEqual(await wf.replay(), { parked: true });
  const first = [...wf.log].sort();
  assert.deepEqual(first, ["ask call_0_1", "model 1", "tool lookup_price call_0_0", "wait call_0_1"].sort());
  assert.equal(opened.length, 1);
  const s = opened[0];
  assert.equal(s.kind, "tool_call");
  assert.equal(s.callId, "call_0_1");
  assert.equal(s.event, "call_0_1");
  // A restart before the answer: the replay parks again on the same wait, running nothing again.
  assert.deepEqual(await wf.replay(), { parked: true });
  assert.deepEqual([...wf.log].sort(), [...first, "wait call_0_1"].sort(), "only the wait is tried again");
  assert.equal(counter.calls, 1);
  assert.deepEqual(runs, ["red mug"]);
  wf.send(answerEvent(s, { ok: true, data: { output: "clicked #buy" } }));
  const { done } = await wf.replay();
  assert.equal(done.status, "done");
  assert.equal(done.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy");
  assert.equal(done.messages, undefined, "the transcript stays out of the Workflow's output");
  assert.equal(counter.calls, 2);
  assert.deepEqual(runs, ["red mug"], "the tool ran once over three replays");
  // A replay of the finished instance: every step is kept, nothing runs, the same result.
  const before = wf.log.length;
  assert.deepEqual((await wf.replay()).done, done);
  assert.equal(wf.log.length, before);
  assert.equal(counter.calls, 2);
  assert.equal(opened.length, 1, "onSuspend ran once");
});

test("workflows: a model step that fails is retried by the engine, and no tool runs twice", async () => {
  const counter = { calls: 0 }, opened = [], runs = [];
  let n = 0;
  const wf = parkedBy(instance(agent({ counter, opened, runs, fail: () => ++n === 2 })));
  await wf.replay();
  wf.send(answerEvent(opened[0], { ok: true, data: { output: "clicked" } }));
  const { done } = await wf.replay();
  assert.equal(done.status, "done");
  assert.equal(counter.calls, 3, "model 2 was tried twice (a 503, then the reply)");
  assert.deepEqual(runs, ["red mug"]);
  assert.deepEqual(wf.log.filter((s) => s.startsWith("model")), ["model 1", "model 2"]);
});

test("workflows: a wait that times out answers { ok: false, reason: expired }", async () => {
  const counter = { calls: 0 }, opened = [], runs = [];
  const wf = parkedBy(instance(agent({ counter, opened, runs })));
  wf.expire("wait call_0_1");
  const { done } = await wf.replay();
  assert.equal(done.status, "done");
  assert.match(done.text, /click → declined\/expired: /);
});

test("workflows: an approval parks keyed by its call; a refusal never runs the tool", async () => {
  for (const ok of [true, false]) {
    const counter = { calls: 0 }, opened = [], runs = [];
    const buy = defineTool({
      name: "lookup_price", description: "p", inputSchema: { type: "object" }, needsApproval: true,
      run: async ({ item }) => (runs.push(item), `$3 for ${item}`),
    });
    const wf = parkedBy(instance((step) => runInWorkflow(step, {
      client: { style: "openai", baseUrl: "http://model/v1", model: "m", apiKey: "k", fetch: scriptedFetch(counter) },
      tools: [buy], prompt: "#mixed go", onSuspend: (s) => void opened.push(s),
      waitTimeout: "1 hour",
    })));
    await wf.replay();
    const approval = opened.find((s) => s.kind === "approval");
    assert.equal(approval.callId, "call_0_0");
    assert.deepEqual(approval.data, { name: "lookup_price", arguments: { item: "red mug" } });
    wf.send(answerEvent(approval, ok ? { ok: true } : { ok: false, reason: "declined" }));
    const { done } = await wf.replay();
    assert.equal(done.status, "done");
    assert.deepEqual(runs, ok ? ["red mug"] : []);
  }
});

test("workflows: events and their types; what a Workflow takes over is refused", async () => {
  assert.equal(eventType("call_abc-1", 1), "call_abc-1");
  for (const odd of ["toolu 01/x", "x".repeat(120), "é"]) assert.match(eventType(odd, 1), /^tnx-[0-9a-f]{16}$/);
  assert.notEqual(eventType("c1", 2), eventType("c1", 3));
  assert.match(eventType("c1", 2), /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/);
  const e = answerEvent({ id: "pnd-1", event: "c1" }, { ok: true, data: { output: "x" } });
  assert.deepEqual(e, { type: "c1", payload: { ok: true, data: { output: "x" }, id: "pnd-1" } });
  assert.equal(answerEvent({ id: "p", callId: "c9" }, { ok: false }).type, "c9");
  for (const [s, a] of [[{}, { ok: true }], [{ event: "c1" }, { data: 1 }], [{ event: "c1" }, null], [{ event: "bad type!" }, { ok: true }]]) {
    assert.throws(() => answerEvent(s, a), (err) => err.code === "bad_input");
  }
  await assert.rejects(runInWorkflow({}, {}), (err) => err.code === "bad_input");
  const step = { do: () => {}, waitForEvent: () => {} };
  for (const extra of [{ waitFor: async () => ({}) }, { timeoutMs: 1000 }]) {
    await assert.rejects(runInWorkflow(step, { client: { style: "openai", ...extra }, prompt: "x" }), (err) => err.code === "bad_input" && /is not used in a Workflow/.test(err.message));
  }
});

// Every provider's replies give the same steps on a replay: call ids are the provider's, or the
// loop's own `call_<turn>_<i>` where Gemini gives none, never made afresh.
for (const style of ["anthropic", "gemini", "responses"]) {
  test(`workflows (${style}): the same steps on every replay, every tool once`, async () => {
    const counter = { calls: 0 }, opened = [], runs = [];
    const wf = parkedBy(instance(agent({ counter, opened, runs, style })));
    assert.deepEqual(await wf.replay(), { parked: true });
    const [s] = opened;
    const names = [...wf.log].sort();
    assert.ok(names.includes(`wait ${s.callId}`) && names.some((n) => n.startsWith("tool lookup_price ")), names.join());
    assert.deepEqual(await wf.replay(), { parked: true });
    assert.deepEqual([...wf.log].sort(), [...names, `wait ${s.callId}`].sort(), "a replay runs no step again but the wait");
    wf.send(answerEvent(s, { ok: true, data: { output: "clicked #buy" } }));
    const { done } = await wf.replay();
    assert.equal(done.status, "done", JSON.stringify(done));
    assert.match(done.text, /lookup_price → \$3 for red mug; click → clicked #buy/);
    assert.deepEqual(runs, ["red mug"]);
    assert.equal(counter.calls, 2);
  });
}

test("workflows: a turn's relay calls are published one after another in the model's order, numbered seq", async () => {
  const counter = { calls: 0 }, opened = [];
  const click = relayTool("click", "click an element", { type: "object", properties: { selector: { type: "string" } } });
  const wf = parkedBy(instance((step) => runInWorkflow(step, {
    client: { style: "openai", baseUrl: BASE.openai, model: "m", apiKey: "k", fetch: scriptedFetch(counter) },
    tools: [click],
    prompt: "#three-clicks",
    // The first publication is the slowest: the others still wait for it.
    onSuspend: async (s) => {
      await new Promise((r) => setTimeout(r, s.seq === 1 ? 30 : 0));
      opened.push(s);
    },
  })));
  await wf.replay();
  assert.deepEqual(opened.map((s) => [s.seq, s.data.calls[0].input.selector]), [[1, "#a"], [2, "#b"], [3, "#c"]]);
  for (const s of opened) wf.send(answerEvent(s, { ok: true, data: { output: `clicked ${s.data.calls[0].input.selector}` } }));
  const { done } = await wf.replay();
  assert.equal(done.text, "Clicked: click → clicked #a; click → clicked #b; click → clicked #c");
  assert.equal(opened.length, 3, "published once each");
});

test("workflows: keepMessages hands the transcript on, and the next instance goes on from it as history", async () => {
  const bodies = [];
  const base = scriptedFetch({ calls: 0 });
  const fetch = async (url, init) => (bodies.push(JSON.parse(init.body)), base(url, init));
  const client = { style: "openai", baseUrl: BASE.openai, model: "m", apiKey: "k", fetch };
  const first = (await instance((step) => runInWorkflow(step, { client, prompt: "#hello first", keepMessages: true })).replay()).done;
  assert.equal(first.text, "Hello from the scripted model.");
  assert.equal(first.messages.length, 2);
  const second = (await instance((step) => runInWorkflow(step, { client, prompt: "#hello second", history: first.messages })).replay()).done;
  assert.equal(second.status, "done");
  assert.deepEqual(bodies[1].messages.filter((m) => m.role === "user").map((m) => m.content), ["#hello first", "#hello second"]);
});

// Blob reads happen in retried steps (docs/decisions/attack-findings.md): a blob store whose
// `get` misses the first `lag` reads of each key (KV's eventual consistency), or every read.
function laggingBlobs(lag) {
  const inner = memoryBlobs();
  const misses = new Map();
  return {
    put: inner.put,
    has: inner.has,
    async get(key) {
      const n = misses.get(key) ?? 0;
      misses.set(key, n + 1);
      return n < lag ? undefined : inner.get(key);
    },
  };
}

const LONG = "clicked #buy " + "x".repeat(3000);
const READ = { retries: { limit: 3, delay: 0 }, timeout: "1 minute" };

test("workflows: a packed answer whose blob is not visible yet is read in a retried step; one never there declines, the instance goes on", async () => {
  for (const [lag, seen] of [[2, true], [Infinity, false]]) {
    const counter = { calls: 0 }, opened = [], runs = [], blobs = laggingBlobs(lag);
    const wf = parkedBy(instance(agent({ counter, opened, runs, extra: { blobs, readStep: READ } })));
    assert.deepEqual(await wf.replay(), { parked: true });
    const s = opened[0];
    wf.send(answerEvent(s, await packState({ ok: true, data: { output: LONG } }, blobs)));
    const { done } = await wf.replay();
    assert.equal(done?.status, "done", `lag ${lag}: the instance finished`);
    assert.ok(wf.log.includes(`read ${s.callId}`), "the read is a step");
    assert.equal(done.text.includes(LONG), seen, `lag ${lag}: ${done.text.slice(0, 200)}`);
    if (!seen) assert.match(done.text, /declined\/expired|blob store/, "declined, saying why");
    assert.deepEqual(runs, ["red mug"]);
  }
});

test("workflows: a tool result kept in the blob store is read back in a retried step; one lost tells the model, the tool runs once", async () => {
  for (const [lag, seen] of [[2, true], [Infinity, false]]) {
    const counter = { calls: 0 }, opened = [], runs = [], blobs = laggingBlobs(lag);
    const lookup = defineTool({ name: "lookup_price", description: "price", run: async ({ item }) => (runs.push(item), `$3 for ${item} ` + "y".repeat(3000)) });
    const click = relayTool("click", "click", { type: "object" });
    const wf = parkedBy(instance((step) => runInWorkflow(step, {
      client: { style: "openai", baseUrl: BASE.openai, model: "m", apiKey: "k", fetch: scriptedFetch(counter) },
      tools: [lookup, click], prompt: "#mixed buy the red mug", onSuspend: (x) => void opened.push(x), blobs, readStep: READ, keepMessages: true,
    })));
    assert.deepEqual(await wf.replay(), { parked: true });
    wf.send(answerEvent(opened[0], { ok: true, data: { output: "clicked" } }));
    const { done } = await wf.replay();
    assert.equal(done?.status, "done");
    const result = done.toolCalls.find((c) => c.name === "lookup_price");
    assert.equal(result.output.includes("y".repeat(3000)), seen, `lag ${lag}: ${result.output.slice(0, 120)}`);
    if (!seen) assert.match(result.output, /could not be read back .*not run again/);
    assert.deepEqual(runs, ["red mug"], "the tool ran once");
  }
});
