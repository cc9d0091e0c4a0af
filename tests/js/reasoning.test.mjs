// Reasoning state across a real halt: a Gemini 3 tool loop (thought signatures), an Anthropic
// thinking + tools loop and an OpenAI Responses loop (encrypted reasoning items) each run two
// tool turns against a stand-in that checks every follow-up request as the real API does
// (tests/js/strict-models.mjs), halt on a relay call, go through JSON into a brand-new Node
// process that resumes them, and finish. A conversation moved to another provider or model
// never replays foreign reasoning.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createClient, createToolkit, defineTool, relayTool } from "toolnexus-wasm";
import { strictFetch, MODELS, THOUGHT, sig, DUMMY } from "./strict-models.mjs";

const STYLE = { gemini: "gemini", anthropic: "anthropic", responses: "responses" };
const PARAMS = { anthropic: { thinking: { type: "enabled", budget_tokens: 1024 } } };

function toolkit() {
  return createToolkit({
    tools: [
      defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$3 for ${item}` }),
      relayTool("click", "click an element", { type: "object", properties: { selector: { type: "string" } } }),
    ],
  });
}

/** @param {"gemini"|"anthropic"|"responses"} api */
function client(api, seen, model = MODELS[api]) {
  return createClient({ baseUrl: "http://model.test/v1", style: STYLE[api], model, apiKey: "sk-strict", fetch: strictFetch(api, seen), requestParams: PARAMS[api] });
}

/** Resumes `state` in a new Node process with a client of `api` / `model`; its result. */
async function resumeElsewhere(api, model, state, params = PARAMS[api]) {
  const script = `
    import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf } from "toolnexus-wasm";
    import { strictFetch } from "./strict-models.mjs";
    const state = JSON.parse(process.env.STATE);
    const seen = [];
    const client = createClient({ baseUrl: "http://model.test/v1", style: process.env.STYLE, model: process.env.MODEL, apiKey: "sk-strict", fetch: strictFetch(process.env.API, seen), requestParams: JSON.parse(process.env.PARAMS) });
    const toolkit = createToolkit({ tools: [
      defineTool({ name: "lookup_price", description: "price", run: async () => "unused" }),
      relayTool("click", "click an element"),
    ] });
    const [call] = relayCallsOf(state.pending);
    const result = await client.runWithAnswer({ toolkit, state, answer: relayAnswer(state.pending.id, [{ id: call.id, output: "clicked #buy", isError: false }]) });
    process.stdout.write(JSON.stringify({ result, seen }));`;
  const env = { ...process.env, STATE: JSON.stringify(state), STYLE: STYLE[api], MODEL: model, API: api, PARAMS: JSON.stringify(params ?? null) };
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: new URL(".", import.meta.url), env });
  let out = "", err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise((r) => child.on("exit", r));
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

for (const api of ["gemini", "anthropic", "responses"]) {
  test(`${api}: reasoning state survives two tool turns, a halt, JSON and a fresh process`, async () => {
    const seen = [];
    const halted = await client(api, seen).run("buy a mug", { toolkit: toolkit() });
    assert.equal(halted.status, "pending", JSON.stringify(halted));
    assert.equal(seen.length, 2, "the second call was accepted: the first turn's reasoning went back");
    assert.equal(halted.finishReason, "tool_calls");
    assert.equal(halted.reasoning, `${THOUGHT(0)}\n\n${THOUGHT(1)}`, "one call's reasoning after another's, a blank line between");
    assert.ok(!halted.text.includes("Thinking"), "reasoning never joins the text");
    // Reasoning tokens are part of the completion; Gemini reports its thoughts apart (7 a call).
    const usage = { gemini: [24, 14], anthropic: [10, undefined], responses: [10, 6] }[api];
    assert.deepEqual([halted.usage.completionTokens, halted.usage.reasoningTokens], usage);
    const stored = JSON.stringify(halted);
    assert.ok(stored.includes(sig(MODELS[api], 1)), "the state keeps the reasoning state");
    assert.ok(!stored.includes("sk-strict"), "and never the key");

    const { result, seen: later } = await resumeElsewhere(api, MODELS[api], JSON.parse(stored));
    assert.equal(result.status, "done", JSON.stringify(result));
    assert.equal(later.length, 1);
    const wire = JSON.stringify(later[0]);
    assert.ok(wire.includes(sig(MODELS[api], 0)) && wire.includes(sig(MODELS[api], 1)), "both turns' reasoning went back");
    assert.match(result.text, /^Bought\. .*\$3 for mug.*clicked #buy/);
    assert.equal(result.finishReason, "stop");
    assert.equal(result.reasoning, THOUGHT(2));
  });
}

test("anthropic → gemini 3: thinking blocks are dropped, the calls carry the documented dummy signature", async () => {
  const halted = await client("anthropic", []).run("buy a mug", { toolkit: toolkit() });
  const { result, seen } = await resumeElsewhere("gemini", MODELS.gemini, halted);
  assert.equal(result.status, "done", JSON.stringify(result));
  const wire = JSON.stringify(seen[0]);
  assert.ok(!wire.includes("sig:claude") && !wire.includes('"thinking"'), wire);
  const calls = seen[0].contents.filter((c) => c.role === "model").map((c) => c.parts.find((p) => p.functionCall));
  assert.deepEqual(calls.map((p) => p.thoughtSignature), [DUMMY, DUMMY]);
});

test("gemini → another gemini model, and gemini → anthropic: no foreign signature is replayed", async () => {
  const halted = await client("gemini", []).run("buy a mug", { toolkit: toolkit() });
  const flash = await resumeElsewhere("gemini", "gemini-3-flash-preview", halted);
  assert.equal(flash.result.status, "done", JSON.stringify(flash.result));
  assert.ok(!JSON.stringify(flash.seen[0]).includes("sig:gemini-3-pro"), "the other model's signatures stay home");
  // Without thinking: a tool turn another provider made has no thinking block to start with,
  // which the real API refuses when thinking is on (the stand-in too).
  const claude = await resumeElsewhere("anthropic", MODELS.anthropic, { ...halted }, null);
  assert.equal(claude.result.status, "done", JSON.stringify(claude.result));
  assert.ok(!JSON.stringify(claude.seen[0]).includes("sig:"), JSON.stringify(claude.seen[0]));
});

test("responses → another model: its reasoning items are not sent", async () => {
  const halted = await client("responses", []).run("buy a mug", { toolkit: toolkit() });
  const seen = [];
  const other = createClient({ baseUrl: "http://model.test/v1", style: "responses", model: "gpt-5", apiKey: "k", fetch: async (url, init) => { seen.push(JSON.parse(init.body)); return new Response(JSON.stringify({ id: "r", object: "response", status: "completed", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] }], usage: { input_tokens: 1, output_tokens: 1 } })); } });
  const { relayAnswer, relayCallsOf } = await import("toolnexus-wasm");
  const [call] = relayCallsOf(halted.pending);
  const r = await other.runWithAnswer({ toolkit: toolkit(), state: halted, answer: relayAnswer(halted.pending.id, [{ id: call.id, output: "clicked", isError: false }]) });
  assert.equal(r.text, "ok");
  assert.ok(!seen[0].input.some((i) => i.type === "reasoning"), JSON.stringify(seen[0].input));
});
