// One claim before any resume runs anything (docs/decisions/resume-claim.md), in workerd
// (Miniflare): two concurrent resumes of one halted conversation — an approval, a relay halt, a
// `pending()` tool, an MCP server's question — through askWithAnswer and streamWithAnswer, on
// kvStore and durableObjectStore: the tool runs once (the MCP server hears one answer), the other
// resume gets `conflict` and ran nothing. kvStore's guarantee holds within one isolate (its saves
// of one id take turns there); across isolates only durableObjectStore's holds.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { start2026 } from "../mcp/server2026.mjs";

let root, mcp, mf;
before(async () => {
  mcp = await start2026();
  root = workerRoot("tnx-claim-", "claim-worker.mjs");
  mf = new Miniflare({
    ...moduleOptions(root), kvNamespaces: ["KV"], durableObjects: { DO: "ConversationObject" }, bindings: { MCP_URL: mcp.url },
  });
});
after(async () => { await mf?.dispose(); await mcp?.close(); fs.rmSync(root, { recursive: true, force: true }); });

const post = async (p, body) => {
  const r = await mf.dispatchFetch(`http://w${p}`, { method: "POST", body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};

let n = 0;
for (const store of ["kv", "do"]) {
  for (const kind of ["approval", "relay", "pending", "mcp"]) {
    for (const method of ["askWithAnswer", "streamWithAnswer"]) {
      test(`workerd claim: two concurrent ${method} of one ${kind} on ${store}: one runs, one conflict`, async () => {
        const id = `c${++n}`;
        const halted = await post("/halt", { store, kind, id });
        assert.equal(halted.body.status, "pending", JSON.stringify(halted.body));
        const counts = async () => (await mf.dispatchFetch("http://w/runs")).json();
        const before = await counts();
        const answersBefore = mcp.log.retries.filter((x) => x.inputResponses).length;
        const [a, b] = await Promise.all([post("/answer", { store, kind, id, method, pending: halted.body.pending }), post("/answer", { store, kind, id, method, pending: halted.body.pending })]);
        assert.deepEqual([a.status, b.status].sort(), [200, 409], JSON.stringify([a.body, b.body]));
        const loser = a.status === 409 ? a : b;
        assert.equal(loser.body.error.code, "conflict");
        const winner = a.status === 200 ? a : b;
        assert.equal(winner.body.status, "done");
        const now = await counts();
        assert.equal(now.runs.length - before.runs.length, kind === "approval" || kind === "pending" ? 1 : 0, "the tool ran exactly once");
        assert.equal(now.modelCalls - before.modelCalls, 1, "only the winner called the model");
        if (kind === "mcp") assert.equal(mcp.log.retries.filter((x) => x.inputResponses).length - answersBefore, 1, "the server heard one answer");
        const state = (await post("/state", { store, kind, id })).body;
        assert.equal(state.pending, undefined);
        assert.equal(state.claimed, undefined);
        assert.equal(JSON.stringify(state.messages).match(/"role":"tool"/g).length, 1, "one answer in the transcript");
      });
    }
  }
}
