// @ts-check
// `toolnexus-wasm/blobs`: durable state that stays small. Every long string of a state (image
// bytes, a long tool output) goes to a blob store under the SHA-256 of its text and is replaced in
// place by that key; a top-level `blobs` member maps each replaced string's JSON pointer to its
// key, so only those places are read back (a user string that merely looks like a key is data).
// Plain JS over WebCrypto, with no wasm of its own and outside the default entry: only hosts that
// keep large states load it. See docs/decisions/state.md, "Durable state that stays small".
// The package's one error helper; scripts/build.sh points this import at the edge's snippet.
import { ToolnexusError, fail } from "./host.js";

/** The length (in JS characters) from which a string is kept out of line, unless told otherwise. */
export const DEFAULT_THRESHOLD = 2048;
// A key is 71 characters: a threshold above it leaves a packed state as it is when packed again.
const MIN_THRESHOLD = 128;
const KEY = /^sha256:[0-9a-f]{64}$/;
// A lone surrogate has no UTF-8 form (TextEncoder writes U+FFFD): such a string stays inline, so
// that two different strings never share a key and every blob comes back as it went.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UTF8 = new TextEncoder();

/** `sha256:` and the hex SHA-256 of the text's UTF-8 bytes: the key a blob is stored under. */
export async function blobKey(text) {
  if (typeof text !== "string") throw fail("bad_input", "blobKey: the text must be a string");
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw fail("bad_input", "toolnexus-wasm/blobs needs WebCrypto (crypto.subtle)");
  const digest = new Uint8Array(await subtle.digest("SHA-256", UTF8.encode(text)));
  return "sha256:" + Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- the keys this process put or saw, per store -------------------------------------------------

// Keyed by what holds the blobs (a KV namespace, a bucket, a DO's storage and the prefix), not by
// the store object: a Worker makes a new `kvBlobs(env.KV)` per request, over the same binding.
// A bundled store names its backing as [SCOPE]; any other store is its own scope.
const SCOPE = Symbol("toolnexus.blobScope");
const scopes = new WeakMap();
// Bounded (oldest forgotten first): a forgotten key costs one `has` or one rewrite, never a loss.
const KNOWN_MAX = 10_000;

function knownOf(blobs) {
  let scope;
  try {
    scope = blobs[SCOPE];
  } catch {} // a Proxy that throws: its own scope
  const [backing, sub] = Array.isArray(scope) ? scope : [blobs, ""];
  let bySub = scopes.get(backing);
  if (!bySub) scopes.set(backing, (bySub = new Map()));
  let known = bySub.get(sub);
  if (!known) bySub.set(sub, (known = new Map()));
  return known;
}

// What `known` holds for a key whose stored blob was read back altered or missing: the next pack
// of that text puts it again (see `unpack`).
const ALTERED = Symbol("toolnexus.blobAltered");
function remember(known, key, value) {
  known.delete(key);
  known.set(key, value);
  if (known.size > KNOWN_MAX) known.delete(known.keys().next().value);
}

// A store's call, its failure a `store` error (a ToolnexusError it threw is passed on as it is).
async function storeCall(what, f) {
  try {
    return await f();
  } catch (e) {
    if (ToolnexusError.is(e)) throw e;
    throw fail("store", `blob store: ${what} failed: ${e?.message ?? String(e)}`, { cause: e });
  }
}

function checkBlobs(blobs, who) {
  let ok;
  try {
    ok = typeof blobs?.get === "function" && typeof blobs.put === "function" && (blobs.has === undefined || typeof blobs.has === "function");
  } catch {} // a revoked Proxy, a throwing getter
  if (!ok) throw fail("bad_input", `${who}: a blob store has async get(key) and put(key, value) (and may have has(key))`);
}

function thresholdOf(options, who) {
  let threshold;
  try {
    ({ threshold = DEFAULT_THRESHOLD } = options ?? {});
  } catch {}
  if (!Number.isInteger(threshold) || threshold < MIN_THRESHOLD) {
    throw fail("bad_input", `${who}: threshold must be a whole number of characters, at least ${MIN_THRESHOLD}`);
  }
  return threshold;
}

// Puts `text` under `key` unless this process already put or saw it there, or the store has it.
// Concurrent packs of one string share one put; a failed put is forgotten, so it is tried again.
function ensure(blobs, known, key, text) {
  const had = known.get(key);
  if (had && had !== ALTERED) return had;
  const done = (async () => {
    // A blob this process found altered is put again without asking `has` (which would say yes).
    if (had !== ALTERED && blobs.has && (await storeCall("has", () => blobs.has(key))) === true) return;
    await storeCall("put", () => blobs.put(key, text));
  })();
  remember(known, key, done);
  done.catch(() => known.get(key) === done && known.delete(key));
  return done;
}

// --- walking a JSON value ------------------------------------------------------------------------

const isPlain = (v) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const pointer = (path) => path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");

// A copy of `v` with each string replaced by `visit(string, path)`; arrays and plain objects are
// copied (own enumerable keys in their order, `__proto__` included as data), anything else kept.
function walk(v, path, visit) {
  if (typeof v === "string") return visit(v, path);
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    return v.map((x, i) => {
      path.push(i);
      const r = walk(x, path, visit);
      path.pop();
      return r;
    });
  }
  if (!isPlain(v)) return v;
  return Object.fromEntries(Object.keys(v).map((k) => {
    path.push(k);
    const r = walk(v[k], path, visit);
    path.pop();
    return [k, r];
  }));
}

// Every string of `v`, as walk() visits them, without copying.
function scan(v, visit) {
  if (typeof v === "string") return visit(v);
  if (v === null || typeof v !== "object") return;
  if (Array.isArray(v)) for (const x of v) scan(x, visit);
  else if (isPlain(v)) for (const k of Object.keys(v)) scan(v[k], visit);
}

// walk() or scan() (without a path); a cycle (too much recursion), a throwing getter: bad_input.
function walked(value, visit, who, path = []) {
  try {
    return path ? walk(value, path, visit) : scan(value, visit);
  } catch (e) {
    if (ToolnexusError.is(e)) throw e;
    throw fail("bad_input", `${who}: the value must be JSON data (${e?.message ?? e})`, { cause: e });
  }
}

const long = (s, threshold) => s.length >= threshold && !LONE.test(s);

// `{ value, refs }`: `value` with every long string put in `blobs` and replaced by its key.
async function pack(value, blobs, threshold, who) {
  const texts = new Map(); // text → key, once per distinct text
  walked(value, (s) => long(s, threshold) && texts.set(s, ""), who, null);
  if (texts.size === 0) return { value, refs: {} };
  const known = knownOf(blobs);
  await Promise.all([...texts.keys()].map(async (t) => {
    const key = await blobKey(t);
    texts.set(t, key);
    await ensure(blobs, known, key, t);
  }));
  // Every blob is stored before the state that names it is handed back to be saved.
  const refs = {};
  const out = walked(value, (s, path) => {
    if (!long(s, threshold)) return s;
    const key = texts.get(s);
    refs[pointer(path)] = key;
    return key;
  }, who);
  return { value: out, refs };
}

// `value` with the blob of each reference in `refs` back in place, each checked against its key.
async function unpack(value, refs, blobs, what) {
  let entries;
  try {
    if (refs !== null && typeof refs === "object" && !Array.isArray(refs)) entries = Object.entries(refs);
  } catch {}
  if (!entries || !entries.every(([, k]) => typeof k === "string" && KEY.test(k))) {
    throw fail("bad_state", `${what}: its blobs member must map JSON pointers to sha256: keys`);
  }
  if (entries.length === 0) return value;
  const known = knownOf(blobs);
  const texts = new Map();
  await Promise.all([...new Set(entries.map(([, k]) => k))].map(async (key) => {
    const text = await storeCall("get", () => blobs.get(key));
    if (text === undefined || text === null) {
      remember(known, key, ALTERED);
      throw fail("bad_state", `${what}: blob ${key} is missing from the blob store`);
    }
    if (typeof text !== "string" || (await blobKey(text)) !== key) {
      remember(known, key, ALTERED);
      throw fail("bad_state", `${what}: blob ${key} does not match its hash (altered)`);
    }
    texts.set(key, text);
    if (!known.has(key) || known.get(key) === ALTERED) remember(known, key, Promise.resolve());
  }));
  const map = new Map(entries);
  let used = 0;
  const out = walked(value, (s, path) => {
    const at = pointer(path);
    const key = map.get(at);
    if (key === undefined) return s;
    if (s !== key) throw fail("bad_state", `${what}: the reference at ${at || "the root"} was altered`);
    used++;
    return texts.get(key);
  }, what);
  if (used !== map.size) throw fail("bad_state", `${what}: a blob reference points at no reference in the value`);
  return out;
}

// --- packing states and values ------------------------------------------------------------------

const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `packState(state, blobs, { threshold })`: a copy of `state` (a conversation state, a halted
 * result) whose strings of `threshold` characters or more are in `blobs`, each replaced by its
 * `sha256:` key, with `blobs: { "<JSON pointer>": key }` added. A state with no such string comes
 * back as it is, with no `blobs` member. Each blob is stored before this resolves.
 */
export async function packState(state, blobs, options) {
  checkBlobs(blobs, "packState");
  const threshold = thresholdOf(options, "packState");
  if (!isRecord(state)) throw fail("bad_input", "packState: a state is a JSON object");
  if (Object.hasOwn(state, "blobs")) throw fail("bad_input", "packState: the state already has a blobs member (packed twice?)");
  const { value, refs } = await pack(state, blobs, threshold, "packState");
  return Object.keys(refs).length === 0 ? state : { ...value, blobs: refs };
}

/**
 * `unpackState(state, blobs)`: the state with every referenced blob back in place and its `blobs`
 * member gone; each blob is checked against its key (missing or altered: `bad_state`). A state
 * without a `blobs` member (one never packed) comes back as it is.
 */
export async function unpackState(state, blobs) {
  checkBlobs(blobs, "unpackState");
  if (!isRecord(state) || !Object.hasOwn(state, "blobs")) return state;
  const { blobs: refs, ...rest } = state;
  return unpack(rest, refs, blobs, "the state");
}

/**
 * `packValue(value, blobs, { threshold })` → `{ value, blobs }`: any JSON value (a string, an
 * array, a Workflow step's result) packed as `packState` packs a state, always in this envelope
 * (`blobs` may be `{}`), so `unpackValue` never has to guess.
 */
export async function packValue(value, blobs, options) {
  checkBlobs(blobs, "packValue");
  const threshold = thresholdOf(options, "packValue");
  const { value: packed, refs } = await pack(value, blobs, threshold, "packValue");
  return { value: packed, blobs: refs };
}

/** `unpackValue(packed, blobs)`: the value `packValue` packed; not such an envelope: `bad_state`. */
export async function unpackValue(packed, blobs) {
  checkBlobs(blobs, "unpackValue");
  if (!isRecord(packed) || !Object.hasOwn(packed, "blobs")) throw fail("bad_state", "unpackValue: not a packed value ({ value, blobs })");
  return unpack(packed.value, packed.blobs, blobs, "the packed value");
}

/**
 * `withBlobs(store, blobs, { threshold })`: a conversation store that packs each state it saves
 * into `store` and unpacks each it reads. Blobs are shared by content across conversations, so
 * `delete` leaves them (see docs/decisions/state.md).
 */
export function withBlobs(store, blobs, options) {
  let ok;
  try {
    ok = ["get", "save", "delete"].every((m) => typeof store[m] === "function");
  } catch {}
  if (!ok) throw fail("bad_input", "withBlobs: a conversation store has async get(id), save(id, state) and delete(id)");
  checkBlobs(blobs, "withBlobs");
  const threshold = thresholdOf(options, "withBlobs");
  return {
    async get(id) {
      const state = await store.get(id);
      return state == null ? state : unpackState(state, blobs);
    },
    async save(id, state) {
      await store.save(id, await packState(state, blobs, { threshold }));
    },
    delete: (id) => store.delete(id),
  };
}

// --- the stores ----------------------------------------------------------------------------------

// A bundled store: keys checked, values strings, failures `store` errors; `backing` and `sub` name
// where its blobs live (see knownOf).
function blobStore(name, backing, sub, impl) {
  const method = (op) => async (key, value) => {
    if (typeof key !== "string" || !KEY.test(key)) throw fail("bad_input", `${name}.${op}: a key is "sha256:" and 64 lowercase hex digits`);
    if (op === "put" && typeof value !== "string") throw fail("bad_input", `${name}.put: a blob is a string`);
    return storeCall(`${name}.${op}`, () => impl[op](key, value));
  };
  return { get: method("get"), put: method("put"), has: method("has"), [SCOPE]: [backing, sub] };
}

function prefixOf(options, who) {
  let prefix;
  try {
    ({ prefix = "toolnexus-blob:" } = options ?? {});
  } catch {}
  if (typeof prefix !== "string") throw fail("bad_input", `${who}: prefix must be a string`);
  return prefix;
}

function hasMethods(x, methods) {
  try {
    return methods.every((m) => typeof x?.[m] === "function");
  } catch {
    return false;
  }
}

/** Blobs in this JS realm's memory: for tests, and for a process that keeps its states in memory too. */
export function memoryBlobs() {
  const map = new Map();
  return blobStore("memoryBlobs", map, "", {
    get: async (key) => map.get(key),
    put: async (key, value) => void map.set(key, value),
    has: async (key) => map.has(key),
  });
}

const CHROME_AREAS = { local: {}, session: {} };

/**
 * chrome.storage.local (default) or .session, looked up at each call (so the store can be made
 * anywhere and used in any extension context). Keys are `prefix + key`; the default prefix
 * (`toolnexus-blob:`) never meets chromeStorageStore's keys (`toolnexus:` + id).
 */
export function chromeStorageBlobs(options) {
  let area;
  try {
    ({ area = "local" } = options ?? {});
  } catch {}
  if (area !== "local" && area !== "session") throw fail("bad_input", 'chromeStorageBlobs: area must be "local" or "session"');
  const prefix = prefixOf(options, "chromeStorageBlobs");
  const storage = () => {
    const s = globalThis.chrome?.storage?.[area];
    if (!s) throw fail("store", `chrome.storage.${area} is not available here (an MV3 extension context with the "storage" permission is needed)`);
    return s;
  };
  const read = async (key) => (await storage().get(prefix + key))[prefix + key];
  return blobStore("chromeStorageBlobs", CHROME_AREAS[area], prefix, {
    get: read,
    put: (key, value) => storage().set({ [prefix + key]: value }),
    has: async (key) => (await read(key)) !== undefined,
  });
}

/**
 * A Workers KV namespace binding. The default prefix (`toolnexus-blob:`) never meets kvStore's
 * keys, so one namespace can hold both. A value is at most 25 MiB.
 */
export function kvBlobs(namespace, options) {
  if (!hasMethods(namespace, ["get", "put"])) throw fail("bad_input", "kvBlobs needs a KV namespace binding (get, put)");
  const prefix = prefixOf(options, "kvBlobs");
  return blobStore("kvBlobs", namespace, prefix, {
    get: async (key) => (await namespace.get(prefix + key)) ?? undefined,
    put: (key, value) => namespace.put(prefix + key, value),
    // KV has no HEAD: a stream that is cancelled unread is a read without the download.
    has: async (key) => {
      const body = await namespace.get(prefix + key, { type: "stream" });
      await body?.cancel?.();
      return body != null;
    },
  });
}

/** An R2 bucket binding; objects are `prefix + key`, text. */
export function r2Blobs(bucket, options) {
  if (!hasMethods(bucket, ["get", "put", "head"])) throw fail("bad_input", "r2Blobs needs an R2 bucket binding (get, put, head)");
  const prefix = prefixOf(options, "r2Blobs");
  return blobStore("r2Blobs", bucket, prefix, {
    get: async (key) => {
      const object = await bucket.get(prefix + key);
      return object ? object.text() : undefined;
    },
    put: async (key, value) => void (await bucket.put(prefix + key, value, { httpMetadata: { contentType: "text/plain; charset=utf-8" } })),
    has: async (key) => (await bucket.head(prefix + key)) != null,
  });
}

// A value of a Durable Object's KV-backed storage is at most 128 KiB (131,072 B). A string is
// stored as one or two bytes a character, so 60,000 characters (at most 120,000 B) always fit.
const CHUNK = 60_000;
// At most 128 keys per storage.get / storage.put call.
const BATCH = 128;

function chunksOf(text) {
  const parts = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + CHUNK, text.length);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}

function batches(list) {
  const out = [];
  for (let i = 0; i < list.length; i += BATCH) out.push(list.slice(i, i + BATCH));
  return out;
}

// Blobs in a DurableObjectStorage: a short one as one value; a long one as chunks under
// `<key>#<i>`, written first, then `{ chunks: n }` under the key, so a reader that finds the key
// finds every chunk.
function storageBlobs(storage, prefix) {
  return blobStore("durableObjectBlobs", storage, prefix, {
    async get(key) {
      const head = await storage.get(prefix + key);
      if (head === undefined || typeof head === "string") return head;
      const n = head?.chunks;
      if (!Number.isInteger(n) || n < 1) return undefined;
      const names = Array.from({ length: n }, (_, i) => `${prefix}${key}#${i}`);
      const parts = [];
      for (const batch of batches(names)) {
        const got = await storage.get(batch);
        for (const name of batch) parts.push(got.get(name));
      }
      // A missing chunk leaves a text that does not match its key: refused by the reader.
      return parts.every((p) => typeof p === "string") ? parts.join("") : undefined;
    },
    async put(key, value) {
      if (value.length <= CHUNK) return void (await storage.put(prefix + key, value));
      const parts = chunksOf(value);
      for (const batch of batches(parts.map((p, i) => [`${prefix}${key}#${i}`, p]))) await storage.put(Object.fromEntries(batch));
      await storage.put(prefix + key, { chunks: parts.length });
    },
    has: async (key) => (await storage.get(prefix + key)) !== undefined,
  });
}

// Blobs in a namespace whose class is BlobObject: one object per blob, named by its key.
function namespaceBlobs(namespace) {
  const call = async (op, key, value) => {
    const stub = namespace.get(namespace.idFromName(key));
    const res = await stub.fetch("https://blob/", { method: "POST", body: JSON.stringify({ op, key, value }) });
    const body = await res.json();
    if (body.error) throw fail("store", `BlobObject: ${body.error.message}`);
    return body;
  };
  return blobStore("durableObjectBlobs", namespace, "", {
    get: async (key) => (await call("get", key)).value ?? undefined,
    put: async (key, value) => void (await call("put", key, value)),
    has: async (key) => (await call("has", key)).has === true,
  });
}

/**
 * Durable Object storage: either a `DurableObjectStorage` (`ctx.storage` inside your own Durable
 * Object; keys `prefix + key`, long values in chunks under 128 KiB each), or a Durable Object
 * namespace binding whose class is `BlobObject` (export it from your Worker: `export { BlobObject }
 * from "toolnexus-wasm/blobs"`), one object per blob.
 */
export function durableObjectBlobs(storageOrNamespace, options) {
  if (hasMethods(storageOrNamespace, ["idFromName", "get"])) return namespaceBlobs(storageOrNamespace);
  if (hasMethods(storageOrNamespace, ["get", "put", "delete"])) return storageBlobs(storageOrNamespace, prefixOf(options, "durableObjectBlobs"));
  throw fail("bad_input", "durableObjectBlobs needs a DurableObjectStorage (ctx.storage) or a Durable Object namespace binding whose class is BlobObject");
}

/** The Durable Object class behind `durableObjectBlobs(namespace)`: one blob per object. */
export class BlobObject {
  constructor(ctx) {
    this.blobs = storageBlobs(ctx.storage, "");
  }

  async fetch(request) {
    try {
      const { op, key, value } = await request.json();
      if (op === "get") return Response.json({ value: (await this.blobs.get(key)) ?? null });
      if (op === "has") return Response.json({ has: await this.blobs.has(key) });
      if (op === "put") {
        await this.blobs.put(key, value);
        return Response.json({});
      }
      return Response.json({ error: { code: "bad_input", message: `unknown op ${op}` } }, { status: 400 });
    } catch (e) {
      return Response.json({ error: { code: e?.code ?? "store", message: e?.message ?? String(e) } }, { status: 500 });
    }
  }
}
