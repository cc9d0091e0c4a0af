// @ts-check
// The host calls of one run, each done in one await: every await the Rust edge makes costs a
// promise, a `then`, two closures and a microtask, and every property read is a crossing.
// Errors are not interpreted here: a throw or rejection reaches the edge, which maps it.

// One model call: fetch, status, then (only on a refusal) the wait the provider asked for, in
// ms as text (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date, which
// `Date.parse` reads in all its forms), then the body: the text, or with `stream` the body's
// reader when it has one. The status is below any HTTP one when there is none: NO_RESPONSE,
// fetch gave no Response; TOO_LARGE, the body is longer than `max` bytes (a declared length is
// refused before reading; a body is read through its reader, cancelled past the cap, so a huge
// reply never reaches the wasm memory). The numbers are the core's (src/ops.rs, whose tests
// read them here).
const NO_RESPONSE = 0, TOO_LARGE = 1;
/** @typedef {[status: number, retryAfter?: string, body?: string | ReadableStreamDefaultReader<Uint8Array> | 0]} ModelReply */
/** @returns {Promise<ModelReply>} */
export async function callModel(f, url, head, body, signal, stream, max) {
  await drained(signal);
  const init = JSON.parse(head);
  init.body = body;
  if (signal?.public) init.signal = signal.public;
  // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
  const r = await guard(f ? f.call(globalThis, url, init) : fetch(url, init), signal);
  // Number(): a mock's status may be a numeric string, as the typed binding used to accept.
  const s = r !== null && typeof r === "object" ? Number(r.status) : 0;
  if (!(s >= 100 && s <= 599)) {
    // A browser hides a redirect under `redirect: "manual"` (status 0); by the fetch standard
    // that is a network error, and so it is here. The key was not sent on.
    if (r?.type === "opaqueredirect") throw TypeError("redirect refused");
    return [NO_RESPONSE];
  }
  let ra, b;
  try {
    if (s >= 400) {
      const a = r.headers.get("retry-after");
      ra = r.headers.get("retry-after-ms") ?? (a && String(isNaN(a) ? Math.max(0, Date.parse(a) - Date.now()) : a * 1000));
    }
    if (r.headers.get("content-length") > max) return cancel(r.body), [TOO_LARGE];
  } catch {}
  // A body that gives no reader (none, a mock's, a locked one) is read whole: `text()` then
  // reports what is wrong with it, if anything.
  try {
    b = r.body.getReader();
  } catch {
    const t = await guard(r.text(), signal);
    return t?.length > max ? [TOO_LARGE] : [s, ra, t];
  }
  if (stream) return [s, ra, b];
  // The whole body, read here rather than through `readChunk`: one await per chunk.
  const parts = [];
  for (let n = 0, x; !(x = await guard(b.read(), signal))?.done; ) {
    const v = x?.value;
    // A reader that gave no bytes (`0`: not a string, refused by the edge), or past the cap.
    if (!(v instanceof Uint8Array)) return [s, ra, 0];
    if ((n += v.byteLength) > max) return cancel(b), [TOO_LARGE];
    parts.push(v);
  }
  return [s, ra, parts.length < 2 ? UTF8.decode(parts[0]) : await new Blob(/** @type {BlobPart[]} */ (parts)).text()];
}

// Whole bodies only (no `stream` option): one decoder serves every call.
const UTF8 = new TextDecoder();

function cancel(x) {
  try {
    x.cancel().catch(() => {});
  } catch {}
}

// One tool call: the arguments cross as JSON text. Resolves to [TEXT, string] for a string
// result, [JSON_TEXT, JSON text] for any other value, [THREW, message] for a throw or rejection,
// [NOT_DATA] for a value that is not JSON data (the tags are the core's `ToolReply`). Never
// rejects. Tools see the run's `public` signal (the caller's own when there is no deadline) and
// the provider's id of the call (`toolCallId`), which names durable work after the call.
const TEXT = 0, JSON_TEXT = 1, THREW = 2, NOT_DATA = 3;
/** @typedef {[tag: number, text?: string]} ToolReply */
/** @returns {Promise<ToolReply>} */
export async function callTool(f, args, signal, answer, toolCallId) {
  await drained(signal);
  /** @type {{ toolCallId: string, signal?: AbortSignal, answer?: unknown }} */
  const ctx = { toolCallId };
  if (signal?.public) ctx.signal = signal.public;
  if (answer) ctx.answer = JSON.parse(answer);
  let v;
  try {
    v = await f(JSON.parse(args), ctx);
  } catch (e) {
    return [THREW, messageOf(e)];
  }
  if (typeof v === "string") return [TEXT, v];
  if (v === undefined) return [JSON_TEXT, "null"];
  try {
    const t = JSON.stringify(v);
    if (t !== undefined) return [JSON_TEXT, t];
  } catch {}
  return [NOT_DATA];
}

// The message of whatever a host value threw: an Error's message with what its `cause` says,
// a string, else the value as JSON. Read so that nothing about the value (a revoked Proxy, a
// getter that throws, a message that is not a string, a Symbol) can throw again: the edge would
// carry that throw through Rust frames.
export function messageOf(e) {
  try {
    if (e instanceof Error && typeof e.message === "string") return e.message + causeOf(e.cause, 3);
  } catch {}
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {}
  return "unknown error";
}

// What an error's `cause` adds, as ` (code: message)`, a few levels deep: Node's fetch says only
// "fetch failed" and puts what failed (ECONNREFUSED, ENOTFOUND, a TLS error) there. Browsers give
// no cause; their message is all there is.
function causeOf(c, depth) {
  try {
    if (depth && c != null) {
      const code = typeof c.code === "string" ? c.code : "";
      const m = c instanceof Error && typeof c.message === "string" ? c.message : typeof c === "string" ? c : "";
      const text = !code || m.includes(code) ? m : m ? `${code}: ${m}` : code;
      if (text) return ` (${text}${causeOf(c.cause, depth - 1)})`;
    }
  } catch {}
  return "";
}

// A run's result: `text` has `"messages":null` where the transcript goes, and `messages` is
// the transcript's JSON, parsed on first read (most callers never read it). The accessor keeps
// the key's place, so JSON.stringify, structuredClone and spreading see it as before; a frozen
// result still reads; an assignment replaces it.
export function runResult(text, messages) {
  const o = JSON.parse(text);
  let read;
  return Object.defineProperty(o, "messages", {
    get: () => (read ? messages : ((read = 1), (messages = JSON.parse(messages)))),
    set: (x) => ((read = 1), (messages = x)),
    enumerable: true,
    configurable: true,
  });
}

// Awaits what a host callback returned inside a promise of our own: a value's own `then`, a
// throwing `then` getter or a Promise's `constructor` getter then rejects it, never throws.
export async function awaited(v) {
  return v;
}

// A host callback whose outcome does not matter (`onMetric`, `onText`), wrapped so that neither
// its throw nor a rejection of the promise it returns reaches the host as uncaught.
function quietly(f) {
  return (
    f &&
    ((a) => {
      try {
        const p = f(a);
        if (p instanceof Promise) Promise.prototype.then.call(p, undefined, () => {});
      } catch {}
    })
  );
}

// Toolkits made by `createToolkit`, mapped to their decoded tools' id in the wasm. Only the
// object itself finds them: a plain `{ id }` or a copied handle cannot pose as a toolkit.
// `kitId(o, true)` binds `o` to a new id unless it has one; `kitId(o)` is o's id, or 0.
const kits = new WeakMap();
let lastKit = 0;
export function kitId(o, bind) {
  if (bind && o !== null && typeof o === "object" && !kits.has(o)) kits.set(o, (lastKit = (lastKit % 4294967295) + 1));
  return kits.get(o) ?? 0;
}

// A run's toolkit: a Toolkit's id, else a real array copy of its tools (an array of tools, or
// `{ tools }`), else undefined (a getter that throws, a revoked Proxy included).
export function kitOf(t) {
  try {
    return kits.get(t) ?? (listOf(t) ?? listOf(t.tools))?.map(gate);
  } catch {}
}

// `needsApproval` (true, or a function of the arguments and `{ name, signal }`; anything but
// `false` from it asks): the tool's `run`, gated. Asking is the one suspension primitive, built
// here as `pending()`'s result: `{ kind: "approval", data: { name, arguments } }` (`name` as
// declared, which is the name the model calls). Its answer, `ok`, runs the tool; a refusal
// ends the call `declined/expired: …` in the core and the tool never runs. Ids carry a digest of
// the name and arguments: `approval:<digest>:<nonce>` for the approval, and the tool's own later
// suspensions leave as `approved:<digest>:<id>` (their id given back in `ctx.answer`). Any other
// answer (a `beforeTool` suspension's, one a resume handed to another call, an approval of other
// arguments) asks again instead of running. Applied by `defineTool` and `Toolkit` (api.js) and
// to a run's plain tool list; the gated tool has no `needsApproval` left, so gating twice is
// gating once. Any other value (`"true"`, a relay tool's `needsApproval`) is left on the tool
// for the core to refuse with the reason (src/declare.rs). See docs/decisions.md and
// docs/decisions/options-and-errors.md.
export function gate(tool) {
  let need, run, name;
  try {
    ({ needsApproval: need, run, name } = tool);
  } catch {}
  if (!(need === true || typeof need == "function") || typeof run != "function") return tool;
  const prompt = "approval to run " + name;
  return {
    ...tool,
    needsApproval: undefined,
    async run(args, ctx) {
      const { answer, ...rest } = ctx ?? {};
      const id = "" + answer?.id;
      let h = 0;
      for (const c of name + JSON.stringify(args)) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
      const own = `approved:${h}:`, ask = `approval:${h}:`;
      if (id.startsWith(own)) rest.answer = { ...answer, id: id.slice(own.length) };
      else if (!(answer?.ok && id.startsWith(ask)) && (typeof need != "function" || (await need(args, { name, signal: rest.signal })) !== false)) {
        const pending = { id: ask + Math.random().toString(36).slice(2), kind: "approval", prompt, data: { name, arguments: args } };
        return { output: prompt, isError: true, metadata: { pending } };
      }
      const v = await run(args, rest);
      const p = v?.metadata?.pending;
      return p?.id ? { ...v, metadata: { ...v.metadata, pending: { ...p, id: own + p.id } } } : v;
    },
  };
}

// A real array copy of `v` when it is an array (of a toolkit's tools), else undefined; an array
// that throws on reading (a Proxy, an index getter) is refused too.
export function listOf(v) {
  try {
    if (Array.isArray(v)) return Array.from(v);
  } catch {}
}

// `createClient`'s options as JSON text for the core to read (src/options.rs): a function
// option is `true` there (so the core sees every key it must check against its table), and the
// store, an object of the host's, not data, is left out. A value that is not JSON data (a cycle,
// a BigInt) gives "", which the core refuses.
export function optionsJson(o) {
  return shapeJson(o, "store");
}

// An object as JSON text with its own functions as `true` (a tool's `run`, `needsApproval`,
// `execute`), so the core checks every key; `drop` is left out. "" for what is not JSON data.
export function shapeJson(o, drop) {
  try {
    return JSON.stringify(o, function (k, v) {
      return this !== o ? v : k === drop ? undefined : typeof v === "function" || v;
    });
  } catch {
    return "";
  }
}

// The own keys of an object whose value is not `undefined` (as JSON drops them); [] for anything
// else. A getter that throws throws.
export function keysOf(o) {
  return o !== null && typeof o === "object" && !Array.isArray(o) ? Object.keys(o).filter((k) => o[k] !== undefined) : [];
}

// The async iterable that `client.stream`, `streamWithAnswer` and `translateStream` return.
// The wasm pushes each item as JSON text; api.js ends the stream once the run's promise settles
// (with the error of a failed run). Items queue until `next()` takes them, so a consumer slower
// than the model loses nothing.
// Backpressure: the run starts no host call (a model call, a tool, `waitFor`, a store save)
// while items wait here (`drained`), so a `pending` event has been taken by `next()` before its
// `waitFor` runs, and what is buffered is at most one model reply's events. Leaving the stream
// (`break`, `return()`, a throw in a `for await` body) aborts the run through its signal.
export class EventStream {
  #items = [];
  #end; // [] once the run ended, [error] when it failed
  #wait; // [resolve, reject] of the `next()` that is waiting
  #closed = false;
  #stop; // aborts the run (runSignal)
  #drain = []; // resolvers of host calls waiting for the consumer to take every item
  // An event's JSON text, or (`done`) its result's two texts (`runResult`).
  push(text, messages) {
    if (this.#closed) return;
    this.#items.push(messages === undefined ? text : [text, messages]);
    this.#deliver();
  }
  end(error) {
    this.#end ??= error === undefined ? [] : [error];
    this.#deliver();
  }
  // `{ value, done: false }` per item, then `{ done: true }`; a failed run rejects once.
  next() {
    return new Promise((resolve, reject) => {
      if (this.#wait) return reject(toolnexusError("EventStream.next() called again before the previous call settled", "bad_input"));
      this.#wait = [resolve, reject];
      this.#deliver();
    });
  }
  // The consumer left: nothing more is delivered, and the run is aborted (its fetch, tools and
  // parked `waitFor` calls see the signal; no new model call or tool starts).
  return() {
    this.#closed = true;
    this.#items = [];
    this.#end = [];
    this.#stop?.(); // host calls waiting for the stream to drain see the abort
    this.#deliver();
    return Promise.resolve({ value: undefined, done: true });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  // Called by runSignal with the run's signal and its abort.
  bind(s, stop) {
    s[STREAM] = this;
    this.#stop = stop;
    if (this.#closed) stop();
  }
  // `undefined` when every item was taken, else a promise that resolves once it has been.
  drained() {
    return this.#items.length ? new Promise((r) => this.#drain.push(r)) : undefined;
  }
  #deliver() {
    const w = this.#wait;
    if (!w) return;
    if (this.#items.length) {
      try {
        const t = this.#items.shift();
        w[0]({ value: typeof t === "string" ? JSON.parse(t) : { type: "done", result: runResult(...t) }, done: false });
      } catch (e) {
        w[1](e);
      }
      if (!this.#items.length) this.#drain.splice(0).map((r) => r());
    } else if (this.#end?.length) {
      w[1](this.#end[0]);
      this.#end = [];
    } else if (this.#end) {
      w[0]({ value: undefined, done: true });
    } else return;
    this.#wait = undefined;
  }
}

// Resolves once the run's stream (if any) has handed every event to its consumer, a few
// microtasks later (a consumer that takes its event and leaves, with `break`, does so first);
// rejects when the run is aborted by then.
const STREAM = Symbol();
function drained(s) {
  return (
    s?.[STREAM] &&
    guard(s[STREAM].drained(), s).then(() => {
      if (s.aborted) throw s.reason;
    })
  );
}

// A host callback (`waitFor`, `onError`) as the edge calls it, `(arg, runSignal)`: once the
// run's stream has drained, `f(arg, { signal })` with the signal fetch and tools see.
const withSignal = (f) => f && (async (arg, s) => (await drained(s), f(arg, { signal: s?.public })));

// What a call's options hold besides JSON data, read once (one crossing), each checked.
// Throws the message of a refusal, or what a getter threw. `signal` is the run's (`runSignal`),
// made only when something can abort the run: the caller's signal, the deadline `ms`, or the
// `stream` its consumer may leave; never for a call that is no run (`run` false: `discard`).
// The slots are the core's `RunSlot` (src/ops.rs, whose tests read this typedef).
// `keys` are the options' own keys whose value is not `undefined`, which the core checks against
// what the operation reads (`options::check_call_options`): `run(p, { tools })` is refused, not
// run without tools.
/** @typedef {[toolkit: unknown, signal: any, onText: Function | undefined, id: string | undefined, keepHistory: boolean, history: unknown, keys: string[]]} RunOptions */
/** @returns {RunOptions} */
export function runOptions(o, run, ms, stream) {
  /** @type {RunOptions} */
  let a = [undefined, undefined, undefined, undefined, false, undefined, []];
  if (o != null) {
    if (typeof o !== "object") throw "options must be an object";
    const { toolkit, signal: s, id, history } = o;
    if (s != null && !(typeof s.aborted === "boolean" && typeof s.addEventListener === "function")) {
      throw "options.signal must be an AbortSignal";
    }
    if (id != null && typeof id !== "string") throw "options.id must be a string";
    a = [toolkit, s ?? undefined, quietly(fn(o, "onText", "options")), id || undefined, o.keepHistory === true, history, keysOf(o)];
  }
  a[1] = run && (a[1] || ms !== undefined || stream) ? runSignal(a[1], ms, stream) : undefined;
  return a;
}

// The data fields of a resume call's options as JSON text, for the core's reader
// (`conversation::ResumeOptions`); "" (refused there) for a value that is not JSON data.
export function resumeJson(o) {
  if (o === null || typeof o !== "object") return "{}";
  try {
    return JSON.stringify({ answer: o.answer, pending: o.pending, state: o.state, history: o.history, id: o.id });
  } catch {
    return "";
  }
}

// The run's abort: one internal controller per run, made only when the caller gave a `signal`
// (any object with `aborted` and `addEventListener`) or a `timeoutMs` deadline; without either
// there is nothing to listen to and no race at all. Fetch, the body reader, tools and the backoff
// sleep race the internal signal; fetch and tools see it as `public` (the caller's own signal
// when there is no deadline). `endRun` removes the listener from the caller's signal, clears
// the deadline's timer and settles what the run still waits on: wasm-bindgen frees the callbacks
// of an awaited promise only when it settles, so nothing is kept per settled run.
const RUN = Symbol();
const READ = Symbol();
/** @typedef {AbortSignal & { public?: AbortSignal }} RunSignal the run's signal, and the one fetch and tools see */
/** @returns {RunSignal} */
function runSignal(u, ms, stream) {
  const c = new AbortController();
  const s = /** @type {RunSignal} */ (c.signal);
  if (u === null || typeof u !== "object") u = undefined;
  // A stream's run is aborted by its consumer leaving too: fetch and tools get the run's own.
  s.public = ms === undefined && !stream ? u : s;
  // Aborting ends the run: what it awaits settles (`guard`, `onAbort`, `sleep`).
  const stop = (reason) => (c.abort(reason), endRun(s));
  // A `reason` that throws aborts all the same (the default AbortError), throwing at no one.
  const on = () => {
    let r;
    try {
      r = u.reason;
    } catch {}
    stop(r);
  };
  let t;
  s[RUN] = [
    () => {
      clearTimeout(t);
      // `?.`: without a caller's signal there is nothing to remove, and a TypeError caught per
      // run cost more than the rest of the run's signal (a thrown error captures a stack).
      try {
        u?.removeEventListener("abort", on);
      } catch {}
    },
  ];
  if (ms !== undefined) t = setTimeout(() => stop(named("TimeoutError")), ms);
  try {
    if (u?.aborted) on();
    else u?.addEventListener("abort", on, { once: true });
  } catch {}
  stream?.bind(s, stop);
  return s;
}

export function endRun(s) {
  for (const f of s?.[RUN]?.splice(0) ?? []) f();
}

const named = (name) => Object.assign(new Error(name), { name });

// `p`, rejected with an AbortError when the run aborts (or ends): a host promise that never
// settles (a fetch or tool that ignores the signal, a parked `waitFor`, a store) must not keep
// the run's callbacks alive. Without a signal nothing can end a run early: `p` as is.
export function guard(p, s) {
  return s?.[RUN]
    ? new Promise((resolve, reject) => {
        const stop = () => reject(named("AbortError"));
        s.aborted ? stop() : s[RUN].push(stop);
        // A settled call's stop leaves the run's list: a stream guards each body read, and every
        // stop kept would hold the bytes it guarded and build an AbortError when the run ends.
        Promise.resolve(p)
          .then(resolve, reject)
          .then(() => s[RUN].splice(s[RUN].indexOf(stop) >>> 0, 1));
      })
    : p;
}

// 0: not aborted; 1: aborted; 2: aborted by a deadline (the reason is a TimeoutError).
export function abortState(s) {
  if (!s?.aborted) return 0;
  // A caller's reason whose `name` throws is no deadline.
  try {
    const r = s.reason;
    return r !== null && typeof r === "object" && r.name === "TimeoutError" ? 2 : 1;
  } catch {
    return 1;
  }
}

// A backoff sleep, cut short (its timer cleared) when the run's signal aborts: an aborted run
// must not keep the process alive until the timer fires. A host without `setTimeout` does not
// wait (the rejection ends the sleep). `ms` is within the timer range (the core clamps it).
// Without `ms` it is the wait for the abort: it resolves once the run aborts, or when it ends
// (then nothing awaits it).
export function sleep(ms, s) {
  return new Promise((resolve) => {
    const t = s?.aborted ? undefined : ms >= 0 ? setTimeout(resolve, ms) : undefined;
    if (s?.aborted) resolve();
    s?.[RUN]?.push(() => (clearTimeout(t), resolve()));
  });
}

// The next bytes of a streamed body's reader (a Uint8Array), `undefined` at the end, `null` when
// `read()` gave no `{ done, value }` with bytes, `false` (the reader cancelled) once the body read
// so far is longer than `max` bytes. A throw rejects.
// Reads are gathered here until one holds a line ending (every SSE event ends with one), or the
// body ends: each await of the edge costs several µs whatever it holds, and a network that cuts
// the body into small reads would pay it per read. No complete event waits for more bytes, and
// the bytes of an unfinished line could not be used before its end anyway. At most 8 KB are
// handed on at a time, the rest at once by the next calls: the wasm decodes all it is given
// before its consumer sees the first event.
export function readChunk(r, max, s) {
  return guard(gather(r, max), s);
}

async function gather(r, max) {
  const st = (r[READ] ??= [0]); // bytes read, then what is read and not handed on
  const parts = [];
  let n = 0, x, v = st[1];
  while (!v) {
    if ((x = await r.read())?.done) {
      if (!n) return;
      break;
    }
    if (!((x = x?.value) instanceof Uint8Array)) return null;
    if ((st[0] += x.length) > max) return cancel(r), false;
    parts.push(x);
    n += x.length;
    if (x.includes(10) || x.includes(13)) break;
  }
  v ||= parts[0];
  if (parts[1]) {
    v = new Uint8Array(n);
    n = 0;
    for (const p of parts) v.set(p, n), (n += p.length);
  }
  st[1] = v.length > 8192 && v.subarray(8192);
  return v.subarray(0, 8192);
}

// The host's objects among `createClient`'s options, checked (`undefined` when absent, `dflt`
// for the store; `onMetric` wrapped by `quietly`, `waitFor` and `onError` by `withSignal`).
// Throws the message of a refusal as a string, or what a getter threw. The slots are the core's
// `HostSlot` (src/ops.rs, whose tests read this typedef).
/** @typedef {[waitFor: Function | undefined, fetch: Function | undefined, onMetric: Function | undefined, onError: Function | undefined, beforeLLM: Function | undefined, afterLLM: Function | undefined, beforeTool: Function | undefined, afterTool: Function | undefined, bodyTransform: Function | undefined, store: unknown]} HostFns */
/** @returns {HostFns} */
export function hostOptions(o, dflt) {
  o = o !== null && typeof o === "object" ? o : {};
  const s = o.store;
  if (s != null && !["get", "save", "delete"].every((m) => typeof s[m] === "function")) {
    throw "store must have get(id), save(id, state) and delete(id) methods";
  }
  const h = o.hooks, c = "createClient options";
  const [w, f, m, e] = ["waitFor", "fetch", "onMetric", "onError"].map((k) => fn(o, k, c));
  if (h != null && typeof h !== "object") throw "hooks must be an object of functions";
  const hook = (k) => fn(h ?? {}, k, "hooks");
  return [
    withSignal(w),
    f,
    quietly(m),
    withSignal(e),
    hook("beforeLLM"),
    hook("afterLLM"),
    hook("beforeTool"),
    hook("afterTool"),
    fn(o, "bodyTransform", c),
    s ?? dflt,
  ];
}

function fn(o, k, what) {
  const f = o[k];
  if (f != null && typeof f !== "function") throw `${what}.${k} must be a function`;
  return f ?? undefined;
}

// One store call, `method(id, state?)` with the store as `this`, awaited; `state` crosses as
// JSON text (a save waits for the run's stream to drain). Resolves to [value], or [] when the store lacks the method; rejects with what the
// store threw.
export async function callStore(s, m, id, state, signal) {
  if (state !== undefined) await drained(signal);
  const f = s?.[m];
  if (typeof f !== "function") return [];
  return [await (state === undefined ? f.call(s, id) : f.call(s, id, JSON.parse(state)))];
}

// The class of every error the package throws. The edge constructs it (convert.rs `js_error`)
// and pkg-template/api.js re-exports it, so `instanceof ToolnexusError` holds for all of them.
export class ToolnexusError extends Error {
  constructor(message, code, options) {
    super(message, options);
    this.name = "ToolnexusError";
    this.code = code;
    if (options?.status) this.status = options.status;
  }
  // Also true for an error of another copy of the package (a second bundle, another realm).
  static is(e) {
    return e?.name === "ToolnexusError" && typeof e.code === "string";
  }
}

export function toolnexusError(message, code, status) {
  return new ToolnexusError(message, code, status && { status });
}

