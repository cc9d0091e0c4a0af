// @ts-check
// The conversation stores over host storage: `memoryStore` (the default), `chromeStorageStore`
// (MV3 extensions) and `kvStore` (Workers KV); `durableObjectStore` is durable-object-store.js's.
// A store is any object with async get(id), save(id, state) and delete(id); `state` is plain,
// versioned JSON (ConversationState) with a `revision` that each save raises by one. A store that
// can check refuses a save that is not one past what it holds with a `conflict` error, so two
// writers never overwrite each other. The revision rule itself is the core's (`checkRevision`,
// from the wasm glue); each store here only makes its read-check-write atomic. It runs at save
// time, after the entry has initialised the module.

// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { fail } from "./host.js";
import { isLoaded, whenLoaded } from "./loader.js";
import { checkRevision } from "./api.js";

// A conversation id, checked before it is used as a key.
export function idOf(id) {
  if (typeof id !== "string") throw fail("bad_input", "a conversation id must be a string");
  return id;
}

/**
 * The default store: conversations in this JS realm's memory, kept as JSON text so that no
 * caller can change a stored state by mutating an object it gave or got.
 */
export function memoryStore() {
  const docs = new Map();
  return {
    async get(id) {
      const text = docs.get(idOf(id));
      return text === undefined ? undefined : JSON.parse(text);
    },
    async save(id, state) {
      idOf(id);
      let text;
      try {
        text = JSON.stringify(state);
      } catch {}
      if (typeof text !== "string") throw fail("bad_input", "a conversation state must be JSON data");
      if (!isLoaded()) await whenLoaded(); // the revision rule is the core's (a store made at a service worker's top level)
      checkRevision(docs.has(id) ? JSON.parse(docs.get(id)) : undefined, state);
      docs.set(id, text);
    },
    async delete(id) {
      docs.delete(idOf(id));
    },
  };
}

/**
 * chrome.storage.local (default) or .session, for MV3 extensions. Keys are `prefix + id`.
 * chrome.storage is looked up at each call, so the store can be made anywhere and used in any
 * extension context (service worker, side panel, offscreen document). Saves are read-check-write
 * under a Web Lock per conversation (`navigator.locks`, shared by all of the extension's
 * contexts), so the service worker and a page cannot both resume one halted run: the second
 * save gets `conflict`.
 */
export function chromeStorageStore(options) {
  let area, prefix;
  try {
    ({ area = "local", prefix = "toolnexus:" } = options ?? {});
  } catch {} // a revoked Proxy, a throwing getter: refused below
  if (typeof prefix !== "string" || (area !== "local" && area !== "session")) {
    throw fail("bad_input", 'chromeStorageStore: area must be "local" or "session", prefix a string');
  }
  const storage = () => {
    const s = globalThis.chrome?.storage?.[area];
    if (!s) throw fail("store", `chrome.storage.${area} is not available here (an MV3 extension context with the "storage" permission is needed)`);
    return s;
  };
  return {
    async get(id) {
      const key = prefix + idOf(id);
      return (await storage().get(key))[key];
    },
    async save(id, state) {
      const key = prefix + idOf(id);
      const write = async () => {
        if (!isLoaded()) await whenLoaded();
        checkRevision((await storage().get(key))[key], state);
        await storage().set({ [key]: state });
      };
      const locks = globalThis.navigator?.locks;
      await (locks ? locks.request(`toolnexus:${key}`, write) : inTurn(chromeTurns, key, write));
    },
    async delete(id) {
      await storage().remove(prefix + idOf(id));
    },
  };
}

/**
 * A Workers KV namespace binding. KV is eventually consistent across locations and has no
 * compare-and-set: the store reads the stored revision back before each write and refuses a
 * stale one (`conflict`), its saves of one id taking turns within the isolate, which catches
 * sequential misuse and two writers in one isolate but not two isolates racing in the same
 * instant. Right for one conversation driven by one client at a time; for concurrent writers use
 * a Durable Object. `expirationTtl` (seconds, at least 60) is renewed on every save.
 */
export function kvStore(namespace, options) {
  let prefix, expirationTtl, ok;
  try {
    ({ prefix = "toolnexus:", expirationTtl } = options ?? {});
    ok = typeof prefix === "string" && ["get", "put", "delete"].every((m) => typeof namespace[m] === "function");
  } catch {} // a revoked Proxy, a throwing getter: refused below
  if (!ok) throw fail("bad_input", "kvStore needs a KV namespace binding (get, put, delete) and a string prefix");
  if (expirationTtl !== undefined && !(typeof expirationTtl === "number" && expirationTtl >= 60)) {
    throw fail("bad_input", "kvStore: expirationTtl must be a number of seconds, at least 60");
  }
  return {
    async get(id) {
      return (await namespace.get(prefix + idOf(id), "json")) ?? undefined;
    },
    // In turn per key within this isolate: two resumes served by one isolate then cannot both
    // pass the check (the second's claim gets `conflict`); across isolates KV cannot say.
    async save(id, state) {
      const key = prefix + idOf(id);
      await inTurn(kvTurns, key, async () => {
        if (!isLoaded()) await whenLoaded();
        checkRevision(await namespace.get(key, "json"), state);
        await namespace.put(key, JSON.stringify(state), expirationTtl ? { expirationTtl } : undefined);
      });
    },
    async delete(id) {
      await namespace.delete(prefix + idOf(id));
    },
  };
}

// Runs `work` once every earlier `work` of the same key (in `turns`) has settled: a
// read-check-write made atomic within this JS realm, for storage that has no lock of its own.
function inTurn(turns, key, work) {
  const run = (turns.get(key) ?? Promise.resolve()).then(work);
  const tail = run.then(() => {}, () => {});
  turns.set(key, tail);
  tail.then(() => turns.get(key) === tail && turns.delete(key));
  return run;
}

// The turns of chromeStorageStore's saves where there is no navigator.locks (one context's saves
// only), and of kvStore's within an isolate: shared by every store made here, since a Worker
// makes a new kvStore(env.KV) per request over the same binding.
const chromeTurns = new Map();
const kvTurns = new Map();
