// The revision rule as the JS stores apply it (the core's `checkRevision`, exported from wasm),
// each store's refusal of a stale save, and a turn whose calls suspend together under waitFor
// checkpointing through every store without conflicting with itself.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, relayTool, relayAnswer, relayCallsOf, memoryStore, kvStore, chromeStorageStore, ConversationObject, checkRevision } from "toolnexus-wasm";
import { localStorageStore } from "toolnexus-wasm/web-storage";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

let model;
before(async () => { model = await startScriptedModel(); });
after(async () => { await model.close(); });

const tick = () => new Promise((r) => setTimeout(r, 2));

/** A Workers KV namespace in memory; every operation takes a moment, as the real one does. */
function fakeKv() {
  const data = new Map();
  return {
    data,
    async get(key, type) { await tick(); const v = data.get(key); return v === undefined ? null : type === "json" ? JSON.parse(v) : v; },
    async put(key, value) { await tick(); data.set(key, value); },
    async delete(key) { await tick(); data.delete(key); },
  };
}

/** chrome.storage.local in memory (no Web Locks in Node: the store falls back to a plain write). */
function fakeChrome() {
  const data = {};
  globalThis.chrome = { storage: { local: {
    async get(key) { await tick(); return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    async set(items) { await tick(); Object.assign(data, structuredClone(items)); },
    async remove(key) { await tick(); delete data[key]; },
  } } };
  return chromeStorageStore();
}

/** durableObjectStore's protocol against one ConversationObject, without workerd. */
function objectStore() {
  const stored = new Map();
  const object = new ConversationObject({ storage: {
    async get(k) { await tick(); return stored.get(k); },
    async put(k, v) { await tick(); stored.set(k, structuredClone(v)); },
    async delete(k) { stored.delete(k); },
  } });
  const call = async (op, state) => {
    const body = await (await object.fetch(new Request("https://conversation/", { method: "POST", body: JSON.stringify({ op, state }) }))).json();
    if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
    return body.state ?? undefined;
  };
  return { get: () => call("get"), save: async (_id, s) => { await call("save", s); }, delete: async () => { await call("delete"); } };
}

test("checkRevision: anything over nothing, then only the next revision", () => {
  checkRevision(undefined, { revision: 7 });
  checkRevision(null, { revision: 1 });
  checkRevision({ revision: 4 }, { revision: 5 });
  checkRevision({}, { revision: 1 }); // a document from before revisions is at 0
  for (const [have, next] of [[5, 5], [5, 4], [5, 7], [0, 0]]) {
    assert.throws(() => checkRevision({ revision: have }, { revision: next }), (e) => {
      assert.equal(e.name, "ToolnexusError");
      assert.equal(e.code, "conflict");
      assert.equal(e.message, `conflict: the conversation is at revision ${have}, this save expected ${Math.max(next - 1, 0)}`);
      return true;
    });
  }
});

/** Web Storage in memory, as `localStorage` behaves (strings only). */
function fakeWebStorage() {
  const data = new Map();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)), removeItem: (k) => data.delete(k) };
}

const stores = {
  memory: () => memoryStore(),
  localStorage: () => localStorageStore({ storage: fakeWebStorage() }),
  kv: () => kvStore(fakeKv()),
  "chrome.storage": () => fakeChrome(),
  "Durable Object": () => objectStore(),
};

for (const [name, make] of Object.entries(stores)) {
  test(`${name}: a stale save is refused with the core's conflict`, async () => {
    const store = make();
    const state = { schemaVersion: 1, style: "openai", messages: [], revision: 3 };
    await store.save("c", state);
    await store.save("c", { ...state, revision: 4 });
    await assert.rejects(store.save("c", { ...state, revision: 4 }), { code: "conflict", message: "conflict: the conversation is at revision 4, this save expected 3" });
    assert.equal((await store.get("c")).revision, 4);
  });

  test(`${name}: calls that suspend together under waitFor checkpoint without conflicting`, async () => {
    const store = make();
    const seen = [];
    const waitFor = async (request) => {
      seen.push(request.id);
      await tick();
      return relayAnswer(request.id, relayCallsOf(request).map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));
    };
    const client = createClient({ baseUrl: `${model.url}/v1`, style: "openai", model: "scripted", apiKey: "sk-conv", store, waitFor });
    const toolkit = createToolkit({ tools: [relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } })] });
    const r = await client.ask("#three-clicks", { toolkit, id: "three" });
    assert.equal(r.status, "done");
    assert.equal(seen.length, 3, "three calls suspended in one turn");
    const stored = await store.get("three");
    assert.equal(stored.pending, undefined);
    assert.ok(stored.revision >= 5, `three checkpoints, the turn and the end were saved (revision ${stored.revision})`);
    assert.match(JSON.stringify(stored.messages), /clicked #a.*clicked #b.*clicked #c/s);
  });
}
