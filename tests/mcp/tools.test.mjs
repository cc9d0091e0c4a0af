// mcpTools against the official MCP TypeScript SDK's Streamable HTTP server (tests/mcp/servers.mjs):
// stateful and stateless, JSON and SSE replies, a three-page listing, the reference's result
// rules (text, structured, error, image), timeouts, aborts, a lost session, DELETE on close, and
// the tools in a real run of the loop against the scripted model.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { startServer, PIXEL } from "./servers.mjs";

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function server(opts) {
  const s = await startServer(opts);
  servers.push(s);
  return s;
}
const byName = (tools, name) => tools.find((t) => t.name === name);

const MODES = [
  { label: "stateful, SSE replies", opts: {} },
  { label: "stateful, JSON replies", opts: { json: true } },
  { label: "stateless, SSE replies", opts: { stateless: true } },
  { label: "stateless, JSON replies", opts: { stateless: true, json: true } },
];

for (const { label, opts } of MODES) {
  test(`${label}: every page is listed and each result follows the reference rules`, async () => {
    const s = await server(opts);
    const tools = await mcpTools({ server: "demo srv", url: s.url, headers: { "x-custom": "v-${V}" }, env: { V: "7" } });
    assert.deepEqual(tools.map((t) => t.name),
      ["demo_srv_echo", "demo_srv_add", "demo_srv_fail", "demo_srv_image", "demo_srv_slow", "demo_srv_progress_report"]);
    const echo = byName(tools, "demo_srv_echo");
    assert.equal(echo.source, "mcp");
    assert.equal(echo.description, "Echoes the text");
    assert.deepEqual(echo.inputSchema, { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false });
    assert.deepEqual(await echo.run({ text: "hi" }, {}), { output: "echo: hi", isError: false, metadata: { server: "demo srv" } });
    assert.deepEqual(await byName(tools, "demo_srv_add").run({ a: 2, b: 3 }, {}), { output: '{"sum":5}', isError: false, metadata: { server: "demo srv" } });
    assert.deepEqual(await byName(tools, "demo_srv_fail").run({}, {}), { output: "it broke\n\ntwice", isError: true, metadata: { server: "demo srv" } });
    const img = await byName(tools, "demo_srv_image").run({}, {});
    assert.equal(img.output, "a red dot");
    assert.deepEqual(img.parts, [{ type: "image", data: PIXEL, mediaType: "image/png" }], "the image is a part for the model");
    assert.deepEqual(img.metadata.content, [
      { type: "image", data: PIXEL, mimeType: "image/png" },
      { type: "resource_link", uri: "https://example.test/dot.png", name: "dot.png", mimeType: "image/png" },
    ]);
    assert.equal((await byName(tools, "demo_srv_progress_report").run({}, {})).output, "reported", "a notification before the response is skipped");
    assert.deepEqual(s.log.calls.map((c) => c.name), ["echo", "add", "fail", "image", "progress.report"], "the server's own names are called");
    // what went over the wire
    const rpc = s.log.requests.map((r) => r.rpc);
    // a 2025 server refuses the 2026-07-28 probe, and the client initializes instead
    assert.deepEqual(rpc.slice(0, 6), ["server/discover", "initialize", "notifications/initialized", "tools/list", "tools/list", "tools/list"]);
    assert.ok(s.log.requests.every((r) => r.custom === "v-7"), "headers are sent, ${V} filled from env");
    const later = s.log.requests.slice(2);
    assert.ok(later.every((r) => r.version === "2025-11-25"), "MCP-Protocol-Version after initialize");
    assert.equal(tools.source.protocol, "2025-11-25", "the revision is saved with the entry");
    if (opts.stateless) assert.ok(later.every((r) => r.session === undefined));
    else assert.ok(later.every((r) => typeof r.session === "string" && r.session === later[0].session), "Mcp-Session-Id on every later request");
    await tools.close();
    if (!opts.stateless) {
      assert.equal(s.log.requests.at(-1).http, "DELETE");
      assert.equal(s.sessionCount(), 0, "the session was ended");
    }
  });
}

test("the tools run in the loop: the model calls them and reads their results", async () => {
  const s = await server({});
  const tools = await mcpTools({ server: "demo", url: s.url });
  const scenarios = { mcp: [{ calls: [["demo_echo", { text: "mug" }], ["demo_add", { a: 40, b: 2 }], ["demo_fail", {}]] }, { text: "Got: {{results}}" }] };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch: scriptedFetch(scenarios) });
  const events = [];
  const r = await client.run("#mcp", { toolkit: createToolkit({ tools }) });
  assert.equal(r.status, "done");
  assert.equal(r.text, 'Got: demo_echo → echo: mug; demo_add → {"sum":42}; demo_fail → it broke\n\ntwice');
  for await (const e of client.stream("#mcp", { toolkit: createToolkit({ tools: [...tools] }) })) events.push(e);
  const results = events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.output, e.isError]);
  assert.deepEqual(results, [["demo_echo", "echo: mug", false], ["demo_add", '{"sum":42}', false], ["demo_fail", "it broke\n\ntwice", true]]);
  assert.deepEqual(s.log.calls.map((c) => c.name), ["echo", "add", "fail", "echo", "add", "fail"]);
  await tools.close();
});

test("an MCP image reaches the provider: an image_url data URL in a user message after the tool message", async () => {
  const s = await server({});
  const tools = await mcpTools({ server: "demo", url: s.url });
  const scenarios = { mcpimg: [{ calls: [["demo_image", {}]] }, { text: "Got: {{results}}" }] };
  const inner = scriptedFetch(scenarios);
  const requests = [];
  const fetch = async (url, init = {}) => { requests.push(JSON.parse(init.body)); return inner(url, init); };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch });
  const r = await client.run("#mcpimg", { toolkit: createToolkit({ tools }) });
  assert.equal(r.status, "done");
  assert.equal(requests.length, 2);
  const msgs = requests[1].messages;
  const at = msgs.findIndex((m) => m.role === "tool");
  assert.ok(at > 0, "a tool message");
  assert.equal(msgs[at].content, "a red dot");
  assert.deepEqual(msgs[at + 1], { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } }] });
  assert.ok(!JSON.stringify(requests[1]).includes("example.test/dot.png"), "the resource link stays in metadata");
  await tools.close();
});

test("a lost session is opened again and the call retried", async () => {
  const s = await server({});
  const tools = await mcpTools({ server: "demo", url: s.url });
  const before = s.log.requests.filter((r) => r.rpc === "initialize").length;
  s.forgetSessions();
  assert.equal((await byName(tools, "demo_echo").run({ text: "again" }, {})).output, "echo: again");
  assert.equal(s.log.requests.filter((r) => r.rpc === "initialize").length, before + 1);
  assert.equal(s.log.requests.filter((r) => r.rpc === "tools/call").length, 2, "the refused call and its retry");
  await tools.close();
});

test("timeoutMs bounds each request; a call's signal aborts it; both are error results", async () => {
  const s = await server({ json: true });
  const tools = await mcpTools({ server: "demo", url: s.url, timeoutMs: 300 });
  const slow = byName(tools, "demo_slow");
  const t0 = Date.now();
  const r = await slow.run({ ms: 3000 }, {});
  assert.deepEqual(r, { output: "MCP server demo: timeout after 300ms", isError: true, metadata: { server: "demo" } });
  assert.ok(Date.now() - t0 < 2000);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  const a = await slow.run({ ms: 3000 }, { signal: ac.signal });
  assert.deepEqual(a, { output: "MCP server demo: aborted", isError: true, metadata: { server: "demo" } });
  assert.equal((await slow.run({ ms: 10 }, {})).output, "slow done", "the session outlives a timed-out call");
});

test("the entry is data: mcpTools(source) rebuilds the tools without listing, and calls work", async () => {
  const s = await server({});
  const first = await mcpTools({ server: "demo", url: s.url, timeoutMs: 5000 });
  const saved = JSON.parse(JSON.stringify(first.source));
  assert.equal(saved.tools.length, 6);
  assert.equal(saved.timeoutMs, 5000);
  await first.close();
  const n = s.log.requests.length;
  const again = await mcpTools(saved);
  assert.equal(s.log.requests.length, n, "nothing is sent to rebuild");
  assert.deepEqual(again.map((t) => t.name), first.map((t) => t.name));
  assert.equal((await byName(again, "demo_echo").run({ text: "x" }, {})).output, "echo: x");
  assert.equal(s.log.requests[n].rpc, "initialize", "the session opens at the first call");
  await again.close();
});

test("bad options and unreachable servers are typed errors", async () => {
  await assert.rejects(mcpTools({ url: "http://127.0.0.1:1/mcp" }), { name: "ToolnexusError", code: "bad_input", message: "mcpTools(options).server is required (a non-empty string)" });
  await assert.rejects(mcpTools({ server: "x", url: "http://a", fetch: 3 }), { code: "bad_input", message: "mcpTools(options).fetch must be a function" });
  await assert.rejects(mcpTools({ server: "x", url: "http://127.0.0.1:1/mcp" }), (e) => e.code === "transport" && e.message.startsWith("MCP server x: fetch failed"));
  const s = await server({});
  await assert.rejects(mcpTools({ server: "x", url: s.url.replace("/mcp", "/nope") }), (e) => e.code === "transport" && /initialize: HTTP 404/.test(e.message));
});

test("legacy HTTP+SSE: a server that refuses the POST is spoken to over its event stream", async () => {
  const { startLegacyServer } = await import("./servers.mjs");
  const s = await startLegacyServer();
  servers.push(s);
  const tools = await mcpTools({ server: "old", url: s.url });
  assert.equal(tools.length, 6);
  const echo = byName(tools, "old_echo");
  // concurrent calls take turns on the one stream and each gets its own answer
  const rs = await Promise.all(["a", "b", "c"].map((text) => echo.run({ text }, {})));
  assert.deepEqual(rs.map((r) => r.output), ["echo: a", "echo: b", "echo: c"]);
  assert.equal((await byName(tools, "old_fail").run({}, {})).output, "it broke\n\ntwice");
  // the 2026-07-28 probe, then initialize, both refused; then the event stream
  assert.deepEqual(s.log.requests.slice(0, 4).map((r) => [r.http, r.path]), [["POST", "/mcp"], ["POST", "/mcp"], ["GET", "/mcp"], ["POST", "/messages"]]);
  assert.equal(s.streams(), 1, "one stream serves every call");
  await tools.close();
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(s.streams(), 0, "close() ends the stream");
});
