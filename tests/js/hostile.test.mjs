// The package under attack, table-driven: hostile host values (thrown, rejected with, returned,
// or given as arguments) × every callback kind and every public entry point. Each case must
// settle (no hang) with a result or a typed `ToolnexusError` whose `code` is a stable one, nothing
// may escape to the host as an uncaught exception or unhandled rejection, and the wasm instance
// must keep working: a normal run follows every case.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import * as tn from "toolnexus-wasm";

const { createClient, createToolkit, defineTool, relayTool, pending, authRequired, relayAnswer, relayCallsOf, isRelayRequest, checkRevision } = tn;
const { memoryStore, kvStore, chromeStorageStore, durableObjectStore, Toolkit, Client, toolkitId, dropToolkit } = tn;

const escaped = [];
process.on("uncaughtException", (e) => escaped.push(e));
process.on("unhandledRejection", (e) => escaped.push(e));

const CODES = new Set(["bad_input", "provider_http", "provider_parse", "provider_error", "transport", "answer_mismatch", "bad_state", "relay_collision", "host_callback", "aborted", "store", "conversation_halted", "conflict"]);
const CASE_MS = 3000;
let cases = 0;

// ---- hostile values -------------------------------------------------------------------------

const revoked = (target = {}) => {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
};
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "defineProperty", "set", "deleteProperty", "apply", "construct", "isExtensible", "preventExtensions", "setPrototypeOf"];
const trapping = (target = {}) => new Proxy(target, Object.fromEntries(TRAPS.map((k) => [k, () => { throw new Error(`trap ${k}`); }])));
const getterThrows = (keys, what = new Error("getter")) => Object.defineProperties({}, Object.fromEntries(keys.map((k) => [k, { get() { throw what; }, enumerable: true }])));

/** Values a host could throw or reject with, each made fresh. */
const THROWN = {
  "an Error with a numeric message": () => Object.assign(new Error(), { message: 42 }),
  "an Error with an object message": () => Object.assign(new Error(), { message: { nested: true } }),
  "an Error with a Symbol message": () => Object.assign(new Error(), { message: Symbol("m") }),
  "an Error whose message getter throws": () => Object.defineProperty(new Error("x"), "message", { get() { throw new Error("message getter"); } }),
  "an Error whose name getter throws": () => Object.defineProperty(new Error("x"), "name", { get() { throw Symbol("name"); } }),
  "an Error whose code getter throws": () => Object.defineProperty(new Error("x"), "code", { get() { throw revoked(); } }),
  "a ToolnexusError-looking object with a Symbol code": () => ({ name: "ToolnexusError", code: Symbol("c"), message: 1 }),
  "a Symbol": () => Symbol("boom"),
  "a revoked Proxy": () => revoked(),
  "a revoked Proxy of an Error": () => revoked(new Error("x")),
  "a Proxy whose every trap throws": () => trapping(),
  "a Proxy of an Error whose every trap throws": () => trapping(new Error("x")),
  "an object with a throwing message getter": () => getterThrows(["message"]),
  "an object whose getters throw Symbols": () => getterThrows(["message", "name", "code", "toJSON"], Symbol("s")),
  "a frozen object": () => Object.freeze({ message: "frozen", code: "frozen" }),
  "null": () => null,
  "undefined": () => undefined,
  "a number": () => -1,
  "a BigInt": () => 10n,
  "a cyclic object": () => { const o = {}; o.self = o; return o; },
  "an object whose toJSON throws": () => ({ toJSON() { throw new Error("toJSON"); } }),
  "an object whose toString and toJSON throw": () => ({ toString() { throw new Error("toString"); }, toJSON() { throw 1; } }),
  "a function": () => () => {},
  "Object.create(null)": () => Object.create(null),
  "an empty string": () => "",
};

/** Values a host could return (or resolve to) where a value of some shape is expected. */
const RETURNED = {
  ...THROWN,
  "a Promise with its own throwing then": () => { const p = Promise.resolve(1); p.then = () => { throw new Error("own then"); }; return p; },
  "a Promise whose constructor getter throws": () => Object.defineProperty(Promise.resolve(1), "constructor", { get() { throw new Error("constructor"); } }),
  "a thenable whose then getter throws": () => getterThrows(["then"]),
  "a thenable that rejects with a revoked Proxy": () => ({ then(_, reject) { reject(revoked()); } }),
  "a thenable that throws a Symbol": () => ({ then() { throw Symbol("then"); } }),
  "a revoked Proxy of a function": () => revoked(() => {}),
  "an array whose index getter throws": () => Object.defineProperty([1], 0, { get() { throw new Error("index"); } }),
  "a huge number": () => 2 ** 64,
  "NaN": () => NaN,
  "a string": () => "str",
  "an array": () => [1, "a", null],
  "a Date": () => new Date(0),
};

/** Arguments of the wrong type (or hostile) for a public parameter. */
const ARGS = {
  ...RETURNED,
  "true": () => true,
  "a number 5": () => 5,
  "an empty object": () => ({}),
  "an empty array": () => [],
  "an object with throwing getters on every option": () => getterThrows(["toolkit", "history", "signal", "id", "state", "answer", "pending", "onText", "keepHistory", "tools", "messages", "name", "description", "run", "inputSchema", "revision", "kind", "prompt", "data", "calls"]),
};

// ---- the scripted model -----------------------------------------------------------------------

const KEY = "sk-hostile-secret";
const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const text = (t) => ({ choices: [{ message: { role: "assistant", content: t } }] });
const callOf = (name, id = "c1") => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }] } }] });
/** A reply body as an OpenAI stream: its text, or its tool calls, then the finish. */
const sse = ({ choices: [{ message: m }] }) => {
  const delta = m.tool_calls
    ? { tool_calls: m.tool_calls.map((c, index) => ({ index, ...c })) }
    : { content: m.content };
  const finish = m.tool_calls ? "tool_calls" : "stop";
  return [{ choices: [{ delta }] }, { choices: [{ delta: {}, finish_reason: finish }] }].map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
};
/** Replies in turn (the last repeats); a streamed request gets the same reply as SSE. */
const script = (...bodies) => {
  let i = 0;
  return async (url, init) => {
    const b = bodies[Math.min(i++, bodies.length - 1)];
    if (JSON.parse(init.body).stream) return new Response(sse(b), { headers: { "content-type": "text/event-stream" } });
    return json(b);
  };
};
const BASE = { baseUrl: "http://model.test/v1", style: "openai", model: "m", apiKey: KEY };
const client = (extra = {}) => createClient({ ...BASE, fetch: script(text("ok")), ...extra });
const tool = (run) => createToolkit({ tools: [defineTool({ name: "t", description: "a tool", run })] });
const relayKit = () => createToolkit({ tools: [relayTool("click", "clicks")] });

// ---- outcomes -----------------------------------------------------------------------------------

const tick = () => new Promise((r) => setImmediate(r));

/** Calls `f`, awaits a promise or drains an event stream; { ok, value } or { error }. */
async function outcome(f) {
  let timer;
  const hang = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`HUNG after ${CASE_MS} ms`)), CASE_MS); });
  const run = (async () => {
    const v = f();
    if (v !== null && typeof v === "object" && typeof v.next === "function" && typeof v[Symbol.asyncIterator] === "function") {
      const events = [];
      for await (const e of v) if (events.push(e) > 10000) break;
      return events;
    }
    return await v;
  })();
  try {
    return { ok: true, value: await Promise.race([run, hang]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("HUNG")) return { hung: true, error };
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** Why an outcome is wrong, or undefined. `codes`: the typed codes allowed on failure. */
function wrong(o, { codes = CODES, mustFail = false, check } = {}) {
  if (o.hung) return "hung";
  if (o.ok) {
    if (mustFail) return `succeeded: ${safe(o.value)}`;
    return check ? check(o.value) : undefined;
  }
  const e = o.error;
  if (!(e instanceof Error)) return `threw a non-Error: ${safe(e)}`;
  if (e.name !== "ToolnexusError") return `untyped ${e.name}: ${e.message}`;
  if (!codes.has(e.code)) return `code ${e.code} (${e.message}), expected one of ${[...codes]}`;
  if (String(e.message).includes(KEY)) return "the key is in the message";
}

function safe(v) {
  try {
    return JSON.stringify(v)?.slice(0, 200) ?? String(v);
  } catch {
    return "<unprintable>";
  }
}

/** The instance still works: a plain run on a fresh client, and a tool run. */
async function healthy() {
  const r = await client({ fetch: script(callOf("t"), text("fine")) }).run("hi", { toolkit: tool(() => "ran") });
  return r.status === "done" && r.text === "fine" && r.toolCalls[0].output === "ran";
}

/** Runs a table of cases: each is [name, () => outcome-producing call, expectations]. */
async function table(t, rows) {
  const failures = [];
  for (const [name, f, expect = {}] of rows) {
    cases++;
    const before = escaped.length;
    const o = await outcome(f);
    await tick();
    await tick();
    let why = wrong(o, expect);
    if (escaped.length > before) why = `escaped to the host: ${escaped.slice(before).map((e) => safe(String(e?.stack ?? e))).join("; ")}`;
    if (!why && !(await healthy().catch(() => false))) why = "the instance stopped working";
    if (why) failures.push(`${name}: ${why}`);
    if (why === "the instance stopped working") break;
  }
  t.diagnostic(`${rows.length} cases`);
  assert.deepEqual(failures, [], `${failures.length} of ${rows.length} cases failed`);
}

const only = (...codes) => ({ codes: new Set(codes) });
const fails = (...codes) => ({ codes: new Set(codes), mustFail: true });
const done = { check: (r) => (r?.status === "done" ? undefined : `status ${r?.status}`) };

// ---- 1. callbacks that throw, reject, or return hostile values ----------------------------------

/** Each way a callback can misbehave with a hostile value. */
const misbehaviours = (values) =>
  Object.entries(values).flatMap(([name, make]) => [
    [`throws ${name}`, () => { throw make(); }, "throw"],
    [`rejects with ${name}`, () => Promise.reject(make()), "reject"],
    [`returns ${name}`, () => make(), "return"],
  ]);

/** A drained stream had the tool's result and ended with a finished run. */
const streamDone = {
  check: (events) =>
    events?.some((e) => e.type === "tool_result") && events.at(-1)?.type === "done" && events.at(-1).result?.status === "done"
      ? undefined
      : `ended with ${safe(events?.at(-1))}`,
};

test("tools that throw, reject or return hostile values give results, never escapes", async (t) => {
  await table(t, misbehaviours(RETURNED).flatMap(([how, cb]) => [
    [`tool ${how}`, () => client({ fetch: script(callOf("t"), text("after")) }).run("go", { toolkit: tool(cb) }), done],
    [`tool ${how} (streamed)`, () => client({ fetch: script(callOf("t"), text("after")) }).stream("go", { toolkit: tool(cb) }), streamDone],
  ]));
});

test("waitFor that throws, rejects or returns hostile values stops the run with a code", async (t) => {
  await table(t, misbehaviours(RETURNED).flatMap(([how, cb, kind]) => [
    [`waitFor ${how}`, () => client({ fetch: script(callOf("click"), text("after")), waitFor: cb }).run("go", { toolkit: relayKit() }), kind === "return" ? {} : fails("host_callback")],
    [`waitFor ${how} (streamed, with a store)`, () => client({ fetch: script(callOf("click"), text("after")), waitFor: cb }).stream("go", { toolkit: relayKit(), id: "w" }), kind === "return" ? {} : fails("host_callback")],
  ]));
});

test("Responses whose status, headers, text() or body misbehave are transport errors", async (t) => {
  const rows = [];
  for (const [name, make] of Object.entries(THROWN)) {
    const shapes = {
      "a status getter that throws": () => Object.defineProperty({ text: async () => "{}" }, "status", { get() { throw make(); } }),
      "text() that throws": () => ({ status: 200, text() { throw make(); } }),
      "text() that rejects": () => ({ status: 200, text: async () => { throw make(); } }),
      "text() that resolves to it": () => ({ status: 200, text: async () => make() }),
      "a refusal whose headers.get throws": () => ({ status: 429, headers: { get() { throw make(); } }, text: async () => "slow down" }),
      "a body getter that throws (streamed)": () => Object.defineProperty({ status: 200, text: async () => "" }, "body", { get() { throw make(); } }),
    };
    for (const [shape, response] of Object.entries(shapes)) {
      const streamed = shape.endsWith("(streamed)");
      rows.push([`fetch resolving to ${shape} with ${name}`, () => {
        const c = client({ retries: 0, fetch: async () => response() });
        return streamed ? c.stream("go", {}) : c.run("go", {});
      }, fails("transport", "provider_parse", "provider_http")]);
    }
  }
  await table(t, rows);
});

test("hooks and bodyTransform that throw, reject or return hostile values", async (t) => {
  const rows = [];
  for (const hook of ["beforeLLM", "afterLLM", "beforeTool", "afterTool", "bodyTransform"]) {
    for (const [how, cb, kind] of misbehaviours(RETURNED)) {
      const opts = hook === "bodyTransform" ? { bodyTransform: cb } : { hooks: { [hook]: cb } };
      for (const streamed of [false, true]) {
        rows.push([
          `${hook} ${how}${streamed ? " (streamed)" : ""}`,
          () => client({ fetch: script(callOf("t"), text("after")), ...opts })[streamed ? "stream" : "run"]("go", { toolkit: tool(() => "ran") }),
          kind === "return" ? {} : fails("host_callback"),
        ]);
      }
    }
  }
  await table(t, rows);
});

test("onError that throws, rejects or returns hostile values", async (t) => {
  await table(t, misbehaviours(RETURNED).map(([how, cb, kind]) => [
    `onError ${how}`,
    () => client({ fetch: async () => json({ error: "down" }, 500), onError: cb, retries: 0 }).run("go", {}),
    // A returned thenable that rejects is a failed onError too.
    kind === "return" ? fails("provider_http", "host_callback") : fails("host_callback"),
  ]));
});

test("onMetric and onText that throw, reject or return hostile values never fail a run", async (t) => {
  const rows = [];
  for (const [how, cb] of misbehaviours(RETURNED)) {
    rows.push([`onMetric ${how}`, () => client({ fetch: script(callOf("t"), text("after")), onMetric: cb }).run("go", { toolkit: tool(() => "ran") }), done]);
    rows.push([`onText ${how}`, () => client({ fetch: script(text("streamed")) }).ask("go", { onText: cb }), done]);
  }
  await table(t, rows);
});

test("fetch that throws, rejects or resolves to hostile values is a transport error", async (t) => {
  await table(t, misbehaviours(RETURNED).flatMap(([how, cb]) => [
    [`fetch ${how}`, () => client({ fetch: cb, retries: 0 }).run("go", {}), fails("transport")],
    [`fetch ${how} (streamed)`, () => client({ fetch: cb, retries: 0 }).stream("go", {}), fails("transport")],
  ]));
});

test("a body reader that throws, rejects or yields hostile chunks", async (t) => {
  /** A Response-like whose reader's `read()` does `how` once, then ends. */
  const withReader = (read) => {
    let n = 0;
    const reader = { read: () => (n++ === 0 ? read() : Promise.resolve({ done: true })), releaseLock() {}, cancel: async () => {} };
    return async () => ({ status: 200, headers: new Headers(), body: { getReader: () => reader }, text: async () => "" });
  };
  const rows = [];
  for (const [how, cb] of misbehaviours(RETURNED)) {
    rows.push([`read() ${how}`, () => client({ retries: 0, fetch: withReader(cb) }).stream("go", {}), fails("transport", "provider_parse")]);
  }
  for (const [name, make] of Object.entries(RETURNED)) {
    rows.push([`read() yields { done: false, value: ${name} }`, () => client({ retries: 0, fetch: withReader(() => ({ done: false, value: make() })) }).stream("go", {}), fails("transport", "provider_parse")]);
  }
  rows.push([`read() yields -1`, () => client({ retries: 0, fetch: withReader(() => -1) }).stream("go", {}), fails("transport", "provider_parse")]);
  rows.push([`read() yields { done: false, value: 42 }`, () => client({ retries: 0, fetch: withReader(() => ({ done: false, value: 42 })) }).stream("go", {}), fails("transport", "provider_parse")]);
  rows.push([`getReader() throws a revoked Proxy`, () => client({ retries: 0, fetch: async () => ({ status: 200, body: { getReader() { throw revoked(); } }, text: async () => "" }) }).stream("go", {}), {}]);
  await table(t, rows);
});

test("stores whose get, save or delete throw, reject or return hostile values", async (t) => {
  const store = (method, cb) => {
    const s = memoryStore();
    return { get: s.get, save: s.save, delete: s.delete, [method]: cb };
  };
  const rows = [];
  for (const [how, cb, kind] of misbehaviours(RETURNED)) {
    const failed = kind === "return" ? {} : fails("store", "conflict");
    rows.push([`store.get ${how}`, () => client({ store: store("get", cb) }).ask("go", { id: "c" }), kind === "return" ? {} : fails("store")]);
    rows.push([`store.save ${how}`, () => client({ store: store("save", cb) }).ask("go", { id: "c" }), kind === "return" ? done : failed]);
    rows.push([`store.delete ${how}`, () => client({ store: store("delete", cb) }).discard("c"), kind === "return" ? {} : fails("store")]);
    rows.push([`store.get ${how} (streamed)`, () => client({ store: store("get", cb) }).stream("go", { id: "c" }), kind === "return" ? {} : fails("store")]);
    rows.push([`store.get ${how} (resume)`, () => client({ store: store("get", cb) }).askWithAnswer({ id: "c", answer: { id: "p", ok: true } }), kind === "return" ? {} : fails("store", "bad_input", "bad_state")]);
  }
  await table(t, rows);
});

// ---- 2. hostile values as arguments of every public entry point ---------------------------------

/** Public entry points, each taking one hostile argument `v`; `string`: v must be a string there. */
function entryPoints() {
  const c = () => client({ fetch: script(text("ok")) });
  const answer = { id: "p", ok: true };
  const state = { schemaVersion: 1, status: "done", messages: [] };
  const kv = { get: async () => null, put: async () => {}, delete: async () => {} };
  return {
    "createClient(v)": [(v) => createClient(v)],
    "createClient({ headers: v })": [(v) => createClient({ ...BASE, headers: v })],
    "createClient({ hooks: v })": [(v) => createClient({ ...BASE, hooks: v })],
    "createClient({ store: v })": [(v) => createClient({ ...BASE, store: v })],
    "createClient({ waitFor: v })": [(v) => createClient({ ...BASE, waitFor: v })],
    "createClient({ fetch: v })": [(v) => createClient({ ...BASE, fetch: v })],
    "createClient({ onError: v })": [(v) => createClient({ ...BASE, onError: v })],
    "createClient({ model: v })": [(v) => createClient({ ...BASE, model: v })],
    "createClient({ timeoutMs: v })": [(v) => createClient({ ...BASE, timeoutMs: v })],
    "client.run(v)": [(v) => c().run(v, {}), "string"],
    "client.run(prompt, v)": [(v) => c().run("x", v)],
    "client.run(prompt, { toolkit: v })": [(v) => c().run("x", { toolkit: v })],
    "client.run(prompt, { history: v })": [(v) => c().run("x", { history: v })],
    "client.run(prompt, { signal: v })": [(v) => c().run("x", { signal: v })],
    "client.runWithAnswer(v)": [(v) => c().runWithAnswer(v)],
    "client.runWithAnswer({ state: v })": [(v) => c().runWithAnswer({ state: v, answer })],
    "client.runWithAnswer({ pending: v })": [(v) => c().runWithAnswer({ history: [], pending: v, answer })],
    "client.runWithAnswer({ answer: v })": [(v) => c().runWithAnswer({ history: [], pending: { id: "p" }, answer: v })],
    "client.ask(v)": [(v) => c().ask(v, {}), "string"],
    "client.ask(prompt, v)": [(v) => c().ask("x", v)],
    "client.ask(prompt, { id: v })": [(v) => c().ask("x", { id: v })],
    "client.ask(prompt, { onText: v })": [(v) => c().ask("x", { onText: v })],
    "client.askWithAnswer(v)": [(v) => c().askWithAnswer(v)],
    "client.askWithAnswer({ id: v })": [(v) => c().askWithAnswer({ id: v, answer })],
    "client.stream(v)": [(v) => c().stream(v, {}), "string"],
    "client.stream(prompt, v)": [(v) => c().stream("x", v)],
    "client.stream(prompt, { toolkit: v })": [(v) => c().stream("x", { toolkit: v })],
    "client.streamWithAnswer(v)": [(v) => c().streamWithAnswer(v)],
    "client.translate(v)": [(v) => c().translate(v)],
    "client.translate({ messages: v })": [(v) => c().translate({ messages: v })],
    "client.translateStream(v)": [(v) => c().translateStream(v)],
    "client.discard(v)": [(v) => c().discard(v), "string"],
    "client.discard(id, v)": [(v) => c().discard("x", v)],
    "defineTool(v)": [(v) => defineTool(v)],
    "defineTool({ name: v })": [(v) => defineTool({ name: v, description: "d", run: () => 1 })],
    "defineTool({ description: v })": [(v) => defineTool({ name: "n", description: v, run: () => 1 })],
    "defineTool({ run: v })": [(v) => defineTool({ name: "n", description: "d", run: v })],
    "defineTool({ inputSchema: v })": [(v) => defineTool({ name: "n", description: "d", inputSchema: v, run: () => 1 })],
    "relayTool(v)": [(v) => relayTool(v), "string"],
    "relayTool(name, v)": [(v) => relayTool("n", v)],
    "relayTool(name, description, v)": [(v) => relayTool("n", "d", v)],
    "createToolkit(v)": [(v) => createToolkit(v)],
    "createToolkit({ tools: v })": [(v) => createToolkit({ tools: v })],
    "createToolkit([v])": [(v) => createToolkit([v])],
    "new Toolkit(v)": [(v) => new Toolkit(v)],
    "toolkit.add(v)": [(v) => createToolkit([]).add(v)],
    "pending(v)": [(v) => pending(v)],
    "authRequired(v)": [(v) => authRequired(v), "string"],
    "authRequired(url, v)": [(v) => authRequired("https://login.test", v)],
    "relayAnswer(v, [])": [(v) => relayAnswer(v, []), "string"],
    "relayAnswer(id, v)": [(v) => relayAnswer("p", v)],
    "relayCallsOf(v)": [(v) => relayCallsOf(v)],
    "isRelayRequest(v)": [(v) => isRelayRequest(v)],
    "checkRevision(v, state)": [(v) => checkRevision(v, state)],
    "checkRevision(undefined, v)": [(v) => checkRevision(undefined, v)],
    "memoryStore().get(v)": [(v) => memoryStore().get(v), "string"],
    "memoryStore().save(v, state)": [(v) => memoryStore().save(v, state), "string"],
    "memoryStore().save(id, v)": [(v) => memoryStore().save("id", v)],
    "memoryStore().delete(v)": [(v) => memoryStore().delete(v), "string"],
    "kvStore(v)": [(v) => kvStore(v)],
    "kvStore(kv, v)": [(v) => kvStore(kv, v)],
    "kvStore(kv).get(v)": [(v) => kvStore(kv).get(v), "string"],
    "chromeStorageStore(v)": [(v) => chromeStorageStore(v)],
    "chromeStorageStore().get(v)": [(v) => chromeStorageStore().get(v), "string"],
    "durableObjectStore(v)": [(v) => durableObjectStore(v)],
    "toolkitId(v, {})": [(v) => toolkitId(v, {})],
    "dropToolkit(v)": [(v) => dropToolkit(v)],
  };
}

test("every public entry point answers hostile arguments with a result or a typed error", async (t) => {
  const rows = [];
  for (const [entry, [call, kind]] of Object.entries(entryPoints())) {
    for (const [name, make] of Object.entries(ARGS)) {
      rows.push([`${entry} with ${name}`, () => call(make())]);
    }
  }
  await table(t, rows);
});

test("a parameter typed string answers any other value with bad_input", async (t) => {
  const rows = [];
  for (const [entry, [call, kind]] of Object.entries(entryPoints())) {
    if (kind !== "string") continue;
    for (const [name, make] of Object.entries(ARGS)) {
      const v = make();
      if (typeof v === "string") continue;
      rows.push([`${entry} with ${name}`, () => call(v), fails("bad_input")]);
    }
  }
  await table(t, rows);
});

// ---- 3. misuse: freed clients, concurrent next(), forged toolkits, throwing option getters ---------

test("use after free(), concurrent next() and forged toolkits are typed bad_input", async (t) => {
  const freed = () => {
    const c = client();
    c.free();
    return c;
  };
  const forged = Object.create(Toolkit.prototype);
  const real = tool(() => "secret");
  const rows = [
    ...["run", "ask", "stream"].map((m) => [`freed client.${m}()`, () => freed()[m]("x", {}), fails("bad_input")]),
    ...["runWithAnswer", "askWithAnswer", "streamWithAnswer", "translate", "translateStream"].map((m) => [`freed client.${m}()`, () => freed()[m]({}), fails("bad_input")]),
    ["freed client.discard()", () => freed().discard("x"), fails("bad_input")],
    ["freed client.metrics()", () => freed().metrics(), fails("bad_input")],
    ["freed client.conversationStore()", () => freed().conversationStore(), fails("bad_input")],
    ["freed client.style", () => freed().style, fails("bad_input")],
    ["freed client.model", () => freed().model, fails("bad_input")],
    ["client freed twice", () => freed().free(), {}],
    ["a Client not made by createClient", () => Object.create(Client.prototype).run("x", {}), fails("bad_input")],
    ["concurrent EventStream.next()", async () => {
      const s = client({ fetch: async () => new Promise(() => {}) }).stream("x", {});
      const first = s.next();
      first.catch(() => {});
      try {
        await s.next();
      } finally {
        s.return();
      }
    }, fails("bad_input")],
    ["a plain { id } as the toolkit", () => client().run("x", { toolkit: { id: 1 } }), fails("bad_input")],
    ["a plain { __toolnexusToolkit } as the toolkit", () => client().run("x", { toolkit: { __toolnexusToolkit: 1 } }), fails("bad_input")],
    ["Object.create(Toolkit.prototype) as the toolkit", () => client().run("x", { toolkit: forged }), fails("bad_input")],
    ["a copy of a real toolkit's fields", () => client({ fetch: script(callOf("t"), text("after")) }).run("x", { toolkit: { ...real } }), fails("bad_input")],
    ...["toolkit", "history", "signal", "onText", "id"].map((k) => [`a throwing ${k} getter on ask options`, () => client().ask("x", getterThrows([k])), fails("bad_input")]),
    ...["state", "answer", "pending", "history", "id"].map((k) => [`a throwing ${k} getter on resume options`, () => client().runWithAnswer(getterThrows([k])), fails("bad_input")]),
    ...["baseUrl", "style", "model", "store", "hooks", "waitFor", "fetch", "headers"].map((k) => [`a throwing ${k} getter on createClient options`, () => createClient(Object.defineProperties({ ...BASE }, Object.getOwnPropertyDescriptors(getterThrows([k])))), fails("bad_input")]),
    ["a revoked Proxy as createClient options", () => createClient(revoked()), fails("bad_input")],
    ["a revoked Proxy as headers", () => createClient({ ...BASE, headers: revoked() }), fails("bad_input")],
    ["a revoked Proxy as the toolkit", () => client().run("x", { toolkit: revoked() }), fails("bad_input")],
    ["a revoked Proxy as the history", () => client().run("x", { history: revoked() }), fails("bad_input")],
    ["a revoked Proxy as the options", () => client().run("x", revoked()), fails("bad_input")],
    ["a revoked Proxy as the signal", () => client().run("x", { signal: revoked() }), fails("bad_input")],
    ["a revoked Proxy as the store", () => createClient({ ...BASE, store: revoked() }), fails("bad_input")],
    ["a toolkit whose tools array is a trapping Proxy", () => client().run("x", { toolkit: { tools: trapping([]) } }), fails("bad_input")],
    ["a toolkit whose tools array has a throwing index getter", () => client().run("x", { toolkit: { tools: Object.defineProperty([1], 0, { get() { throw Symbol(); } }) } }), fails("bad_input")],
  ];
  await table(t, rows);
  // The real toolkit still runs its own tool after all that.
  const r = await client({ fetch: script(callOf("t"), text("after")) }).run("x", { toolkit: real });
  assert.equal(r.toolCalls[0].output, "secret");
});

// ---- 4. forged `this` on Toolkit, a freed toolkit, signals that turn hostile after the check ----

test("Toolkit methods on a forged this, and a freed toolkit, are typed bad_input", async (t) => {
  const { get } = Object.getOwnPropertyDescriptor(Toolkit.prototype, "tools");
  const t1 = () => defineTool({ name: "t1", description: "one more", run: () => "1" });
  const freedKit = () => {
    const k = tool(() => "freed");
    k.free();
    return k;
  };
  const rows = [
    ...[{}, 5, null, undefined, Object.create(Toolkit.prototype), revoked(), trapping()].flatMap((v, i) => [
      [`Toolkit.prototype.add on forged this #${i}`, () => Toolkit.prototype.add.call(v, t1()), fails("bad_input")],
      [`the tools getter on forged this #${i}`, () => get.call(v), fails("bad_input")],
      [`Toolkit.prototype.free on forged this #${i}`, () => Toolkit.prototype.free.call(v), fails("bad_input")],
    ]),
    ["add after free()", () => freedKit().add(t1()), fails("bad_input")],
    ["a run with a freed toolkit", () => client({ fetch: script(callOf("t"), text("ran")) }).run("x", { toolkit: freedKit() }), fails("bad_input")],
    ["a run with a freed toolkit after a refused add", () => {
      const k = freedKit();
      try {
        k.add(t1());
      } catch {}
      return client({ fetch: script(callOf("t1"), text("ran")) }).run("x", { toolkit: k });
    }, fails("bad_input")],
    ["a toolkit freed twice", () => freedKit().free(), {}],
  ];
  await table(t, rows);
});

test("a signal that throws after the run's check: a typed error or a finished run, never an escape", async (t) => {
  // Passes runOptions' check (the first reads), then every read or call throws.
  const later = (n = 2) => {
    let reads = 0;
    const c = new AbortController();
    return new Proxy(c.signal, { get(o, k) { if (++reads > n) throw new Error("later"); const v = Reflect.get(o, k, o); return typeof v === "function" ? v.bind(o) : v; } });
  };
  const secondRead = () => { let n = 0; return { get aborted() { if (n++) throw Symbol("aborted"); return false; }, addEventListener() {}, removeEventListener() { throw revoked(); } }; };
  const listenerThrows = () => ({ aborted: false, addEventListener() { throw trapping(); } });
  const abortedWith = (reason) => { const c = new AbortController(); c.abort(reason); return c.signal; };
  const reasonThrows = () => ({ aborted: true, get reason() { throw new Error("reason"); }, addEventListener() {} });
  // Aborts during the tool (the listener fires from host code) with a reason that throws.
  const firesLater = () => { const o = { aborted: false, get reason() { throw new Error("reason"); }, addEventListener(_, f) { o.fire = f; } }; return o; };
  // `extra` are client options (the deadline, `timeoutMs`, is the client's: run refuses it).
  const run = (signal, extra = {}) => client({ fetch: script(callOf("t"), text("fine")), ...extra }).run("x", { toolkit: tool(() => "ran"), signal });
  const rows = [];
  for (const [name, make] of Object.entries({ "a Proxy whose reads throw after the check": later, "an aborted getter that throws on the second read": secondRead, "an addEventListener that throws": listenerThrows })) {
    rows.push([`${name}: run`, () => run(make()), done]);
    rows.push([`${name}: run with timeoutMs`, () => run(make(), { timeoutMs: 2000 }), done]);
    rows.push([`${name}: stream`, () => client({ fetch: script(callOf("t"), text("fine")) }).stream("x", { toolkit: tool(() => "ran"), signal: make() }), streamDone]);
  }
  rows.push(
    ["a signal aborted with a reason whose getters throw", () => run(abortedWith(getterThrows(["name", "message", "stack"]))), fails("aborted")],
    ["a signal aborted with a revoked Proxy as its reason", () => run(abortedWith(revoked()), { timeoutMs: 2000 }), fails("aborted")],
    ["an aborted signal whose reason getter throws", () => run(reasonThrows()), fails("aborted")],
    ["a signal that fires during a tool with a throwing reason", () => {
      const s = firesLater();
      return client({ fetch: script(callOf("t"), text("fine")) }).run("x", { signal: s, toolkit: tool(() => new Promise((r) => setTimeout(() => (s.fire(), r("late")), 5))) });
    }, fails("aborted")],
  );
  await table(t, rows);
});

after(() => {
  console.log(`# hostile cases: ${cases}`);
  assert.deepEqual(escaped.map(String), [], "nothing escaped to the host");
});
