// The host calls of one run, each done in one await: every await the Rust edge makes costs a
// promise, a `then`, two closures and a microtask, and every property read is a crossing.
// Errors are not interpreted here: a throw or rejection reaches the edge, which maps it.

// One model call: fetch, status, then (only on a refusal) the wait the provider asked for, in
// ms as text (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date, which
// `Date.parse` reads in all its forms), then the body: the text, or with `stream` the body's
// reader when it has one. Resolves to [status, retryAfter, text|reader]; status 0: fetch gave
// no Response.
export async function callModel(f, url, head, body, signal, stream) {
  const init = JSON.parse(head);
  init.body = body;
  if (signal) init.signal = signal;
  // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
  const r = await (f ? f.call(globalThis, url, init) : fetch(url, init));
  // Number(): a mock's status may be a numeric string, as the typed binding used to accept.
  const s = r !== null && typeof r === "object" ? Number(r.status) : 0;
  if (!(s >= 100 && s <= 599)) {
    // A browser hides a redirect under `redirect: "manual"` (status 0); by the fetch standard
    // that is a network error, and so it is here. The key was not sent on.
    if (r?.type === "opaqueredirect") throw TypeError("redirect refused");
    return [0];
  }
  let ra;
  if (s >= 400) {
    try {
      const a = r.headers.get("retry-after");
      ra = r.headers.get("retry-after-ms") ?? (a && String(isNaN(a) ? Math.max(0, Date.parse(a) - Date.now()) : a * 1000));
    } catch {}
  }
  if (stream) {
    // A body that gives no reader (none, a mock's, a locked one) is read whole: `text()` then
    // reports what is wrong with it, if anything.
    try {
      if (r.body !== null && typeof r.body === "object") return [s, ra, r.body.getReader()];
    } catch {}
  }
  return [s, ra, await r.text()];
}

// One tool call: the arguments cross as JSON text. Resolves to [0, string] for a string result,
// [1, JSON text] for any other value, [2, message] for a throw or rejection, [3] for a value
// that is not JSON data.
export async function callTool(f, args, signal, answer) {
  const ctx = {};
  if (signal) ctx.signal = signal;
  if (answer) ctx.answer = JSON.parse(answer);
  let v;
  try {
    v = await f(JSON.parse(args), ctx);
  } catch (e) {
    let m = e instanceof Error ? String(e.message) : typeof e === "string" ? e : undefined;
    if (m === undefined) {
      try {
        m = JSON.stringify(e);
      } catch {}
    }
    return [2, m ?? "unknown error"];
  }
  if (typeof v === "string") return [0, v];
  if (v === undefined) return [1, "null"];
  try {
    const t = JSON.stringify(v);
    if (t !== undefined) return [1, t];
  } catch {}
  return [3];
}

// `createClient`'s options as JSON text for the core to read (src/options.rs): functions drop
// out as in any JSON.stringify, and so does the store, an object of the host's, not data.
// A value that is not JSON data (a cycle, a BigInt) gives "", which the core refuses.
export function optionsJson(o) {
  try {
    return JSON.stringify(o, function (k, v) {
      return this === o && k === "store" ? undefined : v;
    });
  } catch {
    return "";
  }
}

// The async iterable that `client.stream`, `streamWithAnswer` and `translateStream` return.
// The wasm pushes each item as JSON text and ends the stream once (with the error of a failed
// run); items queue until `next()` takes them, so a consumer slower than the model loses nothing.
export class EventStream {
  #items = [];
  #end; // [] once the run ended, [error] when it failed
  #wait; // [resolve, reject] of the `next()` that is waiting
  #closed = false;
  push(text) {
    if (this.#closed) return;
    this.#items.push(text);
    this.#deliver();
  }
  end(error) {
    this.#end ??= error === undefined ? [] : [error];
    this.#deliver();
  }
  // `{ value, done: false }` per item, then `{ done: true }`; a failed run rejects once.
  next() {
    return new Promise((resolve, reject) => {
      if (this.#wait) return reject(new Error("EventStream.next() called again before the previous call settled"));
      this.#wait = [resolve, reject];
      this.#deliver();
    });
  }
  // A `break` out of `for await`: stops delivering. The run goes on to its end, saving its state
  // as usual; abort it with the `signal` option.
  return() {
    this.#closed = true;
    this.#items = [];
    this.#end = [];
    return Promise.resolve({ value: undefined, done: true });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  #deliver() {
    const w = this.#wait;
    if (!w) return;
    if (this.#items.length) {
      try {
        w[0]({ value: JSON.parse(this.#items.shift()), done: false });
      } catch (e) {
        w[1](e);
      }
    } else if (this.#end?.length) {
      w[1](this.#end[0]);
      this.#end = [];
    } else if (this.#end) {
      w[0]({ value: undefined, done: true });
    } else return;
    this.#wait = undefined;
  }
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

// The run's signal for fetch, the body reader, tools and the abort race: the caller's `signal`
// (any object with `aborted` and `addEventListener`) and the `timeoutMs` deadline, combined.
// Hosts without `AbortSignal.timeout`/`any` get what they have.
export function runSignal(user, ms) {
  const s = [];
  if (user !== null && typeof user === "object") s.push(user);
  if (ms !== undefined) {
    try {
      s.push(AbortSignal.timeout(ms));
    } catch {}
  }
  if (s.length < 2) return s[0];
  try {
    return AbortSignal.any(s);
  } catch {}
  const c = new AbortController();
  for (const x of s) {
    if (x.aborted) return c.abort(x.reason), c.signal;
    try {
      x.addEventListener("abort", () => c.abort(x.reason), { once: true });
    } catch {}
  }
  return c.signal;
}

// 0: not aborted; 1: aborted; 2: aborted by a deadline (the reason is a TimeoutError).
export function abortState(s) {
  if (!s?.aborted) return 0;
  const r = s.reason;
  return r !== null && typeof r === "object" && r.name === "TimeoutError" ? 2 : 1;
}

// Resolves once `s` aborts (never, for a signal that cannot be listened to).
export function onAbort(s) {
  return new Promise((resolve) => {
    try {
      s.addEventListener("abort", resolve, { once: true });
    } catch {}
  });
}

// Backoff sleeps; a host without `setTimeout` does not wait.
export function sleep(ms) {
  return new Promise((resolve) => {
    try {
      setTimeout(resolve, Math.max(ms, 0));
    } catch {
      resolve();
    }
  });
}

// The next chunk of a body reader: its bytes, `undefined` at the end, `null` when `read()` gave
// no `{ done, value }`. A throw rejects.
export async function readChunk(r) {
  const x = await r.read();
  if (x === null || typeof x !== "object") return null;
  return x.done ? undefined : x.value;
}

// The host's objects among `createClient`'s options, checked in the order the edge reported
// them before: [waitFor, fetch, onMetric, onError, beforeLLM, afterLLM, beforeTool, afterTool,
// bodyTransform, store] (`undefined` when absent). Throws the message of a refusal as a string.
export function hostOptions(o) {
  o = o !== null && typeof o === "object" ? o : {};
  const s = o.store;
  if (s != null && !["get", "save", "delete"].every((m) => typeof s[m] === "function")) {
    throw "store must have get(id), save(id, state) and delete(id) methods";
  }
  const h = o.hooks;
  const fns = ["waitFor", "fetch", "onMetric", "onError"].map((k) => fn(o, k, "createClient options"));
  if (h != null && typeof h !== "object") throw "hooks must be an object of functions";
  for (const k of ["beforeLLM", "afterLLM", "beforeTool", "afterTool"]) fns.push(fn(h ?? {}, k, "hooks"));
  fns.push(fn(o, "bodyTransform", "createClient options"), s ?? undefined);
  return fns;
}

function fn(o, k, what) {
  const f = o[k];
  if (f != null && typeof f !== "function") throw `${what}.${k} must be a function`;
  return f ?? undefined;
}

// One store call, `method(id, state?)` with the store as `this`, awaited; `state` crosses as
// JSON text. Resolves to [value], or [] when the store lacks the method; rejects with what the
// store threw.
export async function callStore(s, m, id, state) {
  const f = s?.[m];
  if (typeof f !== "function") return [];
  return [await (state === undefined ? f.call(s, id) : f.call(s, id, JSON.parse(state)))];
}
