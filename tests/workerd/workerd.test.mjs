// The package inside workerd (Miniflare from the pinned tooling): a durable halt in one Worker
// instance resumes in a brand-new instance from the JSON state; in-process relay through waitFor.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

let model, root;
before(async () => {
  model = await startScriptedModel();
  root = workerRoot("tnx-workerd-", "worker.mjs");
});
after(async () => { await model.close(); fs.rmSync(root, { recursive: true, force: true }); });

function worker(style) {
  return new Miniflare({
    ...moduleOptions(root),
    bindings: { MODEL_URL: style === "openai" ? `${model.url}/v1` : model.url, STYLE: style, API_KEY: "worker-secret" },
  });
}

for (const style of ["openai", "anthropic"]) {
  test(`workerd ${style}: halt in one instance, resume in a fresh one`, async () => {
    const first = worker(style);
    let state;
    try {
      const res = await first.dispatchFetch("http://worker/start", { method: "POST" });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.ok(!text.includes("worker-secret"));
      state = JSON.parse(text);
      assert.equal(state.status, "pending");
    } finally { await first.dispose(); }
    const second = worker(style);
    try {
      const results = state.pending.data.calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector} in workerd` }));
      const res = await second.dispatchFetch("http://worker/resume", { method: "POST", body: JSON.stringify({ state, results }) });
      const done = await res.json();
      assert.equal(res.status, 200, JSON.stringify(done));
      assert.equal(done.status, "done");
      assert.equal(done.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy in workerd");
      const live = await (await second.dispatchFetch("http://worker/live", { method: "POST" })).json();
      assert.equal(live.text, "Summary: lookup_price → $3 for red mug; click → live #buy");
    } finally { await second.dispose(); }
  });
}
