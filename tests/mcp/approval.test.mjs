// `needsApproval` on MCP tools (against the official MCP SDK's server in servers.mjs) and HTTP
// tools (a local node:http server): nothing reaches the server until the host approves; a
// declined call never does. `true` is kept in `source` / `definition`, so tools rebuilt from
// them after a restart still ask, and a durable halt resumes (signed) in a fresh client. An
// approved call that the server then answers 401 suspends again for authorization.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, createToolkit } from "toolnexus-wasm";
import { mcpTools, httpTool } from "toolnexus-wasm/mcp";
import { scripted, opts, DONE } from "../js/scripted-fetch.mjs";
import { startServer } from "./servers.mjs";

const SECRET = "mcp-approval-secret-0123456789ab";
const servers = [];
let httpServer, base;
const hits = [];
before(async () => {
  httpServer = http.createServer((req, res) => (hits.push(req.url), res.end(`ok ${req.url}`)));
  await new Promise((r) => httpServer.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${httpServer.address().port}`;
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await new Promise((r) => { httpServer.closeAllConnections(); httpServer.close(r); });
});
async function server(o) {
  const s = await startServer(o);
  servers.push(s);
  return s;
}

const approve = (ok, asked = []) => async (q) => (asked.push(q), { id: q.id, ok });

test("mcpTools needsApproval: true — the server is called only once the host approves", async () => {
  const s = await server({});
  const tools = await mcpTools({ server: "demo", url: s.url, needsApproval: true });
  assert.ok(tools.every((t) => t.needsApproval === true));
  assert.equal(tools.source.needsApproval, true, "kept in the entry as data");
  for (const ok of [false, true]) {
    const asked = [];
    const m = scripted([["demo_echo", { text: "hi" }]], DONE);
    const r = await createClient(opts(m, { waitFor: approve(ok, asked) })).run("x", { toolkit: createToolkit({ tools }) });
    assert.deepEqual(asked.map((q) => [q.kind, q.data]), [["approval", { name: "demo_echo", arguments: { text: "hi" } }]]);
    assert.equal(r.text, ok ? "demo_echo: echo: hi" : "demo_echo: declined/expired: approval to run demo_echo");
    assert.deepEqual(s.log.calls.map((c) => c.name), ok ? ["echo"] : [], ok ? "called after the approval" : "a declined call never reaches the server");
  }
  await tools.close();
});

test("mcpTools needsApproval: a function of the arguments and { name } picks the calls that ask", async () => {
  const s = await server({ stateless: true });
  const tools = await mcpTools({ server: "demo", url: s.url, needsApproval: async (args, { name }) => name === "demo_add" && args.a > 100 });
  const asked = [];
  const m = scripted([["demo_echo", { text: "hi" }], ["demo_add", { a: 1, b: 2 }], ["demo_add", { a: 500, b: 1 }]], DONE);
  const r = await createClient(opts(m, { waitFor: approve(false, asked) })).run("x", { toolkit: createToolkit({ tools }) });
  assert.deepEqual(asked.map((q) => q.data), [{ name: "demo_add", arguments: { a: 500, b: 1 } }]);
  assert.deepEqual(s.log.calls.map((c) => [c.name, c.args]), [["echo", { text: "hi" }], ["add", { a: 1, b: 2 }]]);
  assert.match(r.text, /demo_add: declined\/expired: approval to run demo_add$/);
  assert.equal(tools.source.needsApproval, undefined, "a function is not data");
});

test("durable: halted on approval, rebuilt from source in a fresh process, resumed signed", async () => {
  const s = await server({});
  const first = await mcpTools({ server: "demo", url: s.url, needsApproval: true });
  const saved = JSON.stringify(first.source);
  const halted = await createClient(opts(scripted([["demo_echo", { text: "later" }]]), { stateSecret: SECRET })).run("x", { toolkit: createToolkit({ tools: first }) });
  assert.equal(halted.pending.kind, "approval");
  assert.deepEqual(s.log.calls, []);
  await first.close();

  // a new process: the entry and the state from storage
  const n = s.log.requests.length;
  const tools = await mcpTools(JSON.parse(saved));
  assert.equal(s.log.requests.length, n, "rebuilt from data, nothing sent");
  assert.ok(tools.every((t) => t.needsApproval === true), "still asks");
  const state = JSON.parse(JSON.stringify(halted));
  const done = await createClient(opts(scripted(DONE), { stateSecret: SECRET })).runWithAnswer({ toolkit: createToolkit({ tools }), state, answer: { id: state.pending.id, ok: true } });
  assert.equal(done.text, "demo_echo: echo: later");
  assert.deepEqual(s.log.calls.map((c) => c.name), ["echo"]);
  await tools.close();
});

test("approved, then the server demands authorization: the call suspends again and goes through with the token", async () => {
  const s = await server({ bearer: true });
  s.tokens.add("tok-1");
  let token = "tok-1";
  const tools = await mcpTools({ server: "secure", url: s.url, token: () => token, needsApproval: true });
  s.tokens.delete("tok-1"); // expired before the call
  const asked = [];
  const waitFor = async (q) => {
    asked.push(q);
    if (q.kind === "authorization") { s.tokens.add("tok-2"); token = "tok-2"; }
    return { id: q.id, ok: true };
  };
  const r = await createClient(opts(scripted([["secure_echo", { text: "hi" }]], DONE), { waitFor })).run("x", { toolkit: createToolkit({ tools }) });
  assert.deepEqual(asked.map((q) => q.kind), ["approval", "authorization"]);
  assert.match(asked[1].id, /^approved:/, "the tool's own request, asked after the approval");
  assert.equal(r.text, "secure_echo: echo: hi");
  assert.deepEqual(s.log.calls.map((c) => c.name), ["echo"]);
  await tools.close();
});

test("httpTool needsApproval: no request until approved; `true` stays in the definition", async () => {
  for (const ok of [false, true]) {
    hits.length = 0;
    const tool = httpTool({ name: "ping", url: `${base}/ping/{n}`, needsApproval: true });
    assert.equal(tool.definition.needsApproval, true);
    const asked = [];
    const m = scripted([["ping", { n: 3 }]], DONE);
    const r = await createClient(opts(m, { waitFor: approve(ok, asked) })).run("x", { toolkit: createToolkit([tool]) });
    assert.deepEqual(asked.map((q) => q.data), [{ name: "ping", arguments: { n: 3 } }]);
    assert.deepEqual(hits, ok ? ["/ping/3"] : []);
    assert.equal(r.text, ok ? "ping: ok /ping/3" : "ping: declined/expired: approval to run ping");
  }
  // rebuilt from its definition (as data), it still asks, and halts without a waitFor
  hits.length = 0;
  const rebuilt = httpTool(JSON.parse(JSON.stringify(httpTool({ name: "ping", url: `${base}/ping/{n}`, needsApproval: true }).definition)));
  const r = await createClient(opts(scripted([["ping", { n: 4 }]]))).run("x", { toolkit: createToolkit([rebuilt]) });
  assert.deepEqual([r.status, r.pending.kind, hits], ["pending", "approval", []]);
  // a function: asked only for what it flags
  const fn = httpTool({ name: "ping", url: `${base}/ping/{n}`, needsApproval: (args) => args.n > 10 });
  assert.equal(fn.definition.needsApproval, undefined);
  const asked = [];
  await createClient(opts(scripted([["ping", { n: 1 }], ["ping", { n: 11 }]], DONE), { waitFor: approve(false, asked) })).run("x", { toolkit: createToolkit([fn]) });
  assert.deepEqual([asked.length, hits], [1, ["/ping/1"]]);
});
