// One claim before any resume runs anything (docs/decisions/resume-claim.md): two resumes of one
// stored halted run started together (a side panel and a second window) run its tool once; the
// other gets `conflict` before anything of its own ran — for an approval, a relay halt and a
// `pending()` tool, through askWithAnswer and streamWithAnswer, on memoryStore (plain and
// signed) and chromeStorageStore (over a fake chrome.storage, with and without navigator.locks).
// A caller-held state (runWithAnswer) is answered once per realm. MCP questions: tests/mcp/claim.test.mjs;
// kvStore and durableObjectStore in workerd: tests/workerd/claim.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { chromeStorageStore, createClient, createToolkit, defineTool, memoryStore, pending, relayAnswer, relayCallsOf, relayTool } from "toolnexus-wasm";
import { scripted, opts, DONE } from "./scripted-fetch.mjs";

const SECRET = "claim-test-secret-0123456789abcdef";
const tick = () => new Promise((r) => setTimeout(r, 1));

/** chrome.storage.local as an extension sees it: every call async, values structured-cloned. */
function fakeChrome() {
  const data = new Map();
  return {
    storage: {
      local: {
        async get(k) { await tick(); return data.has(k) ? { [k]: structuredClone(data.get(k)) } : {}; },
        async set(o) { await tick(); for (const [k, v] of Object.entries(o)) data.set(k, structuredClone(v)); },
        async remove(k) { await tick(); data.delete(k); },
      },
    },
  };
}

/** navigator.locks.request(name, cb): one holder per name at a time, as the Web Locks API. */
function fakeLocks() {
  const chains = new Map();
  return {
    request(name, cb) {
      const run = (chains.get(name) ?? Promise.resolve()).then(() => cb());
      chains.set(name, run.catch(() => {}));
      return run;
    },
  };
}

/** Installs a store's globals for one test and gives it; `undo` puts them back. */
function storeOf(kind) {
  const saved = { chrome: globalThis.chrome, navigator: Object.getOwnPropertyDescriptor(globalThis, "navigator") };
  const undo = () => {
    globalThis.chrome = saved.chrome;
    if (saved.navigator) Object.defineProperty(globalThis, "navigator", saved.navigator);
    else delete globalThis.navigator;
  };
  if (kind.startsWith("chrome")) {
    globalThis.chrome = fakeChrome();
    Object.defineProperty(globalThis, "navigator", { value: kind === "chrome+locks" ? { locks: fakeLocks() } : {}, configurable: true, writable: true });
    return { store: chromeStorageStore(), undo };
  }
  return { store: memoryStore(), undo };
}

/** The tool each suspension kind halts on, and the answer that resumes it; `runs` counts what ran. */
function kindOf(kind, runs) {
  if (kind === "approval") {
    const pay = defineTool({ name: "pay", description: "pay", needsApproval: true, run: async () => (runs.push("pay"), "paid") });
    return { tools: [pay], call: "pay", answer: (p) => ({ id: p.id, ok: true }) };
  }
  if (kind === "relay") {
    const click = relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } });
    return { tools: [click], call: "click", answer: (p) => relayAnswer(p.id, relayCallsOf(p).map((c) => ({ id: c.id, output: "clicked" }))) };
  }
  const ask = defineTool({
    name: "confirm",
    description: "asks, then acts",
    run: async (_args, ctx) => (ctx.answer ? (runs.push("confirm"), `confirmed ${ctx.answer.data?.who}`) : pending({ kind: "question", prompt: "Who?" })),
  });
  return { tools: [ask], call: "confirm", answer: (p) => ({ id: p.id, ok: true, data: { who: "Ada" } }) };
}

async function resume(client, method, o) {
  if (method === "askWithAnswer") return client.askWithAnswer(o);
  let done;
  for await (const e of client.streamWithAnswer(o)) if (e.type === "done") done = e.result;
  return done;
}

for (const storeKind of ["memory", "memory+signed", "chrome+locks", "chrome"]) {
  for (const kind of ["approval", "relay", "pending"]) {
    for (const method of ["askWithAnswer", "streamWithAnswer"]) {
      test(`claim: two concurrent ${method} of one ${kind} on ${storeKind}: one runs, the other is conflict before anything ran`, async () => {
        const { store, undo } = storeOf(storeKind);
        try {
          const runs = [];
          const k = kindOf(kind, runs);
          const m = scripted([[k.call, { amount: 12 }]], DONE);
          const extra = storeKind.endsWith("signed") ? { stateSecret: SECRET } : {};
          // Two clients over one store: a side panel and a second window.
          const [a, b] = [createClient(opts(m, { store, ...extra })), createClient(opts(m, { store, ...extra }))];
          const toolkit = createToolkit({ tools: k.tools });
          const halted = await a.ask("go", { toolkit, id: "c1" });
          assert.equal(halted.status, "pending");
          const answer = k.answer(halted.pending);
          const before = (await store.get("c1")).revision;
          const results = await Promise.allSettled([resume(a, method, { toolkit, id: "c1", answer }), resume(b, method, { toolkit, id: "c1", answer })]);
          const won = results.filter((r) => r.status === "fulfilled");
          const lost = results.filter((r) => r.status === "rejected");
          assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.reason?.message ?? r.value?.status)));
          assert.equal(won[0].value.status, "done");
          assert.equal(lost[0].reason.code, "conflict", lost[0].reason.message);
          assert.equal(m.calls, 2, "the halt and the winner called the model; the loser did not");
          assert.deepEqual(runs, kind === "relay" ? [] : [k.call], "the tool ran exactly once");
          const after = await store.get("c1");
          assert.equal(after.pending, undefined);
          assert.equal(after.claimed, undefined, "the claim is replaced by the winner's turn");
          assert.ok(after.revision >= before + 2, "the claim took a revision of its own");
          assert.equal(JSON.stringify(after.messages).match(/"role":"tool"/g).length, 1, "one answer in the transcript");
          a.free();
          b.free();
        } finally {
          undo();
        }
      });
    }
  }
}

test("claim: a resume that died after its claim refuses another (the tool may have run) until discard closes the turn as interrupted", async () => {
  const runs = [];
  const inner = memoryStore();
  let saves = 0;
  // The second save of the resume (its tool's turn, after the claim) never lands: the worker died.
  const store = { get: inner.get, delete: inner.delete, save: async (id, s) => { if (++saves === 3) throw new Error("worker died"); return inner.save(id, s); } };
  const k = kindOf("approval", runs);
  const m = scripted([["pay", {}]], DONE);
  const client = createClient(opts(m, { store }));
  const toolkit = createToolkit({ tools: k.tools });
  const halted = await client.ask("go", { toolkit, id: "c1" });
  const answer = k.answer(halted.pending);
  await assert.rejects(client.askWithAnswer({ toolkit, id: "c1", answer }), { code: "store" });
  assert.deepEqual(runs, ["pay"]);
  assert.equal((await store.get("c1")).claimed, halted.pending.id);
  await assert.rejects(client.askWithAnswer({ toolkit, id: "c1", answer }), (e) => e.code === "conflict" && /discard\(id, \{ keepHistory: true \}\)/.test(e.message));
  await assert.rejects(client.ask("again", { toolkit, id: "c1" }), { code: "conversation_halted" });
  assert.deepEqual(runs, ["pay"], "never run twice");
  await client.discard("c1", { keepHistory: true });
  const closed = await store.get("c1");
  assert.equal(closed.claimed, undefined);
  assert.match(JSON.stringify(closed.messages.at(-1)), /interrupted: .*may or may not have run/);
  const r = await client.ask("again", { toolkit, id: "c1" });
  assert.equal(r.status, "done");
  client.free();
});

test("claim: a caller-held state is answered by one resume at a time per realm (runWithAnswer, streamWithAnswer without an id)", async () => {
  const runs = [];
  const k = kindOf("approval", runs);
  const m = scripted([["pay", {}]], DONE);
  const [client, other] = [createClient(opts(m)), createClient(opts(m))];
  const toolkit = createToolkit({ tools: k.tools });
  const halted = await client.run("go", { toolkit });
  const answer = k.answer(halted.pending);
  // Three at once, from two clients of one realm: one runs, the others are conflict.
  const results = await Promise.allSettled([
    client.runWithAnswer({ toolkit, state: halted, answer }),
    client.runWithAnswer({ toolkit, state: halted, answer }),
    resume(other, "streamWithAnswer", { toolkit, state: halted, answer }),
  ]);
  assert.deepEqual(results.map((r) => r.value?.status ?? r.reason?.code), ["done", "conflict", "conflict"], results.map((r) => r.reason?.message).join(" / "));
  assert.deepEqual(runs, ["pay"]);
  // A wrong answer is refused before it holds anything; once the run ended the value may be
  // answered again (no store can tell a second opinion from a replay: see resume-claim.md).
  await assert.rejects(client.runWithAnswer({ toolkit, state: halted, answer: { id: "nope", ok: true } }), { code: "answer_mismatch" });
  assert.equal((await client.runWithAnswer({ toolkit, state: halted, answer })).status, "done");
  client.free();
  other.free();
});
