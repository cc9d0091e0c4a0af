// @ts-check
// The parts of the API written in JS, each beside what it needs from the wasm glue:
// `createClient` (the wasm client with its default `memoryStore()`), `Toolkit` / `createToolkit`,
// and the conversation stores over host storage. A store is any object with async get(id),
// save(id, state) and delete(id); `state` is plain, versioned JSON (ConversationState) with a
// `revision` that each save raises by one. A store that can check refuses a save that is not one
// past what it holds with a `conflict` error, so two writers never overwrite each other.
// The revision rule itself is the core's (`checkRevision`, from the wasm glue); each store here
// only makes its read-check-write atomic. It runs at save time, after the entry has initialised
// the module.

import { Client, createClient as createWith, op } from "./toolnexus_wasm.js";
// The error class lives in a snippet of the wasm edge, which constructs it; scripts/build.sh
// points this import at that snippet (its path holds a hash wasm-bindgen chooses).
import { ToolnexusError, EventStream, fail, gate, kitId, runResult } from "./host.js";
import { isLoaded, whenLoaded, LATER } from "./loader.js";

export { ToolnexusError, Client };

/** `Request.kind` of a relay tool call (the core's `RELAY_KIND`; a native test checks they agree). */
export const RELAY_KIND = "tool_call";

// The functions that hold no state, each one kind of the wasm's `op`, in the order of `FnOp`
// (src/ops.rs, which a native test checks this list against); `declareTool` is `defineTool` before Standard Schemas are read here.
const [pending, authRequired, isRelayRequest, relayCallsOf, answerOf, checkRevision, declareTool, declareRelay, toolkitId, dropToolkit] = Array.from(
  { length: 10 },
  (_, kind) => (a, b, c) => op(kind, a, b, c),
);
export { pending, authRequired, isRelayRequest, relayCallsOf, checkRevision, toolkitId, dropToolkit };

// Before the wasm module loads (the browser entry loads it on first use: a service worker that
// just woke may get its event first), a declaration is plain data: what it will be, with a
// `LATER` function that makes it as it would have been made after the load, checked. A toolkit
// calls that when a run first needs its tools, so a refusal surfaces there, with the same message.
function deferred(shown, make) {
  let o = {};
  try {
    o = { ...shown };
  } catch {} // a hostile object: `make` refuses it when the toolkit binds
  Object.defineProperty(o, LATER, { value: make });
  return o;
}

/** `relayTool(name, description?, schema?)`: a declaration-only tool whose calls go to the host. */
export function relayTool(name, description, schema) {
  const make = () => declareRelay(name, description, schema);
  return isLoaded() ? make() : deferred({ name, description, inputSchema: schema, source: "relay" }, make);
}

/**
 * `relayAnswer(requestId, results)`: the answer to a relay request. Before the module loads it
 * is the Answer as data, which the run reads and checks where it is used, as it does an Answer
 * written by hand.
 */
export function relayAnswer(requestId, results) {
  return isLoaded() ? answerOf(requestId, results) : { id: requestId, ok: true, data: { results } };
}

/**
 * `createClient(options)`: conversations are kept in a fresh `memoryStore()` unless `store` is
 * given. With `stateSecret`, halted results and stored states are signed (see `signer`): the
 * secret is taken out here, so the wasm never sees it, and the store is wrapped to sign what it
 * saves and verify what it reads.
 */
export function createClient(options) {
  let secret, store, has;
  try {
    has = "stateSecret" in options;
    ({ stateSecret: secret, store } = options);
  } catch {} // not an object, a revoked Proxy: the wasm refuses it
  let sig, make;
  if (has) {
    sig = signer(secret);
    store ??= memoryStore();
    const ok = ["get", "save", "delete"].every((m) => typeof store[m] == "function");
    const opts = { ...options, stateSecret: undefined, store: ok ? signedStore(store, sig) : store };
    store = opts.store;
    make = () => {
      const client = createWith(opts);
      secrets.set(client, sig);
      return client;
    };
  } else {
    const fallback = memoryStore();
    // Read now, as a client made after the load would read them, not when the module is in.
    const opts = isLoaded() ? options : snapshot(options);
    store ??= fallback;
    make = () => createWith(opts, fallback);
  }
  return isLoaded() ? make() : lazyClient(make, options, store);
}

// A client made before the wasm module loaded (at a service worker's top level, say): an object
// with Client's methods that becomes a real client at the first call that needs one, when the
// module has loaded and the options are checked; until then `style`, `model` and
// `conversationStore()` answer from the options. A refusal of the options rejects every call.
const lazy = new WeakMap();

function lazyClient(make, options, store) {
  const c = Object.create(Client.prototype);
  let style, model;
  try {
    ({ style, model } = options);
  } catch {}
  lazy.set(c, { make, store, style, model, client: undefined, real: undefined, freed: false });
  return c;
}

// The real client of a lazy one, once the module is in. A failed load (or a refusal of the
// options) is not kept: the next call tries again.
function realOf(l) {
  if (l.real) return l.real;
  const p = (l.real = whenLoaded().then(() => (l.client ??= l.make())));
  p.catch(() => l.real === p && (l.real = undefined));
  return p;
}

function snapshot(o) {
  try {
    if (o !== null && typeof o == "object" && !Array.isArray(o)) return { ...o };
  } catch {} // a revoked Proxy, a throwing getter: the wasm refuses the original
  return o;
}

// Signed states (`stateSecret`): HMAC-SHA256 through WebCrypto over the state's JSON text
// without its `signature` member, which then carries the MAC (base64). The text is canonical:
// every object's keys sorted (`canonical`), so a copy that went through storage keeps its MAC
// even when the store reorders keys (Postgres `jsonb` does; a structured clone and JSON do not).
// States signed before that, over JSON.stringify's own order, still verify: `open` tries that
// text too. The MAC's input starts with what the state is for (`run` for a halted result, `#` +
// the conversation id for a stored state) so that neither can pose as the other, nor one
// conversation's state as another's. Verification is `crypto.subtle.verify`, which compares in
// constant time. See docs/decisions/state.md ("Signed states") and docs/decisions/attack-findings.md.
const secrets = new WeakMap();
const UTF8 = new TextEncoder();

// JSON text with every object's keys in sorted order (JSON data only: what a state is).
const canonical = (v) =>
  JSON.stringify(v, (_, x) => (x && typeof x == "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

function signer(secret) {
  // `Array.from`: a hole (`[NEW, , OLD]`) is an entry like any other, refused below; `every`
  // alone would skip it and leave a key list with a hole for `open` to trip on.
  const list = Array.isArray(secret) ? Array.from(secret) : [secret];
  const subtle = globalThis.crypto?.subtle;
  const bad = list.findIndex((s) => !(typeof s == "string" && s.length > 15));
  if (!list.length || bad >= 0) {
    const which = Array.isArray(secret) ? (list.length ? `entry ${bad} of the list is ${list[bad] === undefined ? "missing (a hole or undefined)" : "not a string of 16+ characters"}` : "the list is empty") : "it is not a string of 16+ characters";
    throw fail("bad_input", `stateSecret: ${which}: give a string of 16+ characters, or a list of such (newest first, every entry a secret)`);
  }
  if (!subtle) throw fail("bad_input", "stateSecret needs crypto.subtle (WebCrypto), which this host does not have");
  const keys = Promise.all(list.map((s) => subtle.importKey("raw", UTF8.encode(s), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])));
  const input = (label, text) => UTF8.encode(label + "\n" + text);
  return {
    // A copy of `state` with its signature.
    seal: async (label, state) => ({ ...state, signature: btoa(String.fromCharCode(...new Uint8Array(await subtle.sign("HMAC", (await keys)[0], input(label, canonical(state)))))) }),
    // `state` without its signature, or `bad_state`.
    async open(label, state, what) {
      let signature, rest, mac, texts;
      try {
        ({ signature, ...rest } = state);
        mac = Uint8Array.from(atob(signature), (c) => c.charCodeAt(0));
        texts = [canonical(rest), JSON.stringify(rest)];
      } catch {}
      for (const k of mac ? await keys : []) for (const t of texts) if (await subtle.verify("HMAC", k, mac, input(label, t))) return rest;
      throw fail("bad_state", `${what} has ${signature ? "a wrong" : "no"} signature (stateSecret is set)`);
    },
  };
}

// Every save signed, every read verified; a missing conversation stays missing. The MAC's label
// is `#` + the id: never `run`, and the text after it has no raw newline to blur the boundary.
function signedStore(s, sig) {
  return {
    get: async (id) => {
      const v = await s.get(id);
      return v == null ? v : sig.open("#" + id, v, "the stored conversation " + id);
    },
    save: async (id, state) => s.save(id, await sig.seal("#" + id, state)),
    delete: (id) => s.delete(id),
  };
}

// With a secret: a resume's `state` is verified before the wasm sees it (a stored conversation,
// a `streamWithAnswer` with an `id`, is verified by the store), and a halted result is signed
// before the caller sees it: a stream's `done` event is held back until then, and pushed whole.
// `history` + `pending` carry no signature: refused.
async function signedOp(sig, kind, a, op, s) {
  const push = s?.push;
  let done;
  if (s) s.push = (t, m) => (m === undefined ? push.call(s, t) : (done = runResult(t, m)));
  if (kind == OP.runWithAnswer || (kind == OP.streamWithAnswer && !a?.id)) a = { ...a, state: await sig.open("run", a?.state, "the state") };
  let r = (await op(a)) ?? done;
  if (r?.status == "pending") r = await sig.seal("run", r);
  if (s && r) push.call(s, JSON.stringify({ type: "done", result: r }));
  return r;
}

// The client's methods and getters, each one kind of the wasm client's `op`, in the order of
// `ClientOp` (src/ops.rs, which a native test checks this list against). A streamed one gets an EventStream, which the run feeds and its settled promise
// ends. A method of a freed client (or of an object that only has Client's prototype) would meet
// a null pointer in the glue, whose error has no code: it throws `bad_input` instead. A second
// `free()` does nothing.
const { op: clientOp, free } = Client.prototype;
delete Client.prototype.op;
const CLIENT = ["run", "runWithAnswer", "ask", "askWithAnswer", "stream", "streamWithAnswer", "translate", "translateStream", "discard", "conversationStore", "metrics", "style", "model", "free"];
// Each op's kind by its name: `OP.translate` is the first that is no loop operation, and the
// kinds after `OP.discard` answer at once (no promise, nothing to wait for).
const OP = Object.fromEntries(CLIENT.map((k, kind) => [k, kind]));
CLIENT.forEach((k, kind) => {
  const streamed = /stream/i.test(k);
  const getter = k == "style" || k == "model";
  /** @this {any} a Client, or whatever a caller bound */
  function f(a, b) {
    let self = this;
    const l = lazy.get(self);
    if (l?.freed) {
      if (k == "free") return;
      throw fail("bad_input", `Client.${k}: the client was freed`);
    }
    if (l && !l.client) {
      if (k == "free") {
        l.freed = true;
        l.real?.then((c) => c.free(), () => {});
        return;
      }
      if (getter) return l[k];
      if (k == "conversationStore") return l.store;
      // metrics(): the real client's text, which needs the module.
      if (k == "metrics" && isLoaded()) l.client = l.make();
      else if (k == "metrics") throw fail("bad_state", "metrics: the wasm module is not loaded yet: `await init()` first (any run loads it too)");
      else return started(streamed, (s) => realOf(l).then((c) => call(c, kind, a, b, s)));
    }
    if (l) {
      self = l.client;
      if (k == "free") l.freed = true;
    }
    if (self?.__wbg_ptr) {
      if (k == "free") return free.call(self);
      if (kind > OP.discard) return clientOp.call(self, kind, a, b, undefined);
      return started(streamed, (s) => call(self, kind, a, b, s));
    }
    if (k != "free") throw fail("bad_input", `Client.${k}: the client was freed`);
  }
  Object.defineProperty(Client.prototype, k, getter ? { get: f, configurable: true } : { value: f, writable: true, configurable: true });
});

// One operation of a real client, its events going to `s` when it streams. A toolkit declared
// before the module loaded is bound first (its declarations checked then).
function call(client, kind, a, b, s) {
  const go = () => {
    // The loop operations (run, runWithAnswer, ask, askWithAnswer, stream, streamWithAnswer) of a
    // signing client.
    const sig = kind < OP.translate && secrets.get(client);
    const op = (a) => clientOp.call(client, kind, a, b, s);
    return sig ? signedOp(sig, kind, a, op, s) : op(a);
  };
  const kits = unbound(a, b);
  return kits ? kits.then(go) : go();
}

// What a method returns: the operation's promise, or its stream, which the promise's settling
// ends. The stream exists before the operation starts (a lazy client's waits for the module), and
// a consumer that leaves before then stops the run as soon as it starts.
function started(streamed, start) {
  const s = streamed ? new EventStream() : undefined;
  const p = start(s);
  if (!s) return p;
  p.then(() => s.end(), (e) => s.end(e));
  return s;
}

/** `jsonSchema<T>(schema)`: the schema itself, typed so that a tool's `run` gets `T` arguments. */
export function jsonSchema(schema) {
  return schema;
}

/** `defineTool(def)`: `inputSchema` is a JSON Schema or a Standard Schema (zod, valibot, arktype). */
export function defineTool(def) {
  const tool = schemaTool(def);
  return isLoaded() ? declareTool(tool) : deferred(tool, () => declareTool(tool));
}

// A tool whose `inputSchema` is a Standard Schema (an object with `~standard`): the model is
// offered its JSON Schema, and `run` gets the schema's validated output. Arguments that do not
// validate never reach `run`: the call ends as an error result listing the issues, which the
// model reads and can correct, as the AI SDK does. A JSON Schema tool is passed as it is (not
// validated: see docs/decisions/typings.md).
function schemaTool(tool) {
  tool = gate(tool);
  let std;
  try {
    std = tool?.inputSchema?.["~standard"];
  } catch {} // a hostile tool object: the wasm's reader refuses it with bad_input
  if (std === null || typeof std !== "object") return tool;
  const name = tool.name;
  const run = tool.run;
  return {
    ...tool,
    inputSchema: tool.jsonSchema ?? toJsonSchema(std, name),
    jsonSchema: undefined,
    run: typeof run !== "function" ? run : async (args, ctx) => {
      const r = await std.validate(args);
      if (r.issues) throw new Error(`invalid arguments: ${r.issues.map(issue).join("; ")}`);
      return run(r.value, ctx);
    },
  };
}

function issue(i) {
  return [...(i.path ?? []).map((p) => p.key ?? p), i.message].join(": ");
}

// The Standard JSON Schema converter (`~standard.jsonSchema`: zod 4, arktype, valibot through
// @valibot/to-json-schema's toStandardJsonSchema); draft-07 is what every provider reads.
function toJsonSchema(std, name) {
  const conv = std.jsonSchema?.input;
  if (typeof conv !== "function") {
    throw new ToolnexusError(`tool ${name}: the schema has no ~standard.jsonSchema: pass jsonSchema: {...} beside it (valibot: toStandardJsonSchema)`, "bad_input");
  }
  // As plain data: zod's result also carries a `~standard` of its own.
  return JSON.parse(JSON.stringify(conv.call(std.jsonSchema, { target: "draft-07" })));
}

// The tools a client offers the model. The wasm keeps each toolkit's decoded tools, bound to the
// Toolkit object itself (`toolkitId`), so only this object finds them: a plain object cannot
// pose as a toolkit. The entry goes with `free()` or once the toolkit is collected.
const kits = typeof FinalizationRegistry === "function" ? new FinalizationRegistry(dropToolkit) : undefined;

let prepare, isUnbound; // Toolkit's own, for `unbound` below

export class Toolkit {
  #tools;
  #id; // undefined: declared before the module loaded and not bound yet; 0: freed
  #binding; // the promise of binding it, once a run needed it
  #opts; // what it was made with, whose keys are checked when it binds
  /** `new Toolkit({ tools })` or `new Toolkit(tools)`: the same as `createToolkit`. */
  constructor(opts) {
    let copy;
    try {
      const list = Array.isArray(opts) ? opts : opts?.tools;
      copy = Array.isArray(list) ? list.slice() : list;
    } catch {} // a revoked Proxy, a throwing getter: refused below as no tools
    if (Array.isArray(copy)) copy = copy.map(schemaTool);
    this.#tools = copy;
    this.#opts = opts;
    // Checked and bound now when the module is in and every tool was declared after it was;
    // else when a run first needs the tools (`unbound`).
    if (isLoaded() && !(Array.isArray(copy) && copy.some(isLater))) this.#bind(copy);
  }
  static {
    prepare = (t) => t.#prepare();
    isUnbound = (t) => #id in t && t.#id === undefined;
  }
  #bind(list) {
    this.#id = toolkitId(list, this, this.#opts);
    this.#opts = undefined;
    this.#tools = list;
    kits?.register(this, this.#id, this);
  }
  // Loads the module, makes the declarations that were made before it as they are made after it
  // (one may stand for several tools, or load a module of its own: the MCP entry's), and binds.
  #prepare() {
    return (this.#binding ??= (async () => {
      await whenLoaded();
      let list = this.#tools;
      if (Array.isArray(list)) {
        list = [];
        for (const t of this.#tools) {
          const made = isLater(t) ? await t[LATER]() : t;
          if (isLater(t) && Array.isArray(made)) list.push(...made);
          else list.push(made);
        }
      }
      if (this.#id === undefined) this.#bind(list);
    })());
  }
  // bad_input, not a private-field TypeError, for a forged `this`; with `live`, for a freed one.
  static #own(t, k, live) {
    if (!(#id in Object(t))) throw fail("bad_input", `Toolkit.${k}: not a Toolkit`);
    if (live && t.#id === 0) throw fail("bad_input", `Toolkit.${k}: the toolkit was freed`);
    return t;
  }
  get tools() {
    const tools = Toolkit.#own(this, "tools").#tools;
    return Array.isArray(tools) ? tools.slice() : [];
  }
  // The relay collision guard and the duplicate-name check apply; a refused tool changes nothing.
  // Before the toolkit is bound, they apply when it is.
  add(tool) {
    const next = [...Toolkit.#own(this, "add", 1).#tools, schemaTool(tool)];
    if (this.#id === undefined) {
      this.#tools = next;
      this.#binding = undefined;
      return;
    }
    toolkitId(next, this);
    this.#tools = next;
  }
  free() {
    kits?.unregister(Toolkit.#own(this, "free"));
    if (this.#id) dropToolkit(this.#id);
    // Never bound: bound now to an id with no tools, so that a run refuses it as freed.
    else if (this.#id === undefined) kitId(this, true);
    this.#id = 0;
  }
  [Symbol.dispose]() {
    this.free();
  }
}

// Whether `t` is a declaration made before the module loaded (`deferred`).
function isLater(t) {
  try {
    return typeof t?.[LATER] == "function";
  } catch {
    return false;
  }
}

// The toolkits in an operation's options that were declared before the module loaded: the
// promise of binding them all, or undefined when there is none (the common case: no await).
function unbound(...opts) {
  let list;
  for (const o of opts) {
    try {
      const t = o !== null && typeof o == "object" ? o.toolkit : undefined;
      if (t instanceof Toolkit && isUnbound(t)) (list ??= []).push(prepare(t));
    } catch {} // a throwing getter: the run's own reading refuses it
  }
  return list && Promise.all(list);
}

/** `createToolkit({ tools })` (an array of tools is accepted too); the array is copied. */
export function createToolkit(opts) {
  return new Toolkit(opts);
}

// A conversation id, checked before it is used as a key.
function idOf(id) {
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

/**
 * A Durable Object namespace binding whose class is `ConversationObject` (export it from your
 * Worker: `export { ConversationObject } from "toolnexus-wasm"`). One object per conversation
 * holds it in transactional storage and applies the revision check inside the object, which
 * runs one request at a time: two writers can never both win, from any isolate or location.
 */
export function durableObjectStore(namespace) {
  let ok;
  try {
    ok = typeof namespace?.idFromName === "function";
  } catch {}
  if (!ok) throw fail("bad_input", "durableObjectStore needs a Durable Object namespace binding");
  const call = async (id, op, state) => {
    const stub = namespace.get(namespace.idFromName(id));
    const res = await stub.fetch("https://conversation/", { method: "POST", body: JSON.stringify({ op, state }) });
    const body = await res.json();
    if (body.error) throw fail(body.error.code, body.error.message);
    return body.state ?? undefined;
  };
  return {
    get: async (id) => call(idOf(id), "get"),
    save: async (id, state) => { await call(idOf(id), "save", state); },
    delete: async (id) => { await call(idOf(id), "delete"); },
  };
}

/** The Durable Object class behind durableObjectStore: one conversation per object. */
export class ConversationObject {
  constructor(ctx) {
    this.storage = ctx.storage;
  }

  async fetch(request) {
    const { op, state } = await request.json();
    if (op === "get") return Response.json({ state: (await this.storage.get("state")) ?? null });
    if (op === "delete") { await this.storage.delete("state"); return Response.json({}); }
    if (op !== "save") return Response.json({ error: { code: "bad_input", message: `unknown op ${op}` } }, { status: 400 });
    // Requests to one object run one at a time (its input gate), so this read-check-write is
    // atomic against every other writer.
    try {
      checkRevision(await this.storage.get("state"), state);
    } catch (e) {
      return Response.json({ error: { code: e.code, message: e.message } }, { status: 409 });
    }
    await this.storage.put("state", state);
    return Response.json({});
  }
}
