// toolnexus-wasm/workers-ai inside workerd (Miniflare), on a binding stand-in replaying answers
// recorded for four model families (workers-ai-fixtures.mjs names their source), whole and
// streamed: a three-turn tool loop, a relay halt kept in KV and resumed by a new Miniflare
// instance over the same KV directory, and an agent Workflow parked on the relay call.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { families } from "./workers-ai-fixtures.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let root;
before(() => {
  root = workerRoot("tnx-workers-ai-", "workers-ai-worker.mjs");
  fs.copyFileSync(path.join(here, "workers-ai-fixtures.mjs"), path.join(root, "fixtures.mjs"));
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

const runtime = (dir) => new Miniflare({
  ...moduleOptions(root),
  kvNamespaces: ["CONVERSATIONS", "OPEN"], kvPersist: path.join(dir, "kv"),
  workflows: { AGENT: { name: "agent", className: "Agent" } }, workflowsPersist: path.join(dir, "wf"),
});
const post = async (mf, p, body) => {
  const res = await mf.dispatchFetch(`http://worker${p}`, body ? { method: "POST", body: JSON.stringify(body) } : undefined);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
};
const WIRE = /^[a-zA-Z0-9]{9}$/;

test("workerd: a three-turn tool loop and a KV halt resumed in a fresh instance, for four families, whole and streamed", async () => {
  const dir = fs.mkdtempSync(path.join(root, "kv-"));
  for (const [family, f] of Object.entries(families)) {
    for (const stream of [false, true]) {
      const label = `${family} ${stream ? "streamed" : "whole"}`;
      let mf = runtime(dir);
      try {
        const loop = await post(mf, "/loop", { family, stream });
        assert.equal(loop.result.status, "done", label);
        assert.equal(loop.result.text, f.text[stream ? "sse" : "json"], label);
        assert.deepEqual(loop.runs, ["get_weather London", "click #buy"], label);
        assert.equal(loop.seen.length, 3, label);
        assert.ok(loop.seen.every((s) => s.gateway === "test-gateway" && s.stream === stream), label);
        assert.ok(loop.seen[2].ids.length === 2 && loop.seen[2].ids.every((id) => WIRE.test(id)), label);

        const id = `halt-${family}-${stream}`;
        const halted = await post(mf, "/ask", { family, stream, id });
        assert.equal(halted.result.status, "pending", label);
        assert.deepEqual(halted.runs, ["get_weather London"], label);
      } finally { await mf.dispose(); }
      mf = runtime(dir); // a new process: only the KV directory survives
      try {
        const done = await post(mf, "/answer", { family, id: `halt-${family}-${stream}`, output: "clicked #buy" });
        assert.equal(done.result.status, "done", label);
        assert.equal(done.result.text, f.text.json, label);
        assert.deepEqual(done.runs, [], `${label}: no Worker tool ran again on resume`);
        assert.equal(done.seen.length, 1, `${label}: one model call after the answer`);
        assert.ok(done.seen[0].ids.every((id) => WIRE.test(id)), label);
      } finally { await mf.dispose(); }
    }
  }
});

test("workerd: an agent Workflow on Workers AI parks on the relay call and finishes on its answer", async () => {
  const dir = fs.mkdtempSync(path.join(root, "wf-"));
  const mf = runtime(dir);
  const until = async (f, ok) => {
    let v;
    for (let i = 0; i < 600; i++) { v = await f(); if (ok(v)) return v; await new Promise((r) => setTimeout(r, 25)); }
    assert.fail(`timed out; last: ${JSON.stringify(v)}`);
  };
  try {
    for (const family of ["llama-3.3", "gpt-oss"]) {
      const id = `wf-${family.replace(/\./g, "")}`;
      await post(mf, "/start", { family, id });
      const [suspension] = await until(() => post(mf, `/open?id=${id}`), (v) => v.length === 1);
      assert.equal(suspension.kind, "tool_call");
      assert.deepEqual(suspension.data.calls.map((c) => [c.name, c.input]), [["click", { selector: "#buy" }]]);
      assert.match(suspension.data.calls[0].id, WIRE);
      await post(mf, `/send?id=${id}`, { suspension, output: "clicked #buy" });
      const s = await until(() => post(mf, `/status?id=${id}`), (v) => v.status === "complete" || v.status === "errored");
      assert.equal(s.status, "complete", JSON.stringify(s));
      assert.equal(s.output.status, "done");
      assert.equal(s.output.text, families[family].text.json);
    }
  } finally { await mf.dispose(); }
});
