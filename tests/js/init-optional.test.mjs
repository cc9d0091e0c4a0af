// The browser entry (index.js) with no `init()`: everything a service worker does at module level
// works before the wasm module is loaded, and the first call that needs it loads it. Node's own
// entry compiles the module on import, so this file imports the browser entry by path and gives
// the glue a `fetch` for the `file:` URL of the `.wasm` beside it (counted), as a browser's fetch
// of the extension's own file would. `node --test` runs each file in its own process, so nothing
// here has loaded the module before.
import test from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { scripted, opts, DONE } from "./scripted-fetch.mjs";

const pkgDir = path.dirname(createRequire(import.meta.url).resolve("toolnexus-wasm/package.json"));
const wasmFetches = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const u = String(url instanceof Request ? url.url : url);
  if (!u.startsWith("file:")) return realFetch(url, init);
  wasmFetches.push(u);
  return new Response(await readFile(new URL(u)), { headers: { "content-type": "application/wasm" } });
};

// A CSP refusal, as Chromium words it, for the first load only.
const CSP = "WebAssembly.instantiateStreaming(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"";
// The glue compiles a Response of type application/wasm with instantiateStreaming (Node's own
// fetch compiles its parser with WebAssembly.instantiate, which is left alone).
const { instantiateStreaming } = WebAssembly;
let refuse = true;
WebAssembly.instantiateStreaming = (...a) => (refuse ? Promise.reject(new WebAssembly.CompileError(CSP)) : instantiateStreaming(...a));

const tn = await import(path.join(pkgDir, "index.js"));
const mcp = await import(path.join(pkgDir, "mcp/index.js"));
const { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, memoryStore, jsonSchema, ToolnexusError } = tn;

// Module level, as a service worker's top level: nothing here may need the wasm.
const lookups = [];
const lookup = defineTool({
  name: "lookup_price",
  description: "The price of an item",
  inputSchema: jsonSchema({ type: "object", properties: { item: { type: "string" } }, required: ["item"] }),
  run: async ({ item }) => (lookups.push(item), `$12.50 for ${item}`),
});
const click = relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } } });
const toolkit = createToolkit({ tools: [lookup, click] });
const store = memoryStore();
const early = relayAnswer("pnd-1", [{ id: "call_1", output: "clicked" }]);
// Made before the load too: a tool without `run` (refused when a run first needs it), a client
// with a misspelt option (refused at its first call), a client that streams.
const badKit = createToolkit({ tools: [defineTool({ name: "x", description: "no run" })] });
const misspelt = createClient({ ...opts(scripted(DONE)), baseURL: "https://api.openai.com/v1" });
const streamer = createClient(opts(scripted([["lookup_price", { item: "red mug" }]], DONE)));
const firstClient = createClient(opts(scripted(DONE)));
// The MCP entry's declarations, before its own module loaded: the builtins stand as one entry.
const withBuiltins = createToolkit({ tools: [...mcp.builtinTools(["todowrite"]), lookup] });
test("before the load every export of the browser entry is usable, or says what to do in a handler", () => {
  const readers = ["pending", "authRequired", "isRelayRequest", "relayCallsOf", "checkRevision"];
  for (const name of readers) {
    assert.throws(() => tn[name]({ id: "x", kind: "tool_call" }), (e) => e instanceof ToolnexusError && e.code === "bad_state" && e.message.startsWith(`${name}: the wasm module is not loaded yet: \`await init()\` first, in this handler`), name);
  }
  // The rest: the declarations, the stores, the classes and the loaders, none of which throws here.
  const kv = { get: async () => null, put: async () => {}, delete: async () => {} };
  const made = {
    defineTool: () => tn.defineTool({ name: "t", run: () => "" }),
    relayTool: () => tn.relayTool("r"),
    createToolkit: () => tn.createToolkit([]),
    createClient: () => tn.createClient({ style: "openai", model: "m", baseUrl: "http://x" }),
    relayAnswer: () => tn.relayAnswer("p", []),
    jsonSchema: () => tn.jsonSchema({ type: "object" }),
    memoryStore: () => tn.memoryStore(),
    chromeStorageStore: () => tn.chromeStorageStore(),
    kvStore: () => tn.kvStore(kv),
    durableObjectStore: () => tn.durableObjectStore({ idFromName: () => 1, get: () => ({}) }),
  };
  for (const [name, f] of Object.entries(made)) assert.doesNotThrow(f, name);
  const functions = Object.keys(tn).filter((k) => typeof tn[k] === "function" && !/^[A-Z]/.test(k));
  const covered = new Set([...readers, ...Object.keys(made), "init", "initSync", "toolkitId", "dropToolkit"]);
  assert.deepEqual(functions.filter((k) => !covered.has(k)), [], "an export this test does not know");
  assert.equal(wasmFetches.length, 0);
});

test("declarations made before the module loaded are data, and fetch nothing", () => {
  assert.equal(wasmFetches.length, 0);
  assert.equal(lookup.name, "lookup_price");
  assert.equal(click.name, "click");
  assert.deepEqual(toolkit.tools.map((t) => t.name), ["lookup_price", "click"]);
  assert.deepEqual(early, { id: "pnd-1", ok: true, data: { results: [{ id: "call_1", output: "clicked" }] } });
  assert.throws(() => relayCallsOf({ id: "x", kind: "tool_call" }), (e) => e instanceof ToolnexusError && e.code === "bad_state" && /`await init\(\)` first, in this handler/.test(e.message));
});

test("a failed load names the fix (a CSP refusal: 'wasm-unsafe-eval' and the manifest key), and can be tried again", async () => {
  await assert.rejects(firstClient.run("hi"), (e) => {
    assert.ok(e instanceof ToolnexusError, String(e));
    assert.equal(e.code, "bad_state");
    assert.match(e.message, /add 'wasm-unsafe-eval' to script-src \(not 'unsafe-eval'\)/);
    assert.match(e.message, /"content_security_policy": \{ "extension_pages": "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" \}/);
    assert.ok(e.cause instanceof WebAssembly.CompileError);
    return true;
  });
  // A store made before the load loads the module for its revision check (not the glue's TypeError).
  await assert.rejects(memoryStore().save("c", { schemaVersion: 2, style: "openai", messages: [], revision: 1 }), (e) => e.code === "bad_state" && /wasm-unsafe-eval/.test(e.message));
  refuse = false;
  await memoryStore().save("c", { schemaVersion: 2, style: "openai", messages: [], revision: 1 });
  const r = await firstClient.run("hi");
  assert.equal(r.status, "done");
});

test("a client made at module level answers style/model/store at once and runs, with a toolkit declared before the load", async () => {
  const m = scripted([["lookup_price", { item: "blue mug" }]], DONE);
  const client = createClient(opts(m, { store }));
  assert.equal(client.style, "openai");
  assert.equal(client.model, "m");
  assert.equal(client.conversationStore(), store);
  const r = await client.run("What does the blue mug cost?", { toolkit });
  assert.equal(r.status, "done");
  assert.equal(r.text, "lookup_price: $12.50 for blue mug");
  assert.deepEqual(lookups, ["blue mug"]);
  assert.equal(wasmFetches.length, 3, "the two refused loads and the one that worked; no load since");
  // Once bound, the toolkit's tools are the declarations as made after the load.
  assert.equal(toolkit.tools.find((t) => t.name === "click").source, "relay");
});

test("a halted run resumes with an answer made before the module loaded", async () => {
  const m = scripted([["click", { selector: "#buy" }]], DONE);
  const client = createClient(opts(m));
  const halted = await client.run("Buy it", { toolkit });
  assert.equal(halted.status, "pending");
  const [call] = relayCallsOf(halted.pending);
  // The shape relayAnswer gives before the load is the one the run reads.
  const answer = { ...early, id: halted.pending.id, data: { results: [{ ...early.data.results[0], id: call.id }] } };
  const r = await client.runWithAnswer({ state: halted, answer, toolkit });
  assert.equal(r.status, "done");
  assert.equal(r.text, "click: clicked");
});

test("after the load, declarations are checked when made, as before", () => {
  assert.throws(() => defineTool({ name: "x", description: "no run" }), (e) => e.code === "bad_input" && /has no run function/.test(e.message));
});

test("a tool declared badly before the load is refused when a run first needs it, with the same message", async () => {
  for (let i = 0; i < 2; i++) {
    await assert.rejects(createClient(opts(scripted(DONE))).run("hi", { toolkit: badKit }), (e) => e.code === "bad_input" && e.message === "tool x has no run function; use relayTool() for a declaration-only tool");
  }
});

test("a client made before the load refuses its misspelt option at each call, as createClient would have", async () => {
  for (let i = 0; i < 2; i++) {
    await assert.rejects(misspelt.run("hi"), (e) => e.code === "bad_input" && /unknown option "baseURL"; did you mean baseUrl\?/.test(e.message));
  }
});

test("a client made before the load streams: the stream exists at once and carries the run's events", async () => {
  const types = [];
  let done;
  for await (const e of streamer.stream("And the red one?", { toolkit })) {
    types.push(e.type);
    if (e.type === "done") done = e.result;
  }
  assert.ok(types.includes("tool_call") && types.includes("tool_result"), types.join(","));
  assert.equal(done.text, "lookup_price: $12.50 for red mug");
});

test("a toolkit with the MCP entry's declarations made before its module loaded: each made in its place when a run needs them", async () => {
  assert.equal(withBuiltins.tools.length, 2);
  const todos = [{ content: "buy the mug", status: "pending", priority: "high", id: "1" }];
  const m = scripted([["todowrite", { todos }], ["lookup_price", { item: "mug" }]], DONE);
  const r = await createClient(opts(m)).run("Plan it", { toolkit: withBuiltins });
  assert.equal(r.status, "done");
  assert.deepEqual(withBuiltins.tools.map((t) => t.name), ["todowrite", "lookup_price"]);
  assert.deepEqual(r.toolCalls.map((c) => [c.name, c.isError]), [["todowrite", false], ["lookup_price", false]]);
});
