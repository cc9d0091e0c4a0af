// toolnexus-wasm/blobs in Node: long strings of a state kept out of line by SHA-256 (packState /
// unpackState, packValue / unpackValue), withBlobs around a conversation store, memoryBlobs and
// chromeStorageBlobs (over a fake chrome.storage). Real conversations through createClient with
// the scripted model: tools returning screenshots and long outputs, a halted run packed and resumed
// with runWithAnswer, signed states (stateSecret) with a tampered blob refused, states written
// before blobs unchanged, and no blob written twice across checkpoints.
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, memoryStore, chromeStorageStore, ToolnexusError } from "toolnexus-wasm";
import {
  blobKey, packState, unpackState, packValue, unpackValue, withBlobs, memoryBlobs, chromeStorageBlobs, kvBlobs, r2Blobs, durableObjectBlobs, DEFAULT_THRESHOLD,
} from "toolnexus-wasm/blobs";
import { opts } from "./scripted-fetch.mjs";

const SECRET = "s3cret-for-blob-tests-0123456789";

/** A ~`kb` KiB PNG (signature, then random bytes: each one distinct), base64: 1.37 × kb KB of text. */
function screenshot(kb = 100) {
  const b = crypto.randomBytes(kb * 1024);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b.toString("base64");
}
const sha = (text) => "sha256:" + crypto.createHash("sha256").update(text, "utf8").digest("hex");
const size = (v) => Buffer.byteLength(JSON.stringify(v));
const code = (c) => (e) => e instanceof ToolnexusError && e.code === c;

/** A blob store over a Map that counts its calls: a store written by a user, with or without `has`. */
function counted(map = new Map(), { has = true } = {}) {
  const s = {
    map, puts: [], gets: 0, hasCalls: 0,
    get: async (key) => (s.gets++, map.get(key)),
    put: async (key, value) => void (s.puts.push(key), map.set(key, value)),
  };
  if (has) s.has = async (key) => (s.hasCalls++, map.has(key));
  return s;
}

/** A conversation store over memoryStore that records the bytes of each save. */
function recording() {
  const inner = memoryStore();
  const saves = [];
  return { saves, get: (id) => inner.get(id), delete: (id) => inner.delete(id), save: async (id, state) => { saves.push(size(state)); await inner.save(id, state); } };
}

// A model that takes a screenshot when the user asks (prompt "shot N"), reads a long log for "log",
// and otherwise answers with what it sees: the number of images in the transcript it was sent.
function model() {
  const steps = (body) => {
    const last = body.messages.at(-1);
    if (last.role === "user" && typeof last.content === "string") {
      const [word, n] = last.content.split(" ");
      if (word === "shot") return [["screenshot", { n: Number(n) }]];
      if (word === "log") return [["read_log", {}]];
      if (word === "click") return [["click", { selector: "#go" }]];
    }
    return null;
  };
  const bodies = [];
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    bodies.push(body);
    const calls = steps(body);
    const images = JSON.stringify(body.messages).split("data:image/png;base64,").length - 1;
    const message = calls
      ? { role: "assistant", content: null, tool_calls: calls.map(([name, args], i) => ({ id: `c${bodies.length}_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } })) }
      : { role: "assistant", content: `I see ${images} images` };
    return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: calls ? "tool_calls" : "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  };
  return { fetch, bodies, get calls() { return bodies.length; } };
}

const LOG = Array.from({ length: 400 }, (_, i) => `line ${i}: GET /item/${i} 200`).join("\n"); // ~10 KB
function toolkit(shots = new Map()) {
  return createToolkit({ tools: [
    defineTool({ name: "screenshot", description: "the tab", inputSchema: { type: "object", properties: { n: { type: "number" } } },
      run: async ({ n }) => {
        if (!shots.has(n)) shots.set(n, screenshot());
        return { output: `captured ${n}`, parts: [{ type: "image", data: shots.get(n), mediaType: "image/png" }] };
      } }),
    defineTool({ name: "read_log", description: "the server log", run: async () => LOG }),
    relayTool("click", "click in the tab", { type: "object", properties: { selector: { type: "string" } } }),
  ] });
}

test("packState keeps long strings out of line by the SHA-256 of their UTF-8 text, listed by JSON pointer", async () => {
  const blobs = counted();
  const big = "é".repeat(3000) + "🙂"; // multi-byte: the key is over UTF-8, not UTF-16
  const state = {
    schemaVersion: 2, revision: 3,
    messages: [{ role: "tool", content: big }, { role: "user", content: "short" }],
    "a/b~c": { [""]: big, edge: "y".repeat(DEFAULT_THRESHOLD - 1), at: "z".repeat(DEFAULT_THRESHOLD) },
  };
  const before = structuredClone(state);
  const packed = await packState(state, blobs);
  assert.deepEqual(state, before, "the input is not changed");
  assert.equal(await blobKey(big), sha(big));
  assert.deepEqual(packed.blobs, {
    "/messages/0/content": sha(big),
    "/a~1b~0c/": sha(big),
    "/a~1b~0c/at": sha("z".repeat(DEFAULT_THRESHOLD)),
  });
  assert.equal(packed.messages[0].content, sha(big));
  assert.equal(packed["a/b~c"].edge, before["a/b~c"].edge, "one character under the threshold stays");
  assert.deepEqual(Object.keys(packed), [...Object.keys(state), "blobs"], "key order kept, blobs last");
  assert.deepEqual(blobs.puts.sort(), [sha(big), sha("z".repeat(DEFAULT_THRESHOLD))].sort(), "one put per distinct text");
  assert.equal(blobs.map.get(sha(big)), big);
  assert.deepEqual(await unpackState(JSON.parse(JSON.stringify(packed)), blobs), before);
  // A lower threshold packs more; below 128 (or not whole) is refused.
  assert.equal((await packState(state, counted(), { threshold: 1000 })).blobs["/a~1b~0c/edge"], sha(before["a/b~c"].edge));
  for (const threshold of [0, 127, 2.5, "2048", NaN]) await assert.rejects(packState(state, counted(), { threshold }), code("bad_input"), String(threshold));
});

test("a string that looks like a key is data; a state without references (today's) comes back unchanged", async () => {
  const blobs = memoryBlobs();
  const big = "x".repeat(5000);
  const key = sha(big);
  const state = { revision: 1, messages: [{ role: "user", content: key }, { role: "tool", content: big }] };
  const packed = await packState(state, blobs);
  assert.deepEqual(packed.blobs, { "/messages/1/content": key });
  const back = await unpackState(packed, blobs);
  assert.equal(back.messages[0].content, key, "the user's text that equals a key is not replaced");
  assert.equal(back.messages[1].content, big);
  // Nothing long: the same object, no member; and an old state (no blobs member) is returned as is.
  const small = { revision: 1, messages: [{ role: "user", content: key }] };
  assert.equal(await packState(small, blobs), small);
  assert.equal(await unpackState(small, blobs), small);
  for (const v of [null, undefined, "text", [1, 2], 5]) assert.equal(await unpackState(v, blobs), v);
  // Strings with a lone surrogate have no UTF-8 form: kept inline.
  const lone = "\uD800" + "q".repeat(4000);
  assert.equal(await packState({ s: lone }, blobs).then((p) => p.s), lone);
});

test("packValue / unpackValue: any JSON value, always in an envelope", async () => {
  const blobs = counted();
  const big = "w".repeat(4096);
  for (const value of [big, [big, 1, null, { k: big }], { result: { text: big, n: 1 } }, "small", 42, null, []]) {
    const packed = JSON.parse(JSON.stringify(await packValue(value, blobs)));
    assert.deepEqual(Object.keys(packed).sort(), ["blobs", "value"]);
    assert.ok(size(packed) < 400, JSON.stringify(packed).slice(0, 80));
    assert.deepEqual(await unpackValue(packed, blobs), value);
  }
  assert.equal(blobs.puts.length, 1, "one text, one put, whatever the value");
  assert.deepEqual((await packValue(big, blobs)).blobs, { "": sha(big) }, "the root's pointer is the empty string");
  for (const bad of [big, { value: 1 }, null, [1]]) await assert.rejects(unpackValue(bad, blobs), code("bad_state"));
});

test("a missing or altered blob, an altered reference or map: bad_state", async () => {
  const blobs = counted();
  const big = "v".repeat(3000);
  const packed = await packState({ revision: 1, a: big, b: "short" }, blobs);
  const key = sha(big);
  const refuse = async (state, store, pattern) => {
    const e = await unpackState(state, store).then(() => null, (err) => err);
    assert.ok(code("bad_state")(e), `${JSON.stringify(state).slice(0, 120)}: ${e}`);
    assert.match(e.message, pattern);
  };
  await refuse(packed, counted(), /missing/);
  const altered = counted(new Map([[key, big.slice(1) + "V"]]));
  await refuse(packed, altered, /does not match its hash/);
  await refuse(packed, counted(new Map([[key, 42]])), /does not match its hash/);
  await refuse({ ...packed, a: "sha256:" + "0".repeat(64) }, blobs, /reference at \/a was altered/);
  await refuse({ ...packed, blobs: { "/c": key } }, blobs, /points at no reference/);
  await refuse({ ...packed, blobs: { "/a": key, "/b": key } }, blobs, /reference at \/b was altered/);
  for (const map of [[key], { "/a": "sha256:XYZ" }, "x", null, { "/a": 1 }]) await refuse({ ...packed, blobs: map }, blobs, /must map JSON pointers/);
  assert.deepEqual(await unpackState(packed, blobs), { revision: 1, a: big, b: "short" }, "the untouched one still loads");
});

test("a blob read back altered or missing is put again by the next save of its text, even where has() says it is there", async () => {
  const map = new Map();
  const puts = [];
  const blobs = { get: async (k) => map.get(k), put: async (k, v) => void (puts.push(k), map.set(k, v)), has: async (k) => map.has(k) };
  const big = "z".repeat(5000);
  const state = { revision: 1, a: big };
  const packed = await packState(state, blobs);
  const key = packed.a;
  assert.equal(puts.length, 1);
  await packState(state, blobs);
  assert.equal(puts.length, 1, "known: not put again");
  map.set(key, big.slice(1)); // corrupted in storage
  await assert.rejects(unpackState(packed, blobs), (e) => e.code === "bad_state" && /does not match its hash/.test(e.message));
  await packState(state, blobs);
  assert.equal(puts.length, 2, "the next save of the text puts it again");
  assert.deepEqual(await unpackState(packed, blobs), state, "and it reads back");
  map.delete(key); // lost from storage
  await assert.rejects(unpackState(packed, blobs), /is missing/);
  await packState(state, blobs);
  assert.equal(puts.length, 3);
  assert.deepEqual(await unpackState(packed, blobs), state);
  await packState(state, blobs);
  assert.equal(puts.length, 3, "known again once read back intact");
});

test("bad arguments are bad_input, a failing store is store", async () => {
  for (const b of [undefined, null, {}, { get() {} }, { get() {}, put() {}, has: 1 }]) {
    await assert.rejects(packState({}, b), code("bad_input"));
    await assert.rejects(unpackState({}, b), code("bad_input"));
    assert.throws(() => withBlobs(memoryStore(), b), code("bad_input"));
  }
  assert.throws(() => withBlobs({ get() {} }, memoryBlobs()), code("bad_input"));
  for (const s of [[1], "x", null]) await assert.rejects(packState(s, memoryBlobs()), code("bad_input"));
  await assert.rejects(packState({ blobs: {} }, memoryBlobs()), code("bad_input"), "already packed");
  const cyclic = { a: "x".repeat(3000) };
  cyclic.self = cyclic;
  await assert.rejects(packValue(cyclic, memoryBlobs()), code("bad_input"));
  for (const [f, arg] of [[kvBlobs, {}], [r2Blobs, { get() {}, put() {} }], [durableObjectBlobs, {}], [kvBlobs, undefined]]) assert.throws(() => f(arg), code("bad_input"), f.name);
  assert.throws(() => chromeStorageBlobs({ area: "sync" }), code("bad_input"));
  assert.throws(() => kvBlobs({ get() {}, put() {} }, { prefix: 1 }), code("bad_input"));
  const m = memoryBlobs();
  await assert.rejects(m.put("sha256:abc", "x"), code("bad_input"));
  await assert.rejects(m.put(sha("x"), 1), code("bad_input"));
  // A store that throws: store, with the cause kept; nothing half-packed comes back.
  const broken = { get: async () => { throw new Error("disk on fire"); }, put: async () => { throw new Error("disk on fire"); } };
  const e = await packState({ a: "x".repeat(3000) }, broken).then(() => null, (err) => err);
  assert.ok(code("store")(e), String(e));
  assert.match(e.message, /put failed: disk on fire/);
  assert.equal(e.cause.message, "disk on fire");
  const packed = await packState({ a: "x".repeat(3000) }, memoryBlobs());
  await assert.rejects(unpackState(packed, broken), code("store"));
  // A KV binding that fails inside a bundled store.
  const kv = kvBlobs({ get: async () => { throw new TypeError("network"); }, put: async () => {} });
  await assert.rejects(kv.get(sha("x")), (err) => code("store")(err) && /kvBlobs\.get failed: network/.test(err.message));
});

test("withBlobs in a conversation: screenshots and a long log out of line, the model still sees them", async () => {
  const blobs = counted();
  const inner = recording();
  const m = model();
  const client = createClient(opts(m, { store: withBlobs(inner, blobs) }));
  const kit = toolkit();
  for (const prompt of ["shot 1", "log", "shot 2", "what now?"]) await client.ask(prompt, { toolkit: kit, id: "tab" });
  assert.equal(m.bodies.at(-1).messages.at(-1).content, "what now?");
  // The model was sent both images and the log, read back from the blob store.
  const sent = JSON.stringify(m.bodies.at(-1).messages);
  assert.equal(sent.split("data:image/png;base64,iVBORw0KGg").length - 1, 2);
  assert.ok(sent.includes(JSON.stringify(LOG).slice(1, -1)));
  const stored = await inner.get("tab");
  assert.ok(size(stored) < 4000, `${size(stored)} B stored`);
  assert.deepEqual(Object.values(stored.blobs).length, 3);
  assert.ok(!JSON.stringify(stored).includes("iVBORw0KGg"));
  const full = await client.conversationStore().get("tab");
  assert.equal(full.blobs, undefined);
  assert.ok(size(full) > 270_000);
  assert.equal(blobs.puts.length, 3, "two screenshots and the log, each written once");
  assert.ok(inner.saves.every((n) => n < 4000), inner.saves.join(","));
});

test("ten ~100 KB screenshots: the stored state stays under 16 KB, each blob written once across checkpoints", async () => {
  const blobs = counted();
  const packedStore = recording();
  const plainStore = recording();
  const shots = new Map();
  const m = model();
  const withB = createClient(opts(m, { store: withBlobs(packedStore, blobs) }));
  const plain = createClient(opts(model(), { store: plainStore }));
  for (let n = 1; n <= 10; n++) {
    await withB.ask(`shot ${n}`, { toolkit: toolkit(shots), id: "c" });
    await plain.ask(`shot ${n}`, { toolkit: toolkit(shots), id: "c" });
  }
  // and the first screenshot again: the same bytes, no new blob
  await withB.ask("shot 1", { toolkit: toolkit(shots), id: "c" });
  const stored = await packedStore.get("c");
  assert.ok(size(stored) < 16 * 1024, `${size(stored)} B`);
  assert.ok(size(await plainStore.get("c")) > 10 * 136_000, "the plain state holds the screenshots");
  assert.equal(new Set(Object.values(stored.blobs)).size, 10);
  assert.equal(Object.keys(stored.blobs).length, 11);
  assert.deepEqual(blobs.puts.length, 10, "no blob written twice");
  assert.equal(new Set(blobs.puts).size, 10);
  // Each checkpoint wrote a small state; the plain store rewrote every screenshot each time.
  assert.ok(Math.max(...packedStore.saves) < 16 * 1024, packedStore.saves.join(","));
  assert.ok(Math.max(...plainStore.saves) > 10 * 136_000);
  // Known keys skip even `has`: this process put them.
  assert.equal(blobs.hasCalls, 10);
  assert.equal((await withB.conversationStore().get("c")).messages.filter((x) => Array.isArray(x.content)).length, 11);
});

test("across processes: a store with has() writes no blob twice; one without it rewrites the same bytes only", async () => {
  const map = new Map();
  const first = counted(map);
  const big = screenshot(20);
  await packState({ a: big }, first);
  assert.equal(first.puts.length, 1);
  // Another process: a new store object over the same data knows nothing, and asks.
  const second = counted(map);
  await packState({ a: big, b: big }, second);
  assert.deepEqual([second.puts.length, second.hasCalls], [0, 1]);
  // A blob read back is known: a save after a load neither asks nor writes.
  const third = counted(map);
  const loaded = await unpackState(await packState({ a: big }, counted(map)), third);
  await packState(loaded, third);
  assert.deepEqual([third.puts.length, third.hasCalls, third.gets], [0, 0, 1]);
  const noHas = counted(new Map(map), { has: false });
  await packState({ a: big }, noHas);
  await packState({ a: big }, noHas);
  assert.equal(noHas.puts.length, 1, "once per process, even without has()");
  // Concurrent packs of the same text share one put.
  const racing = counted();
  await Promise.all([packState({ a: big }, racing), packState({ b: big }, racing), packValue([big, big], racing)]);
  assert.equal(racing.puts.length, 1);
});

test("a halted run packed and unpacked resumes with runWithAnswer, signed or not", async () => {
  for (const secret of [undefined, SECRET]) {
    const blobs = memoryBlobs();
    const extra = secret ? { stateSecret: secret } : {};
    const m = model();
    const c1 = createClient(opts(m, extra));
    const kit = toolkit();
    // a screenshot, then a relay click in the same run: halted with the image in the transcript
    const shot = await c1.ask("shot 7", { toolkit: kit, id: "h" });
    assert.equal(shot.status, "done");
    const halted = await c1.run("click", { toolkit: kit, history: shot.messages });
    assert.equal(halted.status, "pending");
    const packed = JSON.parse(JSON.stringify(await packState(halted, blobs)));
    assert.ok(size(halted) > 136_000 && size(packed) < 6000, `${size(halted)} → ${size(packed)}`);
    if (secret) assert.equal(packed.signature, halted.signature, "the signature covers the whole state, kept as it is");
    const state = await unpackState(packed, blobs);
    assert.deepEqual(state, JSON.parse(JSON.stringify(halted)));
    const m2 = model();
    const answer = relayAnswer(state.pending.id, relayCallsOf(state.pending).map((call) => ({ id: call.id, output: "clicked" })));
    const done = await createClient(opts(m2, extra)).runWithAnswer({ toolkit: kit, state, answer });
    assert.equal(done.status, "done");
    assert.equal(done.text, "I see 1 images");
  }
});

test("stateSecret with withBlobs: a signed, packed conversation round-trips; a tampered blob or reference is refused", async () => {
  const map = new Map();
  const inner = memoryStore();
  const client = (m) => createClient(opts(m, { stateSecret: SECRET, store: withBlobs(inner, counted(map)) }));
  const kit = toolkit();
  await client(model()).ask("shot 1", { toolkit: kit, id: "s" });
  await client(model()).ask("log", { toolkit: kit, id: "s" });
  const stored = await inner.get("s");
  assert.match(stored.signature, /^[A-Za-z0-9+/]{43}=$/);
  assert.equal(Object.keys(stored.blobs).length, 2);
  // A new client (a new process) continues: the state is unpacked, then verified.
  const m = model();
  assert.equal((await client(m).ask("what now?", { toolkit: kit, id: "s" })).text, "I see 1 images");
  const good = structuredClone(await inner.get("s"));
  const refused = async (pattern) => {
    const m2 = model();
    const e = await client(m2).ask("again?", { toolkit: kit, id: "s" }).then(() => null, (err) => err);
    assert.ok(code("bad_state")(e), String(e));
    assert.match(e.message, pattern);
    assert.equal(m2.calls, 0, "no provider call");
  };
  // The screenshot's bytes changed in the blob store.
  const [imgPtr, imgKey] = Object.entries(good.blobs).find(([p]) => p.includes("image_url"));
  const original = map.get(imgKey);
  map.set(imgKey, original.slice(0, 100) + (original[100] === "A" ? "B" : "A") + original.slice(101));
  await refused(/does not match its hash/);
  map.set(imgKey, original);
  // A blob swapped for other content under its own correct key: the hashes hold, the signature does not.
  const [logPtr, logKey] = Object.entries(good.blobs).find(([p]) => p !== imgPtr);
  const forged = structuredClone(good);
  const other = "data:image/png;base64," + screenshot(5);
  const otherKey = sha(other);
  map.set(otherKey, other);
  forged.blobs[imgPtr] = otherKey;
  forged.messages[Number(imgPtr.split("/")[2])].content[0].image_url.url = otherKey;
  await inner.delete("s");
  await inner.save("s", forged);
  await refused(/wrong signature/);
  // Two references swapped: each blob matches its key, the state is not the one signed.
  const swapped = structuredClone(good);
  swapped.blobs[imgPtr] = logKey;
  swapped.blobs[logPtr] = imgKey;
  const at = (s, p) => p.split("/").slice(1).reduce((o, k) => o[k], s);
  const setAt = (s, p, v) => { const ks = p.split("/").slice(1); ks.slice(0, -1).reduce((o, k) => o[k], s)[ks.at(-1)] = v; };
  setAt(swapped, imgPtr, at(good, logPtr));
  setAt(swapped, logPtr, at(good, imgPtr));
  await inner.delete("s");
  await inner.save("s", swapped);
  await refused(/wrong signature/);
  // Put back as it was: it loads again.
  await inner.delete("s");
  await inner.save("s", good);
  assert.equal((await client(model()).ask("what now?", { toolkit: kit, id: "s" })).status, "done");
});

test("a conversation stored before blobs continues through withBlobs and is packed at its next save", async () => {
  const inner = memoryStore();
  const kit = toolkit();
  await createClient(opts(model(), { store: inner })).ask("shot 3", { toolkit: kit, id: "old" });
  const old = await inner.get("old");
  assert.equal(old.blobs, undefined);
  assert.ok(size(old) > 136_000);
  const blobs = memoryBlobs();
  const store = withBlobs(inner, blobs);
  assert.deepEqual(await store.get("old"), old, "read unchanged");
  const r = await createClient(opts(model(), { store })).ask("what now?", { toolkit: kit, id: "old" });
  assert.equal(r.text, "I see 1 images");
  const now = await inner.get("old");
  assert.equal(now.revision, old.revision + 1);
  assert.ok(size(now) < 3000 && Object.keys(now.blobs).length === 1);
  assert.equal(await store.get("missing"), undefined);
  await store.delete("old");
  assert.equal(await inner.get("old"), undefined);
});

test("chromeStorageBlobs over chrome.storage (looked up per call), beside chromeStorageStore in one area", async (t) => {
  const areas = { local: new Map(), session: new Map() };
  const area = (m) => ({
    get: async (k) => (m.has(k) ? { [k]: structuredClone(m.get(k)) } : {}),
    set: async (o) => { for (const [k, v] of Object.entries(o)) m.set(k, structuredClone(v)); },
    remove: async (k) => void m.delete(k),
  });
  const blobs = chromeStorageBlobs();
  const session = chromeStorageBlobs({ area: "session", prefix: "b/" });
  // Made before chrome exists; used once it does.
  await assert.rejects(blobs.get(sha("x")), code("store"));
  globalThis.chrome = { storage: { local: area(areas.local), session: area(areas.session) } };
  t.after(() => delete globalThis.chrome);
  const client = createClient(opts(model(), { store: withBlobs(chromeStorageStore(), blobs) }));
  await client.ask("shot 1", { toolkit: toolkit(), id: "tab-1" });
  const keys = [...areas.local.keys()].sort();
  assert.equal(keys.length, 2);
  assert.equal(keys[0], "toolnexus-blob:" + Object.values(areas.local.get("toolnexus:tab-1").blobs)[0]);
  assert.equal(keys[1], "toolnexus:tab-1");
  assert.ok(size(areas.local.get("toolnexus:tab-1")) < 3000);
  assert.equal((await client.ask("what now?", { toolkit: toolkit(), id: "tab-1" })).text, "I see 1 images");
  // The session area with its own prefix; has() answers from the area.
  const key = sha("s".repeat(3000));
  assert.equal(await session.has(key), false);
  await packValue("s".repeat(3000), session);
  assert.deepEqual([...areas.session.keys()], ["b/" + key]);
  assert.equal(await session.has(key), true);
  assert.equal(await session.get(key), "s".repeat(3000));
});
