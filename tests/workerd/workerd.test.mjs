// The package inside workerd (Miniflare from the pinned tooling): a durable halt in one Worker
// instance resumes in a brand-new instance from the JSON state; in-process relay through waitFor.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { Miniflare } = createRequire(path.resolve(here, "../../tools/js/package.json"))("miniflare");

let model, root;
before(async () => {
  model = await startScriptedModel();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-workerd-"));
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(root, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(here, "worker.mjs"), path.join(root, "worker.mjs"));
});
after(async () => { await model.close(); fs.rmSync(root, { recursive: true, force: true }); });

function worker(style) {
  return new Miniflare({
    modules: true, scriptPath: path.join(root, "worker.mjs"), modulesRoot: root,
    modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
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
