// toolnexus-wasm/blobs inside workerd (Miniflare): conversations whose screenshots (~100 KB, a
// 137 KB base64 string each) are kept out of line in KV, R2, Durable Objects through BlobObject
// (one object per blob), and the storage of the Worker's own Durable Object (in chunks: one such
// value does not fit the 128 KiB a Durable Object value may hold). Each conversation continues in
// a new Miniflare instance over the persisted data, the model seeing its screenshots again. The
// worker's Durable Object storage refuses a value over 128 KiB, as production does.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";

let root;
before(() => {
  root = workerRoot("tnx-blobs-", "blobs-worker.mjs");
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

const worker = () => new Miniflare({
  ...moduleOptions(root),
  kvNamespaces: ["KV"], kvPersist: path.join(root, "kv"),
  r2Buckets: ["R2"], r2Persist: path.join(root, "r2"),
  durableObjects: { CONVERSATIONS: "LimitedConversationObject", BLOBS: "LimitedBlobObject", AGENT: "AgentObject" },
  durableObjectsPersist: path.join(root, "do"),
});
const call = async (mf, p, body) => {
  const r = await mf.dispatchFetch(`http://w${p}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};

const ok = (r) => {
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
};
const BLOB = /^toolnexus-blob:sha256:[0-9a-f]{64}$/;
const LIMIT = 128 * 1024;

for (const backend of ["kv", "r2", "do", "own"]) {
  test(`${backend}: a screenshot kept out of line, the conversation continued in a new instance`, async () => {
    const id = `conv-${backend}`;
    let mf = worker();
    try {
      assert.deepEqual(ok(await call(mf, `/ask?backend=${backend}`, { id, prompt: "shot 1" })), { status: "done", text: "I see 1 images" });
      const raw = ok(await call(mf, `/raw?backend=${backend}&id=${id}`));
      const [key] = Object.values(raw.blobs);
      assert.equal(Object.keys(raw.blobs).length, 1);
      assert.ok(JSON.stringify(raw).length < 3000, `${JSON.stringify(raw).length} B stored`);
      assert.equal(raw.messages[3].content[0].image_url.url, key);
      const keys = ok(await call(mf, `/keys?backend=${backend}`));
      // The screenshot's data URL: 22 + 136,536 characters, stored once under its key.
      if (backend === "kv" || backend === "r2") assert.equal(keys[`toolnexus-blob:${key}`], 136_558);
      if (backend === "own") {
        assert.deepEqual(keys[`toolnexus-blob:${key}`], 16 + JSON.stringify({ chunks: 3 }).length);
        assert.deepEqual([0, 1, 2].map((i) => keys[`toolnexus-blob:${key}#${i}`]), [60_016, 60_016, 16_574]);
        assert.ok(Object.values(keys).every((n) => n <= LIMIT));
      }
      // Through the blob store directly: has() before and after, the text back whole.
      const text = "q".repeat(140_000);
      const first = ok(await call(mf, `/blob?backend=${backend}`, { text }));
      assert.deepEqual(first, { key: first.key, before: false, after: true, same: true, length: 140_000 });
      assert.equal(ok(await call(mf, `/blob?backend=${backend}`, { text })).before, true);
    } finally { await mf.dispose(); }
    mf = worker(); // a new process: only the persisted data remains
    try {
      assert.equal(ok(await call(mf, `/ask?backend=${backend}`, { id, prompt: "what now?" })).text, "I see 1 images", "the model was sent the screenshot again");
      assert.equal(ok(await call(mf, `/ask?backend=${backend}`, { id, prompt: "shot 2" })).text, "I see 2 images");
      const raw = ok(await call(mf, `/raw?backend=${backend}&id=${id}`));
      assert.equal(Object.keys(raw.blobs).length, 2);
      assert.ok(JSON.stringify(raw).length < 4000);
      assert.equal(ok(await call(mf, `/blob?backend=${backend}`, { text: "q".repeat(140_000) })).before, true, "has() finds what the first process put");
    } finally { await mf.dispose(); }
  });
}

test("without blobs, Durable Object storage refuses the state with one screenshot", async () => {
  const mf = worker();
  try {
    for (const backend of ["do", "own"]) {
      const r = await call(mf, `/ask?backend=${backend}&plain`, { id: "plain", prompt: "shot 1" });
      assert.equal(r.status, 500);
      assert.match(r.body.error.message, /larger than 131072 bytes/);
    }
    const r = await call(mf, "/put-plain?backend=own", { text: "p".repeat(136_558) });
    assert.match(r.body.error.message, /larger than 131072 bytes/);
  } finally { await mf.dispose(); }
});

test("ten ~100 KB screenshots in a Durable Object's own storage: the state under 16 KB, every value under 128 KiB", async () => {
  const mf = worker();
  try {
    for (let n = 1; n <= 10; n++) assert.equal(ok(await call(mf, "/ask?backend=own", { id: "ten", prompt: `shot ${n}` })).text, `I see ${n} images`);
    const keys = ok(await call(mf, "/keys?backend=own"));
    assert.ok(keys["conversation:ten"] < 16 * 1024, `${keys["conversation:ten"]} B`);
    const raw = ok(await call(mf, "/raw?backend=own&id=ten"));
    const heads = Object.values(raw.blobs).map((k) => `toolnexus-blob:${k}`);
    assert.equal(new Set(heads).size, 10);
    for (const h of heads) assert.ok(BLOB.test(h) && keys[`${h}#2`] > 0 && keys[`${h}#3`] === undefined, h);
    assert.ok(Object.values(keys).every((n) => n <= LIMIT), "no value over 128 KiB");
  } finally { await mf.dispose(); }
});
