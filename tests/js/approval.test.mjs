// `needsApproval` on a tool: the call suspends with `kind: "approval"` and `{ name, arguments }`
// before the tool runs; approved it runs, declined the model reads a declined result and the tool
// never ran. In-process through waitFor, durably across JSON and a fresh client (signed too),
// beside a relay call in one turn, a tool that suspends again after its approval, a beforeTool
// suspension, and tools given as a plain list.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, pending } from "toolnexus-wasm";
import { scripted, opts, DONE } from "./scripted-fetch.mjs";

const SECRET = "approval-tests-secret-0123456789";

/** A `delete_file` tool that records what it deleted, with `needsApproval` as given. */
function deleter(needsApproval, ran = []) {
  return defineTool({
    name: "delete_file", description: "Deletes a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    needsApproval,
    run: async ({ path }) => (ran.push(path), `deleted ${path}`),
  });
}

/** waitFor answering approvals with `ok` and relay calls with "clicked"; records each request. */
function host(ok) {
  const asked = [];
  const waitFor = async (request) => {
    asked.push(request);
    if (request.kind === "approval") return { id: request.id, ok, ...(ok ? {} : { reason: "declined" }) };
    return relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: "clicked" })));
  };
  return { asked, waitFor };
}

const DECLINED = "declined/expired: approval to run delete_file";

test("needsApproval: true — approved through waitFor, the tool runs; declined, it never runs", async () => {
  for (const ok of [true, false]) {
    const ran = [];
    const h = host(ok);
    const m = scripted([["delete_file", { path: "/tmp/a" }]], DONE);
    const r = await createClient(opts(m, { waitFor: h.waitFor })).run("clean up", { toolkit: createToolkit([deleter(true, ran)]) });
    assert.equal(h.asked.length, 1);
    const [req] = h.asked;
    assert.equal(req.kind, "approval");
    assert.equal(req.prompt, "approval to run delete_file");
    assert.deepEqual(req.data, { name: "delete_file", arguments: { path: "/tmp/a" } });
    assert.match(req.id, /^approval:-?\d+:\w+$/);
    assert.equal(r.status, "done");
    assert.deepEqual(ran, ok ? ["/tmp/a"] : [], ok ? "approved: ran once" : "declined: never ran");
    assert.equal(r.text, ok ? "delete_file: deleted /tmp/a" : `delete_file: ${DECLINED}`);
    assert.equal(r.toolCalls[0].isError, !ok);
  }
});

test("needsApproval: a function (sync or async) of the arguments and { name } decides per call", async () => {
  const seen = [];
  const sync = (args, ctx) => (seen.push([args.path, ctx.name]), args.path.startsWith("/etc"));
  const async_ = async (args) => (await new Promise((r) => setTimeout(r, 5)), args.path.startsWith("/etc"));
  for (const need of [sync, async_]) {
    const ran = [];
    const h = host(true);
    const m = scripted([["delete_file", { path: "/tmp/a" }], ["delete_file", { path: "/etc/passwd" }]], DONE);
    const r = await createClient(opts(m, { waitFor: h.waitFor })).run("clean up", { toolkit: createToolkit([deleter(need, ran)]) });
    assert.deepEqual(h.asked.map((q) => q.data.arguments.path), ["/etc/passwd"], "only the call the function flagged asked");
    assert.deepEqual(ran.sort(), ["/etc/passwd", "/tmp/a"]);
    assert.equal(r.status, "done");
  }
  assert.deepEqual(seen, [["/tmp/a", "delete_file"], ["/etc/passwd", "delete_file"]]);
  // anything but false asks (an async function that forgot its return, a throw never runs it)
  for (const need of [async () => {}, () => 0, () => { throw new Error("policy down"); }]) {
    const ran = [];
    const m = scripted([["delete_file", { path: "/tmp/b" }]], DONE);
    const r = await createClient(opts(m)).run("x", { toolkit: createToolkit([deleter(need, ran)]) });
    assert.deepEqual(ran, []);
    if (r.status === "pending") assert.equal(r.pending.kind, "approval");
    else assert.equal(r.text, "delete_file: policy down");
  }
  // false, null, undefined: no approval
  for (const need of [false, null, undefined, () => false]) {
    const ran = [];
    const r = await createClient(opts(scripted([["delete_file", { path: "/x" }]], DONE))).run("x", { toolkit: createToolkit([deleter(need, ran)]) });
    assert.deepEqual([r.status, ran], ["done", ["/x"]]);
  }
});

for (const secret of [undefined, SECRET]) {
  test(`durable: halted on approval, resumed from JSON in a fresh client and toolkit${secret ? " (signed)" : ""}`, async () => {
    const extra = secret ? { stateSecret: secret } : {};
    const m = scripted([["delete_file", { path: "/tmp/a" }]]);
    const ran = [];
    const r = await createClient(opts(m, extra)).run("clean up", { toolkit: createToolkit([deleter(true, ran)]) });
    assert.equal(r.status, "pending");
    assert.equal(r.pending.kind, "approval");
    assert.deepEqual(r.pending.data, { name: "delete_file", arguments: { path: "/tmp/a" } });
    assert.deepEqual(ran, [], "nothing ran before the approval");
    const state = JSON.parse(JSON.stringify(r));

    for (const ok of [true, false]) {
      const ran2 = [];
      const m2 = scripted(DONE);
      const done = await createClient(opts(m2, extra)).runWithAnswer({ toolkit: createToolkit([deleter(true, ran2)]), state, answer: { id: state.pending.id, ok } });
      assert.equal(done.status, "done");
      assert.deepEqual(ran2, ok ? ["/tmp/a"] : []);
      assert.equal(done.text, ok ? "delete_file: deleted /tmp/a" : `delete_file: ${DECLINED}`);
    }
    // an answer to another request never runs it
    const e = await createClient(opts(scripted(DONE), extra)).runWithAnswer({ toolkit: createToolkit([deleter(true, ran)]), state, answer: { id: "approval:0:forged", ok: true } }).catch((e) => e);
    assert.equal(e.code, "answer_mismatch");
    assert.deepEqual(ran, []);
  });
}

test("signed: an approval state whose arguments were edited after it was shown is refused", async () => {
  const r = await createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]]), { stateSecret: SECRET })).run("x", { toolkit: createToolkit([deleter(true)]) });
  const forged = JSON.parse(JSON.stringify(r));
  forged.messages[1].tool_calls[0].function.arguments = '{"path":"/"}'; // what would run on resume
  const m = scripted(DONE);
  const ran = [];
  const e = await createClient(opts(m, { stateSecret: SECRET })).runWithAnswer({ toolkit: createToolkit([deleter(true, ran)]), state: forged, answer: { id: forged.pending.id, ok: true } }).catch((e) => e);
  assert.equal(e.code, "bad_state");
  assert.deepEqual([m.calls, ran], [0, []]);
});

test("an approval is bound to the name and arguments it was shown with", async () => {
  // Unsigned, the arguments can be edited after the approval was shown: the approval does not
  // carry over to other arguments, the call asks again.
  const r = await createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]]))).run("x", { toolkit: createToolkit([deleter(true)]) });
  const edited = JSON.parse(JSON.stringify(r));
  edited.messages[1].tool_calls[0].function.arguments = '{"path":"/"}';
  const ran = [];
  const again = await createClient(opts(scripted(DONE))).runWithAnswer({ toolkit: createToolkit([deleter(true, ran)]), state: edited, answer: { id: edited.pending.id, ok: true } });
  assert.deepEqual([again.status, again.pending?.kind, again.pending?.data.arguments, ran], ["pending", "approval", { path: "/" }, []]);
  // In-process, beforeTool's rewritten arguments are the ones approved and run.
  const asked = [];
  const hooks = { beforeTool: async ({ args }) => ({ args: { path: `${args.path}.bak` } }) };
  const done = await createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]], DONE), { hooks, waitFor: approve(asked) }))
    .run("x", { toolkit: createToolkit([deleter(true, ran)]) });
  assert.deepEqual(asked.map((q) => q.data.arguments), [{ path: "/tmp/a.bak" }]);
  assert.deepEqual([done.text, ran], ["delete_file: deleted /tmp/a.bak", ["/tmp/a.bak"]]);
});

const approve = (asked) => async (q) => (asked.push(q), { id: q.id, ok: true });

const click = relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } });

test("mixed with a relay call in one turn: in-process, both wait and both are answered", async () => {
  const ran = [];
  const h = host(true);
  const m = scripted([["delete_file", { path: "/tmp/a" }], ["click", { selector: "#ok" }]], DONE);
  const r = await createClient(opts(m, { waitFor: h.waitFor })).run("x", { toolkit: createToolkit([deleter(true, ran), click]) });
  assert.deepEqual(h.asked.map((q) => q.kind).sort(), ["approval", "tool_call"]);
  assert.equal(r.text, "delete_file: deleted /tmp/a\nclick: clicked");
  assert.deepEqual(ran, ["/tmp/a"]);
});

test("mixed with a relay call in one turn: durably, one answer carries the approval and the relay result", async () => {
  const m = scripted([["delete_file", { path: "/tmp/a" }], ["click", { selector: "#ok" }]]);
  const r = await createClient(opts(m, { stateSecret: SECRET })).run("x", { toolkit: createToolkit([deleter(true), click]) });
  const state = JSON.parse(JSON.stringify(r));
  // the first suspension in call order surfaces; the turn's relay calls are merged into it
  assert.equal(state.pending.kind, "approval");
  assert.deepEqual(state.pending.data.arguments, { path: "/tmp/a" });
  assert.deepEqual(state.pending.data.calls.map((c) => c.name), ["click"]);
  const ran = [];
  const results = state.pending.data.calls.map((c) => ({ id: c.id, output: "clicked" }));
  const done = await createClient(opts(scripted(DONE), { stateSecret: SECRET }))
    .runWithAnswer({ toolkit: createToolkit([deleter(true, ran), click]), state, answer: { id: state.pending.id, ok: true, data: { results } } });
  assert.equal(done.text, "delete_file: deleted /tmp/a\nclick: clicked");
  assert.deepEqual(ran, ["/tmp/a"]);
});

test("mixed, relay call first: the relay halt resumes, then the approval halts in its turn", async () => {
  const m = scripted([["click", { selector: "#ok" }], ["delete_file", { path: "/tmp/a" }]]);
  const ran = [];
  const kit = () => createToolkit([click, deleter(true, ran)]);
  const first = JSON.parse(JSON.stringify(await createClient(opts(m, { stateSecret: SECRET })).run("x", { toolkit: kit() })));
  assert.equal(first.pending.kind, "tool_call");
  const answer = relayAnswer(first.pending.id, relayCallsOf(first.pending).map((c) => ({ id: c.id, output: "clicked" })));
  const second = JSON.parse(JSON.stringify(await createClient(opts(scripted(DONE), { stateSecret: SECRET })).runWithAnswer({ toolkit: kit(), state: first, answer })));
  assert.equal(second.status, "pending");
  assert.equal(second.pending.kind, "approval", "the approval call was asked again, not run");
  assert.deepEqual(ran, []);
  const done = await createClient(opts(scripted(DONE), { stateSecret: SECRET })).runWithAnswer({ toolkit: kit(), state: second, answer: { id: second.pending.id, ok: true } });
  assert.equal(done.text, "click: clicked\ndelete_file: deleted /tmp/a");
  assert.deepEqual(ran, ["/tmp/a"]);
});

/** A tool that asks for approval, then asks its own question (`pending`) and reads the answer. */
function asker(ran) {
  return defineTool({
    name: "transfer", description: "moves money", inputSchema: { type: "object" }, needsApproval: true,
    run: async ({ amount }, ctx) => {
      ran.push(ctx.answer ? `answered ${ctx.answer.id}` : "first");
      if (!ctx.answer) return pending({ id: "otp-1", kind: "input", prompt: "one-time code?" });
      return `sent ${amount} with code ${ctx.answer.data.code}`;
    },
  });
}

test("a tool that suspends again after its approval gets its own answer back (in-process and durably)", async () => {
  const ran = [];
  const asked = [];
  const waitFor = async (q) => (asked.push(q), q.kind === "approval" ? { id: q.id, ok: true } : { id: q.id, ok: true, data: { code: "4242" } });
  const r = await createClient(opts(scripted([["transfer", { amount: 5 }]], DONE), { waitFor })).run("x", { toolkit: createToolkit([asker(ran)]) });
  assert.deepEqual(asked.map((q) => q.kind), ["approval", "input"]);
  assert.match(asked[1].id, /^approved:-?\d+:otp-1$/, "the tool's own request, marked as asked after the approval");
  assert.deepEqual(ran, ["first", "answered otp-1"], "it ran only after the approval, and saw its own id");
  assert.equal(r.text, "transfer: sent 5 with code 4242");

  const ran2 = [];
  const kit = () => createToolkit([asker(ran2)]);
  const c = () => createClient(opts(scripted(DONE), { stateSecret: SECRET }));
  const h1 = JSON.parse(JSON.stringify(await createClient(opts(scripted([["transfer", { amount: 7 }]]), { stateSecret: SECRET })).run("x", { toolkit: kit() })));
  assert.equal(h1.pending.kind, "approval");
  const h2 = JSON.parse(JSON.stringify(await c().runWithAnswer({ toolkit: kit(), state: h1, answer: { id: h1.pending.id, ok: true } })));
  assert.equal(h2.pending.kind, "input");
  assert.match(h2.pending.id, /^approved:-?\d+:otp-1$/);
  const done = await c().runWithAnswer({ toolkit: kit(), state: h2, answer: { id: h2.pending.id, ok: true, data: { code: "9" } } });
  assert.equal(done.text, "transfer: sent 7 with code 9");
  assert.deepEqual(ran2, ["first", "answered otp-1"]);
});

test("an answer that is not the approval's (a beforeTool suspension) asks for the approval instead of running", async () => {
  const ran = [];
  const asked = [];
  const hooks = { beforeTool: async ({ name }) => (name === "delete_file" ? { result: pending({ kind: "confirm", prompt: "host check" }) } : undefined) };
  const waitFor = async (q) => (asked.push(q.kind), { id: q.id, ok: q.kind === "confirm" }); // approvals declined
  const r = await createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]], DONE), { waitFor, hooks })).run("x", { toolkit: createToolkit([deleter(true, ran)]) });
  assert.deepEqual(asked, ["confirm", "approval"]);
  assert.deepEqual(ran, [], "the host's own confirmation is not the tool's approval");
  assert.equal(r.text, `delete_file: ${DECLINED}`);
});

test("tools given as a plain list, and raw tool objects in createToolkit, are gated too", async () => {
  const raw = (ran) => ({ name: "delete_file", description: "d", inputSchema: { type: "object" }, needsApproval: true, run: async ({ path }) => (ran.push(path), "deleted") });
  for (const toolkit of [(ran) => [raw(ran)], (ran) => ({ tools: [raw(ran)] }), (ran) => createToolkit([raw(ran)]), (ran) => { const k = createToolkit([]); k.add(raw(ran)); return k; }]) {
    const ran = [];
    const r = await createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]], DONE))).run("x", { toolkit: toolkit(ran) });
    assert.deepEqual([r.status, r.pending?.kind, ran], ["pending", "approval", []]);
  }
  // defineTool applies it once: the tool it returns is gated and says nothing more about it
  const t = deleter(true);
  assert.equal(t.needsApproval, undefined);
  const ran = [];
  const r = await createClient(opts(scripted([["delete_file", { path: "/b" }]], DONE), { waitFor: host(true).waitFor })).run("x", { toolkit: createToolkit([t, relayTool("other")]) });
  assert.equal(r.text, "delete_file: deleted /b");
});

test("streams: the approval is a pending event before waitFor is called", async () => {
  const ran = [];
  const order = [];
  const waitFor = async (q) => (order.push(`waitFor ${q.kind}`), { id: q.id, ok: true });
  const s = createClient(opts(scripted([["delete_file", { path: "/tmp/a" }]], DONE), { waitFor })).stream("x", { toolkit: createToolkit([deleter(true, ran)]) });
  for await (const e of s) if (e.type !== "usage" && e.type !== "text") order.push(e.type === "pending" ? `pending ${e.request.kind}` : e.type);
  assert.deepEqual(order, ["tool_call", "pending approval", "waitFor approval", "tool_result", "done"]);
  assert.deepEqual(ran, ["/tmp/a"]);
});
