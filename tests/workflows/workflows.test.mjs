// The agent inside a Cloudflare Workflow, in workerd through Miniflare's local Workflows runtime
// (the one `wrangler dev` uses): an instance parks on a relay call, the runtime is shut down and
// started again from its persisted state, the answer is sent as an event and the instance
// finishes with every tool run exactly once; a model step that fails once is retried by
// Workflows without a second tool call; 100 concurrent instances each park and are answered,
// none lost or answered twice. The model is the scripted one, served here with a switch that
// fails one request; the JS tool reports each execution to a counter served here too, so
// executions are counted across restarts of the runtime (harness.mjs).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { call, finished, load, open, startHarness, until } from "./harness.mjs";

let h;
before(async () => (h = await startHarness()));
after(() => h.close());

test("a Workflow instance parks on a relay call, survives a restart of its runtime, resumes on sendEvent, every tool once", async () => {
  const dir = h.dir("restart");
  h.executions.length = 0;
  let mf = h.runtime(dir);
  let suspension;
  try {
    await call(mf, "/start", { id: "restart-1", prompt: "#mixed buy the red mug" });
    [suspension] = await open(mf, "restart-1");
    assert.equal(suspension.kind, "tool_call");
    assert.equal(suspension.data.calls[0].name, "click");
    assert.equal(suspension.event, suspension.callId);
    // Parked: the local runtime reports a waiting instance as "running" (production says "waiting").
    assert.match((await call(mf, "/status?id=restart-1")).status, /^(running|waiting)$/);
  } finally {
    await mf.dispose();
  }
  assert.deepEqual(h.executions, [`restart-1/${h.executions[0]?.split("/")[1]}`], "the JS tool ran once before the park");
  const modelCalls = h.modelRequests.length;
  mf = h.runtime(dir);
  try {
    await call(mf, "/answer?id=restart-1", { suspension, answer: { ok: true, data: { output: "clicked #buy after a restart" } } });
    const s = await finished(mf, "restart-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.status, "done");
    assert.equal(s.output.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy after a restart");
    assert.ok(!JSON.stringify(s).includes("wf-secret"), "no key in the Workflow's output");
    assert.equal(h.executions.length, 1, "the replay after the restart ran no tool again");
    assert.equal(h.modelRequests.length, modelCalls + 1, "and no model call again: only the one after the answer");
    assert.deepEqual(await call(mf, "/open?id=restart-1"), [], "onResolve closed the suspension");
  } finally {
    await mf.dispose();
  }
});

test("a model step that fails once is retried by Workflows, and the tool is not called twice", async () => {
  const dir = h.dir("retry");
  h.executions.length = 0;
  const mf = h.runtime(dir, "anthropic");
  try {
    await call(mf, "/start", { id: "retry-1", prompt: "#mixed buy the red mug" });
    const [suspension] = await open(mf, "retry-1");
    const before = h.modelRequests.length;
    h.failNext = 1;
    await call(mf, "/answer?id=retry-1", { suspension, answer: { ok: true, data: { output: "clicked" } } });
    const s = await finished(mf, "retry-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.text, "Summary: lookup_price → $3 for red mug; click → clicked");
    assert.equal(h.modelRequests.length, before + 2, "the second model call was tried twice: a 503, then the reply");
    assert.equal(h.executions.length, 1, "lookup_price ran once");
  } finally {
    h.failNext = 0;
    await mf.dispose();
  }
});

test("a wait that times out answers { ok: false, reason: expired } and the run goes on", async () => {
  const dir = h.dir("expire");
  const mf = h.runtime(dir);
  try {
    await call(mf, "/start", { id: "expire-1", prompt: "#mixed buy the red mug", waitTimeout: "1 second" });
    const s = await finished(mf, "expire-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.match(s.output.text, /click → declined\/expired: /);
  } finally {
    await mf.dispose();
  }
});

test("100 concurrent instances each park and are answered once: none lost, none answered twice", async () => {
  const dir = h.dir("load");
  h.executions.length = 0;
  const mf = h.runtime(dir);
  const n = 100;
  try {
    const { ids, done, parkedMs, doneMs } = await load(mf, n);
    for (const [i, s] of done.entries()) {
      assert.equal(s.status, "complete", JSON.stringify(s));
      assert.equal(s.output.text, `Summary: lookup_price → $3 for red mug; click → clicked for ${ids[i]}`, "each instance got its own answer");
    }
    assert.equal(h.executions.length, n, "one tool execution per instance");
    assert.equal(new Set(h.executions.map((e) => e.split("/")[0])).size, n);
    console.log(`# load: ${n} instances parked in ${parkedMs.toFixed(0)} ms, answered and finished in ${doneMs.toFixed(0)} ms`);
  } finally {
    await mf.dispose();
  }
});

test("a screenshot answered as an event reaches the model; every step result and the output stay far below 1 MiB", async () => {
  const mf = h.runtime(h.dir("shot"));
  try {
    await call(mf, "/start", { id: "shot-1", prompt: "#screenshot of the tab" });
    const [s] = await open(mf, "shot-1");
    assert.equal(s.data.calls[0].name, "screenshot");
    const png = Buffer.alloc(100 * 1024, 7).toString("base64");
    await call(mf, "/answer?id=shot-1", { suspension: s, answer: { ok: true, data: { output: "the tab", parts: [{ type: "image", mediaType: "image/png", data: png }] } } });
    const st = await finished(mf, "shot-1");
    assert.equal(st.status, "complete", JSON.stringify(st).slice(0, 500));
    assert.equal(st.output.text, "I received image/png of 102400 bytes.");
    assert.ok(st.steps.length >= 3, JSON.stringify(st.steps));
    const biggest = Math.max(...st.steps);
    assert.ok(biggest < 150_000, `the largest step result is ${biggest} B: the screenshot's answer, once`);
    assert.ok(JSON.stringify(st.output).length < 2_000, "the output holds no transcript");
    console.log(`# step results (B): ${st.steps.join(", ")}; output ${JSON.stringify(st.output).length} B`);
  } finally {
    await mf.dispose();
  }
});

test("with a blob store, a screenshot's bytes stay out of every step: a relay answer packed by content, a JS tool's image", async () => {
  const mf = h.runtime(h.dir("blobs"));
  const png = Buffer.alloc(100 * 1024, 7).toString("base64");
  try {
    await call(mf, "/start", { id: "relay-shot", prompt: "#screenshot of the tab", blobs: true });
    await call(mf, "/start", { id: "js-shot", prompt: "#screenshot of the tab", blobs: true, jsShot: true });
    const [s] = await open(mf, "relay-shot");
    const answer = { ok: true, data: { output: "the tab", parts: [{ type: "image", mediaType: "image/png", data: png }] } };
    await call(mf, "/answer?id=relay-shot", { suspension: s, answer, pack: true });
    for (const id of ["relay-shot", "js-shot"]) {
      const st = await finished(mf, id);
      assert.equal(st.status, "complete", JSON.stringify(st).slice(0, 500));
      assert.equal(st.output.text, "I received image/png of 102400 bytes.", id);
      const biggest = Math.max(...st.steps);
      assert.ok(biggest < 2_000, `${id}: the largest step result is ${biggest} B (${st.steps.join(", ")})`);
      console.log(`# ${id} with blobs, step results (B): ${st.steps.join(", ")}`);
    }
  } finally {
    await mf.dispose();
  }
});

test("agents in a Workflow: two children side by side park on their relay calls, survive a restart, and no step runs twice", async () => {
  const dir = h.dir("agents");
  h.executions.length = 0;
  const before = h.modelRequests.length;
  let mf = h.runtime(dir);
  let parked;
  try {
    await call(mf, "/start", { id: "team-1", prompt: "#team", agents: true });
    parked = await until(() => call(mf, "/open?id=team-1"), (l) => l.length === 2);
  } finally {
    await mf.dispose();
  }
  // Each child's own relay call, with the delegate call it came through; the children's call ids
  // are the same (the scripted model numbers calls per turn), their waits are not.
  assert.deepEqual(parked.map((s) => [s.kind, s.data.calls[0].name, s.path[0].agent]).sort(), [["tool_call", "click", "shop_a"], ["tool_call", "click", "shop_b"]]);
  assert.equal(parked[0].callId, parked[1].callId);
  assert.notEqual(parked[0].event, parked[1].event);
  assert.equal(h.executions.length, 2, "each child's lookup_price ran once before the park");
  assert.equal(new Set(h.executions).size, 2, `their steps are apart: ${h.executions}`);
  const modelCalls = h.modelRequests.length;
  assert.equal(modelCalls - before, 3, "the root's call and each child's first");

  // A new runtime replays the instance from its steps; each child is answered on its own event.
  mf = h.runtime(dir);
  try {
    for (const s of parked) {
      await call(mf, "/answer?id=team-1", { suspension: s, answer: { ok: true, data: { output: `clicked for ${s.path[0].agent}` } } });
    }
    const st = await finished(mf, "team-1");
    assert.equal(st.status, "complete", JSON.stringify(st).slice(0, 800));
    assert.equal(st.output.text, "Team: shop_a → Summary: lookup_price → $3 for red mug; click → clicked for shop_a; shop_b → Summary: lookup_price → $3 for red mug; click → clicked for shop_b");
    assert.equal(h.executions.length, 2, "the replay ran no tool again");
    assert.equal(h.modelRequests.length, modelCalls + 3, "each child's second call and the root's: none again");
    assert.deepEqual(await call(mf, "/open?id=team-1"), []);
  } finally {
    await mf.dispose();
  }
});
