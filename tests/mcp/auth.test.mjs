// MCP authorization as a suspension, against the official MCP SDK's bearer-token middleware and
// protected-resource metadata router: a 401 suspends the call with an `authorization` request
// naming the server, its metadata and its authorization server; the host answers it (in process
// through waitFor, or durably across JSON and a brand-new client) and hands the token over
// through `token`; the call is made again and succeeds. Tokens appear in nothing the package
// gives back.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { startServer } from "./servers.mjs";

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function bearerServer() {
  const s = await startServer({ bearer: true });
  servers.push(s);
  return s;
}

const SCENARIOS = { echo: [{ calls: [["secure_echo", { text: "hello" }]] }, { text: "Said: {{results}}" }] };
function modelClient(extra = {}) {
  const metrics = [];
  const client = createClient({
    baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test",
    fetch: scriptedFetch(SCENARIOS), onMetric: (m) => metrics.push(m), ...extra,
  });
  return { client, metrics };
}

/** The host's token storage: what an extension would keep in chrome.storage after its OAuth flow. */
function tokenHost(initial) {
  const host = { current: initial, asked: [] };
  host.token = (who) => { host.asked.push(who); return host.current; };
  return host;
}

function checkRequest(request, s) {
  assert.equal(request.kind, "authorization");
  assert.equal(request.prompt, "MCP server secure requires authorization");
  assert.equal(request.url, s.issuer);
  assert.match(request.id, /^pnd-/);
  assert.deepEqual(request.data, {
    server: "secure", serverUrl: s.url,
    resourceMetadata: s.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"),
    authorizationServer: s.issuer, resource: s.url, scopesSupported: ["mcp:tools"],
  });
}

test("listing without a token rejects with the authorization request to answer first", async () => {
  const s = await bearerServer();
  const e = await mcpTools({ server: "secure", url: s.url }).then(() => null, (err) => err);
  assert.equal(e?.name, "ToolnexusError");
  assert.equal(e.code, "transport");
  assert.equal(e.status, 401);
  assert.equal(e.message, "MCP server secure requires authorization");
  checkRequest(e.authRequired, s);
  // after the host's OAuth flow, the same call lists with the token
  s.tokens.add("tok-SECRET-list");
  const host = tokenHost("tok-SECRET-list");
  const tools = await mcpTools({ server: "secure", url: s.url, token: host.token });
  assert.equal(tools.length, 6);
  assert.deepEqual(host.asked[0], { server: "secure", url: s.url });
  assert.ok(s.log.requests.filter((r) => r.rpc === "tools/list").every((r) => r.authorized));
  await tools.close();
});

test("401 in a call → suspension → waitFor → token → the call succeeds", async () => {
  const s = await bearerServer();
  s.tokens.add("tok-SECRET-old");
  const host = tokenHost("tok-SECRET-old");
  const tools = await mcpTools({ server: "secure", url: s.url, token: host.token });
  s.tokens.delete("tok-SECRET-old"); // revoked, or expired, before the model calls the tool
  const asked = [];
  const { client, metrics } = modelClient({
    waitFor: async (request) => {
      asked.push(request);
      // the host's OAuth flow (chrome.identity.launchWebAuthFlow in an extension) yields a token
      s.tokens.add("tok-SECRET-new");
      host.current = "tok-SECRET-new";
      return { id: request.id, ok: true };
    },
  });
  const events = [];
  for await (const e of client.stream("#echo", { toolkit: createToolkit({ tools }) })) events.push(e);
  assert.equal(asked.length, 1);
  checkRequest(asked[0], s);
  const done = events.at(-1);
  assert.equal(done.type, "done");
  assert.equal(done.result.text, "Said: secure_echo → echo: hello");
  assert.deepEqual(s.log.calls.map((c) => c.name), ["echo"], "one call reached the tool");
  const out = JSON.stringify({ events, metrics, prom: client.metrics() });
  assert.ok(!out.includes("tok-SECRET"), "no token in events, results or metrics");
  await tools.close();
});

test("a durable halt on authorization resumes in a new client with the token", async () => {
  const s = await bearerServer();
  s.tokens.add("tok-SECRET-a");
  const first = await mcpTools({ server: "secure", url: s.url, token: () => "tok-SECRET-a" });
  const saved = JSON.stringify({ source: first.source });
  s.tokens.delete("tok-SECRET-a");
  const halted = await modelClient().client.run("#echo", { toolkit: createToolkit({ tools: first }) });
  assert.equal(halted.status, "pending");
  checkRequest(halted.pending, s);
  const stored = JSON.stringify(halted);
  assert.ok(!stored.includes("tok-SECRET") && !saved.includes("tok-SECRET"), "no token in the state or the entry");

  // a new process: the entry and the state from storage, the token from the host's OAuth flow
  s.tokens.add("tok-SECRET-b");
  const { source } = JSON.parse(saved);
  const n = s.log.requests.length;
  const tools = await mcpTools({ ...source, token: () => "tok-SECRET-b" });
  assert.equal(s.log.requests.length, n, "rebuilt from data, nothing sent");
  const state = JSON.parse(stored);
  const done = await modelClient().client.runWithAnswer({ toolkit: createToolkit({ tools }), state, answer: { id: state.pending.id, ok: true } });
  assert.equal(done.status, "done");
  assert.equal(done.text, "Said: secure_echo → echo: hello");
  assert.ok(!JSON.stringify(done).includes("tok-SECRET"));
  await tools.close();
});

test("a token the server still refuses after the answer is an error result, not another suspension", async () => {
  const s = await bearerServer();
  s.tokens.add("tok-SECRET-1");
  const host = tokenHost("tok-SECRET-1");
  const tools = await mcpTools({ server: "secure", url: s.url, token: host.token });
  s.tokens.clear();
  let waits = 0;
  const { client } = modelClient({ waitFor: async (r) => { waits++; return { id: r.id, ok: true }; } });
  const r = await client.run("#echo", { toolkit: createToolkit({ tools }) });
  assert.equal(waits, 1);
  assert.equal(r.text, "Said: secure_echo → MCP server secure refused the authorization it asked for");
  // declining the request never calls the server again
  const calls = s.log.requests.length;
  const declined = await modelClient({ waitFor: async (q) => ({ id: q.id, ok: false, reason: "declined" }) }).client.run("#echo", { toolkit: createToolkit({ tools }) });
  assert.match(declined.text, /^Said: secure_echo → declined/);
  assert.equal(s.log.requests.filter((q, i) => i >= calls && q.rpc === "tools/call").length, 1, "only the refused first try");
  await tools.close();
});

test("a token callback that throws is an error result naming the server", async () => {
  const s = await bearerServer();
  s.tokens.add("tok-SECRET-x");
  let fail = false;
  const tools = await mcpTools({ server: "secure", url: s.url, token: () => { if (fail) throw new Error("keychain locked"); return "tok-SECRET-x"; } });
  fail = true;
  const r = await tools.find((t) => t.name === "secure_echo").run({ text: "x" }, {});
  assert.deepEqual(r, { output: "MCP server secure: the token callback failed: keychain locked", isError: true, metadata: { server: "secure" } });
});
