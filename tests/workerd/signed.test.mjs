// Signed states in workerd (WebCrypto's HMAC there): a halted run signed in one Worker instance
// resumes in a fresh one with the same secret; the same state edited, or without its signature,
// is refused with bad_state before the model is called again.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const SECRET = "workerd-state-secret-0123456789";

let model, root;
before(async () => {
  model = await startScriptedModel();
  root = workerRoot("tnx-workerd-signed-", "worker.mjs");
});
after(async () => { await model.close(); fs.rmSync(root, { recursive: true, force: true }); });

const worker = () => new Miniflare({
  ...moduleOptions(root),
  bindings: { MODEL_URL: `${model.url}/v1`, STYLE: "openai", API_KEY: "worker-key", STATE_SECRET: SECRET },
});

async function post(path, body) {
  const w = worker();
  try {
    const res = await w.dispatchFetch(`http://worker${path}`, { method: "POST", body: body && JSON.stringify(body) });
    return [res.status, await res.json()];
  } finally { await w.dispose(); }
}

test("workerd: a signed halt resumes in a fresh instance; an edited or unsigned one is refused", async () => {
  const [status, state] = await post("/start");
  assert.equal(status, 200, JSON.stringify(state));
  assert.equal(state.status, "pending");
  assert.match(state.signature, /^[A-Za-z0-9+/]{43}=$/);
  assert.ok(!JSON.stringify(state).includes(SECRET));
  const results = state.pending.data.calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` }));

  const forged = structuredClone(state);
  forged.messages.find((m) => m.role === "tool").content = "$0 for red mug";
  const { signature, ...unsigned } = state;
  for (const bad of [forged, unsigned]) {
    const before = model.requests.length;
    const [s, body] = await post("/resume", { state: bad, results });
    assert.equal(s, 500);
    assert.equal(body.code, "bad_state", JSON.stringify(body));
    assert.ok(!body.error.includes(SECRET));
    assert.equal(model.requests.length, before, "no model call");
  }
  assert.ok(signature);
  const [ok, done] = await post("/resume", { state, results });
  assert.equal(ok, 200, JSON.stringify(done));
  assert.equal(done.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy");
});
