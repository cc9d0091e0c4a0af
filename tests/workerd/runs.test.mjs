// examples/worker in workerd (Miniflare): a run halts on a relay call, the Worker restarts (a new
// Miniflare instance over the same persisted KV), the answer resumes it; stale, mismatched and
// malformed answers get 4xx errors and change nothing; DELETE discards; streaming is SSE.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { bundleExample, workerModules } from "./bundle-example.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { Miniflare } = createRequire(path.resolve(here, "../../tools/js/package.json"))("miniflare");
let root, kvDir;
before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-runs-"));
  kvDir = path.join(root, "kv");
  bundleExample("worker", path.join(root, "worker"));
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

let backing = "kv";
const worker = () => new Miniflare({
  ...workerModules(path.join(root, "worker")),
  compatibilityDate: "2026-04-01", kvNamespaces: ["RUNS"], kvPersist: kvDir,
  ...(backing === "do" ? { durableObjects: { RUNS_DO: "ConversationObject" }, durableObjectsPersist: path.join(root, "do") } : {}),
});
const call = async (mf, method, p, body) => {
  const r = await mf.dispatchFetch(`http://w${p}`, { method, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  return { status: r.status, body: r.status === 204 ? null : await r.json() };
};

for (const [style, store] of [["openai", "kv"], ["anthropic", "kv"], ["gemini", "kv"], ["openai", "do"], ["gemini", "do"]]) {
  test(`${style} over ${store}: halt, restart, resume; bad and stale answers change nothing; discard`, async () => {
    backing = store;
    let mf = worker();
    let id, pending;
    try {
      const start = await call(mf, "POST", "/runs", { prompt: "#mixed", style });
      assert.equal(start.status, 202);
      assert.equal(start.body.status, "pending");
      ({ id, pending } = start.body);
      assert.equal(pending.kind, "tool_call");
    } finally { await mf.dispose(); }

    mf = worker(); // a new isolate: only KV survives
    try {
      const stored = await call(mf, "GET", `/runs/${id}`);
      assert.equal(stored.body.pending.id, pending.id);
      const wrong = await call(mf, "POST", `/runs/${id}/answer`, { answer: { id: "pnd-other", ok: true } });
      assert.deepEqual([wrong.status, wrong.body.error.code], [409, "answer_mismatch"]);
      assert.equal((await call(mf, "POST", `/runs/${id}/answer`, "{not json")).status, 400);
      assert.deepEqual((await call(mf, "GET", `/runs/${id}`)).body, stored.body, "bad answers changed nothing");
      const callId = pending.data.calls[0].id;
      const done = await call(mf, "POST", `/runs/${id}/answer`, { results: [{ id: callId, output: "clicked #buy" }] });
      assert.equal(done.status, 200);
      assert.equal(done.body.text, "Summary: lookup_price → $9.90; click → clicked #buy");
      const stale = await call(mf, "POST", `/runs/${id}/answer`, { results: [{ id: callId, output: "again" }] });
      assert.deepEqual([stale.status, stale.body.error.code], [409, "not_halted"]);
      assert.equal((await call(mf, "DELETE", `/runs/${id}`)).status, 204);
      assert.equal((await call(mf, "GET", `/runs/${id}`)).status, 404);
      assert.equal((await call(mf, "POST", `/runs/${id}/answer`, { results: [] })).status, 404);
    } finally { await mf.dispose(); }
  });
}

test("streaming runs are SSE, and the halted run is in KV afterwards", async () => {
  const mf = worker();
  try {
    const r = await mf.dispatchFetch("http://w/runs?stream=1", { method: "POST", body: JSON.stringify({ prompt: "#mixed", style: "anthropic" }) });
    assert.equal(r.headers.get("content-type"), "text/event-stream");
    const id = r.headers.get("x-run-id");
    const text = await r.text();
    const types = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    assert.deepEqual(types, ["tool_call", "tool_call", "tool_result", "pending", "done"]);
    const stored = await call(mf, "GET", `/runs/${id}`);
    assert.equal(stored.body.pending.kind, "tool_call");
    assert.equal((await call(mf, "POST", "/runs", { nope: 1 })).status, 400);
  } finally { await mf.dispose(); }
});
