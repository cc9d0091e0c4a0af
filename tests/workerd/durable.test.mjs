// durableObjectStore in workerd (Miniflare): two concurrent resumes of one halted run — exactly
// one succeeds, the other gets `conflict`, the transcript holds one answer; and a new instance
// over the persisted Durable Object storage reads exactly what was written.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let root;
before(() => {
  root = workerRoot("tnx-do-", "do-worker.mjs");
  fs.copyFileSync(path.resolve(here, "../../demo/scripted-logic.mjs"), path.join(root, "scripted-logic.mjs"));
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

const worker = () => new Miniflare({
  ...moduleOptions(root), durableObjects: { CONVERSATIONS: "ConversationObject" }, durableObjectsPersist: path.join(root, "do"),
});
const post = async (mf, p, body) => {
  const r = await mf.dispatchFetch(`http://w${p}`, { method: "POST", body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};

test("two concurrent resumes through a Durable Object: one wins, one conflict, one answer", async () => {
  let mf = worker();
  try {
    const halted = await post(mf, "/ask", { id: "d1", prompt: "#mixed" });
    assert.equal(halted.body.status, "pending");
  } finally { await mf.dispose(); }
  mf = worker(); // any isolate reads exactly what was written
  try {
    const state = await (await mf.dispatchFetch("http://w/state?id=d1")).json();
    assert.equal(state.pending.kind, "tool_call");
    const [a, b] = await Promise.all([post(mf, "/answer", { id: "d1", who: "A", pending: state.pending }), post(mf, "/answer", { id: "d1", who: "B", pending: state.pending })]);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [200, 409], JSON.stringify([a.body, b.body]));
    const loser = a.status === 409 ? a : b;
    assert.equal(loser.body.error.code, "conflict");
    const after = await (await mf.dispatchFetch("http://w/state?id=d1")).json();
    assert.equal(after.revision, state.revision + 2, "the claim, then the turn");
    assert.equal(after.pending, undefined);
    const text = JSON.stringify(after.messages);
    const winner = a.status === 200 ? "A" : "B";
    assert.ok(text.includes(`clicked by ${winner}`) && !text.includes(`clicked by ${winner === "A" ? "B" : "A"}`), "one answer only");
  } finally { await mf.dispose(); }
});
