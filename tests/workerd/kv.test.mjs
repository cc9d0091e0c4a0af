// kvStore inside workerd (Miniflare): a conversation halts on a relay call in one Miniflare
// instance, and a brand-new instance over the same persisted KV directory resumes it.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

let model, root, kvDir;
before(async () => {
  model = await startScriptedModel();
  root = workerRoot("tnx-kv-", "kv-worker.mjs");
  kvDir = path.join(root, "kv-data");
});
after(async () => { await model.close(); fs.rmSync(root, { recursive: true, force: true }); });

const worker = (style) => new Miniflare({
  ...moduleOptions(root),
  kvNamespaces: ["CONVERSATIONS"], kvPersist: kvDir,
  bindings: { MODEL_URL: style === "openai" ? `${model.url}/v1` : model.url, STYLE: style, API_KEY: "kv-secret" },
});
const post = async (mf, p, body) => {
  const res = await mf.dispatchFetch(`http://worker${p}`, { method: "POST", body: JSON.stringify(body) });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
};

for (const style of ["openai", "anthropic"]) {
  test(`workerd ${style}: a conversation halted in KV resumes in a fresh Miniflare instance`, async () => {
    const id = `conv-${style}`;
    const first = worker(style);
    try {
      const halted = await post(first, "/ask", { id, prompt: "#mixed" });
      assert.equal(halted.status, "pending");
      const stored = await (await first.dispatchFetch(`http://worker/state?id=${id}`)).json();
      assert.equal(stored.schemaVersion, 2);
      assert.equal(stored.pending.id, halted.pending.id);
      assert.deepEqual(stored.outstanding.map((o) => o.name), ["click"]);
      assert.ok(!JSON.stringify(stored).includes("kv-secret"));
    } finally { await first.dispose(); }

    const second = worker(style); // a new isolate and process: only the KV directory survives
    try {
      const stored = await (await second.dispatchFetch(`http://worker/state?id=${id}`)).json();
      const results = stored.pending.data.calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` }));
      const done = await post(second, "/answer", { id, results });
      assert.equal(done.status, "done");
      assert.equal(done.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy");
      const events = await post(second, "/stream", { id, prompt: "#hello" });
      assert.equal(events.at(-1).status, "done");
      assert.equal(events.filter((e) => e.type === "text").map((e) => e.delta).join(""), "Hello from the scripted model.");
      const after = await (await second.dispatchFetch(`http://worker/state?id=${id}`)).json();
      assert.equal(after.pending, undefined);
      assert.ok(JSON.stringify(after.messages).includes("Hello from the scripted model."));
      await post(second, "/discard", { id });
      assert.equal(await (await second.dispatchFetch(`http://worker/state?id=${id}`)).json(), null, "discard deleted it from KV");
    } finally { await second.dispose(); }
  });
}
