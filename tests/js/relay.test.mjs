// The built npm package in Node (resolved through package.json "exports"), against the scripted
// model on 127.0.0.1: relay calls resolved by the host whenever it chooses, durable halts that go
// through JSON into a brand-new client and toolkit, for both styles.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import {
  createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, isRelayRequest, RELAY_KIND,
} from "toolnexus-wasm";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

let model;
before(async () => { model = await startScriptedModel(); });
after(async () => { await model.close(); });

const STYLES = ["openai", "anthropic", "gemini"];
const base = (style) => (style === "openai" ? `${model.url}/v1` : model.url);
const client = (style, extra = {}) => createClient({ baseUrl: base(style), style, model: "scripted", apiKey: "sk-node-test", ...extra });

function toolkit(lookupCalls = []) {
  return createToolkit({
    tools: [
      defineTool({
        name: "lookup_price", description: "price of an item",
        inputSchema: { type: "object", properties: { item: { type: "string" } } },
        run: async ({ item }) => { lookupCalls.push(item); return `$1 for ${item}`; },
      }),
      relayTool("click", "click an element", { type: "object", properties: { selector: { type: "string" } } }),
    ],
  });
}

/** A host that parks relay requests until the test releases them. */
function parkingHost() {
  const parked = [];
  let notify;
  const waitFor = (request) => new Promise((resolve) => { parked.push({ request, resolve }); notify?.(); });
  const until = (n) => new Promise((r) => { const check = () => (parked.length >= n ? r() : (notify = check)); check(); });
  return { parked, waitFor, until };
}

for (const style of STYLES) {
  test(`${style}: a relay call stays open until the host resolves its Promise`, async () => {
    const host = parkingHost();
    let settled = false;
    const running = client(style, { waitFor: host.waitFor }).run("#default", { toolkit: toolkit() }).then((r) => { settled = true; return r; });
    await host.until(1);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(settled, false, "the run waits for the host");
    const { request, resolve } = host.parked[0];
    assert.equal(request.kind, RELAY_KIND);
    assert.equal(isRelayRequest(request), true);
    const [call] = relayCallsOf(request);
    assert.deepEqual(call.input, { selector: "#add-to-cart" });
    assert.equal(call.arguments, '{"selector":"#add-to-cart"}');
    resolve(relayAnswer(request.id, [{ id: call.id, output: "clicked for real", isError: false }]));
    const r = await running;
    assert.equal(r.status, "done");
    assert.equal(r.text, "Done. lookup_price → $1 for blue mug; click → clicked for real");
  });

  test(`${style}: three relay calls in one turn are all outstanding at once`, async () => {
    const host = parkingHost();
    const running = client(style, { waitFor: host.waitFor }).run("#three-clicks", { toolkit: toolkit() });
    await host.until(3); // a sequential loop would never get here: it would wait on the first
    assert.equal(host.parked.length, 3);
    for (const { request, resolve } of [...host.parked].reverse()) {
      const [call] = relayCallsOf(request);
      resolve({ id: request.id, ok: true, data: { output: `ok ${call.input.selector}` } }); // the shorthand
    }
    const r = await running;
    assert.equal(r.text, "Clicked: click → ok #a; click → ok #b; click → ok #c");
    assert.deepEqual(r.toolCalls.map((c) => c.output), ["ok #a", "ok #b", "ok #c"]);
  });

  test(`${style}: a real tool beside a declined relay call`, async () => {
    const lookups = [];
    const waitFor = async (request) => ({ id: request.id, ok: false, reason: "declined" });
    const r = await client(style, { waitFor }).run("#mixed", { toolkit: toolkit(lookups) });
    assert.deepEqual(lookups, ["red mug"]);
    assert.equal(r.status, "done");
    const click = r.toolCalls.find((c) => c.name === "click");
    assert.equal(click.output, "declined/expired: relay tool call click to the caller for execution");
    assert.equal(click.isError, true);
    assert.match(r.text, /lookup_price → \$1 for red mug; click → declined\/expired/);
  });

  test(`${style}: a durable halt resumes from JSON in a brand-new client and toolkit`, async () => {
    const lookups = [];
    const halted = await client(style).run("#mixed", { toolkit: toolkit(lookups) });
    assert.equal(halted.status, "pending");
    assert.equal(halted.schemaVersion, 2);
    const stored = JSON.stringify(halted);
    assert.ok(!stored.includes("sk-node-test"), "the key is never in the state");

    for (const form of ["state", "history+pending"]) {
      const saved = JSON.parse(stored);
      const [call] = relayCallsOf(saved.pending);
      const answer = relayAnswer(saved.pending.id, [{ id: call.id, output: `bought via ${form}` }]);
      const freshLookups = [];
      const opts = form === "state"
        ? { toolkit: toolkit(freshLookups), state: saved, answer }
        : { toolkit: toolkit(freshLookups), history: saved.messages, pending: saved.pending, answer };
      const r = await client(style).runWithAnswer(opts);
      assert.equal(r.status, "done", form);
      assert.equal(r.text, `Summary: lookup_price → $1 for red mug; click → bought via ${form}`);
      assert.deepEqual(freshLookups, [], "the completed real tool is not re-run");
      assert.equal(r.turns, 1);
    }
    assert.deepEqual(lookups, ["red mug"]);
  });
}

test("a pending result of one style resumes under the other style", async () => {
  const halted = JSON.parse(JSON.stringify(await client("openai").run("#mixed", { toolkit: toolkit() })));
  const [call] = relayCallsOf(halted.pending);
  const r = await client("anthropic").runWithAnswer({ toolkit: toolkit(), state: halted, answer: relayAnswer(halted.pending.id, [{ id: call.id, output: "moved" }]) });
  assert.equal(r.status, "done");
  assert.equal(r.style, "anthropic");
  assert.match(r.text, /click → moved/);
});

test("onMetric reports a relay suspension as pending, not as an error, and one run event", async () => {
  const events = [];
  const halted = await client("openai", { onMetric: (e) => events.push(e) }).run("#mixed", { toolkit: toolkit() });
  assert.equal(halted.status, "pending");
  const click = events.find((e) => e.event === "tool" && e.tool === "click");
  assert.deepEqual({ ...click, ms: 0 }, { event: "tool", tool: "click", source: "relay", isError: false, ms: 0, pending: true });
  assert.equal(events.filter((e) => e.event === "llm" && e.status === "ok").length, 1);
  const runs = events.filter((e) => e.event === "run");
  assert.equal(runs.length, 1);
  assert.equal(runs[0].error, undefined);
  assert.equal(events.at(-1).event, "run");
  // a sink that throws never breaks a run
  const r = await client("openai", { onMetric: () => { throw new Error("sink down"); } }).run("#hello", {});
  assert.equal(r.status, "done");
});
