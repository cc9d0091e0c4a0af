// `client.metrics()`'s registry (pkg-template/metrics.js): Prometheus text byte-identical to the
// reference ports for a fixed event set (tests/fixtures/metrics/reference.prom, captured from
// the JS port of toolnexus), escaped labels, errors counted, and the text of a real client.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Metrics } from "../../pkg-template/metrics.js";
import { createClient } from "toolnexus-wasm";

const REFERENCE = fs.readFileSync(new URL("../fixtures/metrics/reference.prom", import.meta.url), "utf8");

test("metrics text is byte-identical to the reference", () => {
  const r = new Metrics();
  assert.ok(r.render().split("\n").filter(Boolean).every((l) => l.startsWith("#")), "no samples before any activity");
  r.record({ event: "llm", model: "gpt-x", status: "ok", ms: 120, promptTokens: 3, completionTokens: 2 });
  r.record({ event: "tool", tool: "add", source: "native", isError: false, ms: 40 });
  r.record({ event: "run", model: "gpt-x", turns: 2, toolCalls: 1, totalTokens: 16, ms: 200 });
  assert.equal(r.render(), REFERENCE);
});

test("labels are escaped, errors counted, series sorted by code point", () => {
  const r = new Metrics();
  r.record({ event: "tool", tool: 'a"b\\c\nd', source: "relay", isError: false, ms: 0, pending: true });
  r.record({ event: "run", model: "m", turns: 0, toolCalls: 0, totalTokens: 0, ms: 1, error: "boom" });
  r.record({ event: "tool", tool: "\u{1F600}", source: "native", isError: false, ms: 1 });
  r.record({ event: "tool", tool: "\uFF61", source: "native", isError: false, ms: 1 });
  const text = r.render();
  assert.ok(text.includes('toolnexus_tool_calls_total{tool="a\\"b\\\\c\\nd",source="relay",is_error="false",pending="true"} 1'), text);
  assert.ok(text.includes('toolnexus_run_errors_total{model="m"} 1'));
  assert.ok(text.includes('toolnexus_tool_duration_seconds_sum{tool="a\\"b\\\\c\\nd"} 0'));
  // U+FF61 sorts before U+1F600 by code point (UTF-16 would put the surrogate pair first).
  assert.ok(text.indexOf('tool="\uFF61"') < text.indexOf('tool="\u{1F600}"'));
});

test("a client counts its own events, the caller's onMetric still gets each one, and a throw there is ignored", async () => {
  const seen = [];
  const fetch = async () => new Response(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }], usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 } }));
  const c = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch, onMetric: (e) => { seen.push(e.event); throw new Error("a broken sink"); } });
  assert.equal((await c.run("x")).text, "hi");
  assert.deepEqual(seen, ["llm", "run"]);
  assert.match(c.metrics(), /^toolnexus_llm_requests_total\{model="m",status="ok"\} 1$/m);
  assert.match(c.metrics(), /^toolnexus_llm_tokens_total\{type="prompt"\} 2$/m);
  assert.throws(() => createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", onMetric: 3 }), { code: "bad_input" });
});

test("onMetric's events have the core's members (src/metrics.rs's Serialize)", async () => {
  const events = [];
  const replies = [
    { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "click", arguments: "{}" } }, { id: "b", type: "function", function: { name: "t", arguments: "{}" } }] },
  ];
  const fetch = async () => new Response(JSON.stringify({ choices: [{ index: 0, message: replies.shift() ?? { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 } }));
  const { createToolkit, defineTool, relayTool } = await import("toolnexus-wasm");
  const c = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch, onMetric: (e) => events.push(e) });
  const toolkit = createToolkit([relayTool("click", "c"), defineTool({ name: "t", description: "t", run: () => { throw new Error("no"); } })]);
  assert.equal((await c.run("x", { toolkit })).status, "pending");
  const keys = (e) => Object.keys(e).join(",");
  assert.deepEqual(events.map(keys), [
    "event,model,status,ms,promptTokens,completionTokens",
    "event,tool,source,isError,ms,pending",
    "event,tool,source,isError,ms",
    "event,model,turns,toolCalls,totalTokens,ms",
  ]);
  assert.deepEqual(events.map((e) => [e.event, e.tool ?? e.model, e.isError ?? e.status ?? e.turns]), [["llm", "m", "ok"], ["tool", "click", false], ["tool", "t", true], ["run", "m", 1]]);
  assert.equal(events[3].totalTokens, 3);
  await assert.rejects(createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch: async () => new Response("{}", { status: 500 }), retries: 0, onMetric: (e) => events.push(e) }).run("y"));
  assert.equal(events.at(-1).event, "run");
  assert.match(events.at(-1).error, /500/);
});

test("cached prompt tokens reach the result, the llm event and the token counter", async () => {
  const events = [];
  const usage = { input_tokens: 21, cache_creation_input_tokens: 1800, cache_read_input_tokens: 400, output_tokens: 9 };
  const fetch = async () => new Response(JSON.stringify({ type: "message", role: "assistant", content: [{ type: "text", text: "hi" }], stop_reason: "end_turn", usage }));
  const c = createClient({ style: "anthropic", model: "claude-haiku-4-5", baseUrl: "http://m", apiKey: "k", fetch, onMetric: (e) => events.push(e) });
  const r = await c.run("x");
  assert.deepEqual(r.usage, { promptTokens: 2221, completionTokens: 9, totalTokens: 2230, cacheReadTokens: 400, cacheWriteTokens: 1800 });
  assert.deepEqual(events[0], { event: "llm", model: "claude-haiku-4-5", status: "ok", ms: events[0].ms, promptTokens: 2221, completionTokens: 9, cacheReadTokens: 400, cacheWriteTokens: 1800 });
  const text = c.metrics();
  assert.ok(text.includes('toolnexus_llm_tokens_total{type="cache_read"} 400\n'), text);
  assert.ok(text.includes('toolnexus_llm_tokens_total{type="cache_write"} 1800\n'), text);
  // The reference's event without a cache renders no cache series (the first test's byte-equality).
  const plain = new Metrics();
  plain.record({ event: "llm", model: "m", status: "ok", ms: 1, promptTokens: 1, completionTokens: 1 });
  assert.ok(!plain.render().includes("cache_"));
});
