// MCP authorization as a suspension, against the official MCP SDK's bearer-token middleware and
// protected-resource metadata router: a 401 suspends the call with an `authorization` request
// naming the server, its metadata and its authorization server; the host answers it (in process
// through waitFor, or durably across JSON and a brand-new client) and hands the token over
// through `token`; the call is made again and succeeds. Tokens appear in nothing the package
// gives back.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, ToolnexusError } from "toolnexus-wasm";
import { authorizationGrant, exchangeCode, mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { startServer } from "./servers.mjs";
import { browse, CLIENT_METADATA_URL, REDIRECT_URI, startAuthServer } from "./oauth-server.mjs";

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

test("a token callback that throws is an error result naming the server, never its message (it may hold a secret)", async () => {
  const s = await bearerServer();
  s.tokens.add("tok-SECRET-x");
  let fail = false;
  const tools = await mcpTools({ server: "secure", url: s.url, token: () => { if (fail) throw new Error("keychain locked"); return "tok-SECRET-x"; } });
  fail = true;
  const r = await tools.find((t) => t.name === "secure_echo").run({ text: "x" }, {});
  const output = "MCP server secure: the token callback failed: it threw (its message is not passed on: it may hold a secret; log it inside token())";
  assert.deepEqual(r, { output, isError: true, metadata: { server: "secure" } });
});

// ---- Authorization the 2026-07-28 way: discovery, a ready authorization URL, the answer checked ----
// A local authorization server (the SDK's router) and a protected MCP server whose metadata names
// it. The host configures `oauth` (its redirect URI and Client ID Metadata Document), sends the
// user to the suspension's `url`, answers with the URL the browser came back to, exchanges the
// grant `token()` receives with `exchangeCode`, and keeps the tokens.

async function protectedPair(asOptions = {}) {
  let server;
  const issued = [];
  const as = await startAuthServer({
    ...asOptions,
    onToken: (t, info) => { issued.push({ token: t, ...info }); server.tokens.add(t); },
  });
  server = await startServer({ bearer: true, authServer: { issuer: as.issuer, metadata: as.metadata } });
  servers.push(server, as);
  return { as, s: server, issued };
}

const OAUTH = { redirectUri: REDIRECT_URI, clientMetadataUrl: CLIENT_METADATA_URL };

/** The host: keeps tokens per server, exchanges a grant when `token()` brings one. */
function oauthHost() {
  const host = { tokens: {}, grants: [] };
  host.token = async ({ server, grant }) => {
    if (grant) {
      host.grants.push(grant);
      host.tokens[server] = await exchangeCode(grant);
    }
    return host.tokens[server]?.access_token;
  };
  return host;
}

/** The server entry as a host saves it: listed once with a token obtained earlier. */
async function savedSource(s) {
  s.tokens.add("tok-SECRET-setup");
  const tools = await mcpTools({ server: "secure", url: s.url, oauth: OAUTH, token: () => "tok-SECRET-setup" });
  s.tokens.delete("tok-SECRET-setup");
  await tools.close();
  return JSON.stringify(tools.source);
}

const secrets = (text) => /tok-SECRET|refresh-SECRET|code-[0-9a-f]{8}-/.test(text);

test("call → 401 → a ready authorization URL → durable halt → browser → answer → exchange → token() → done", async () => {
  const { as, s, issued } = await protectedPair();
  const saved = await savedSource(s);
  assert.deepEqual(JSON.parse(saved).oauth, OAUTH, "the client is part of the entry");
  const first = await mcpTools({ ...JSON.parse(saved), token: oauthHost().token });
  const halted = await modelClient().client.run("#echo", { toolkit: createToolkit({ tools: first }) });
  assert.equal(halted.status, "pending");
  const req = halted.pending;
  assert.equal(req.kind, "authorization");
  const url = new URL(req.url);
  assert.equal(url.origin + url.pathname, `${as.issuer}authorize`);
  const q = Object.fromEntries(url.searchParams);
  assert.deepEqual(Object.keys(q), ["response_type", "client_id", "redirect_uri", "scope", "resource", "state", "code_challenge", "code_challenge_method"]);
  assert.deepEqual({ ...q, state: "*", code_challenge: "*" }, {
    response_type: "code", client_id: CLIENT_METADATA_URL, redirect_uri: REDIRECT_URI, scope: "mcp:tools",
    resource: s.url, state: "*", code_challenge: "*", code_challenge_method: "S256",
  });
  assert.match(q.code_challenge, /^[A-Za-z0-9_-]{43}$/);
  assert.match(q.state, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(req.data, {
    server: "secure", serverUrl: s.url, resourceMetadata: s.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"),
    authorizationServer: as.issuer, resource: s.url, scopesSupported: ["mcp:tools"], issuer: as.issuer,
    authorizationEndpoint: `${as.issuer}authorize`, tokenEndpoint: `${as.issuer}token`, clientIdMetadataDocumentSupported: true,
    scope: "mcp:tools", clientId: CLIENT_METADATA_URL, clientIdMetadataDocument: true, redirectUri: REDIRECT_URI,
    state: q.state, codeChallengeMethod: "S256",
  });
  const stored = JSON.stringify(halted);
  assert.ok(!secrets(stored + saved), "no token, refresh token or code in the state or the entry");
  assert.ok(!("codeVerifier" in req.data), "the verifier is not in data (it rides in the id's record)");

  // the user's browser (launchWebAuthFlow), then a fresh process with the entry and the state
  const callbackUrl = await browse(req.url);
  assert.ok(callbackUrl.startsWith(REDIRECT_URI) && new URL(callbackUrl).searchParams.get("iss") === as.issuer);
  const host = oauthHost();
  const tools = await mcpTools({ ...JSON.parse(saved), token: host.token });
  const state = JSON.parse(stored);
  const done = await modelClient().client.runWithAnswer({
    toolkit: createToolkit({ tools }), state, answer: { id: state.pending.id, ok: true, data: { callbackUrl } },
  });
  assert.equal(done.status, "done");
  assert.equal(done.text, "Said: secure_echo → echo: hello");
  assert.equal(host.grants.length, 1, "token() got the grant once");
  assert.deepEqual(Object.keys(host.grants[0]).sort(), ["clientId", "code", "codeVerifier", "issuer", "redirectUri", "resource", "tokenEndpoint"]);
  assert.equal(as.log.token.length, 1, "one token request, its PKCE verifier checked by the SDK's token handler");
  assert.deepEqual(as.log.token[0], { clientId: CLIENT_METADATA_URL, redirectUri: REDIRECT_URI, resource: s.url });
  assert.equal(as.log.authorize[0].resource, s.url, "RFC 8707 resource in the authorization request too");
  assert.deepEqual(issued.map((i) => i.resource), [s.url]);
  assert.ok(!secrets(JSON.stringify(done)), "no token or code in the finished run");
  await tools.close();
});

test("in process through waitFor: the host's flow is launchWebAuthFlow and exchangeCode", async () => {
  const { s } = await protectedPair();
  const host = oauthHost();
  const tools = await mcpTools({ ...JSON.parse(await savedSource(s)), token: host.token });
  const { client, metrics } = modelClient({
    waitFor: async (request) => ({ id: request.id, ok: true, data: { callbackUrl: await browse(request.url) } }),
  });
  const events = [];
  for await (const e of client.stream("#echo", { toolkit: createToolkit({ tools }) })) events.push(e);
  assert.equal(events.at(-1).result.text, "Said: secure_echo → echo: hello");
  assert.ok(host.tokens.secure?.access_token.startsWith("tok-SECRET"), "the host holds the tokens");
  assert.ok(!secrets(JSON.stringify({ events, metrics, prom: client.metrics() })));
  await tools.close();
});

test("a listing that needs authorization: authRequired → browser → authorizationGrant → exchangeCode → listed", async () => {
  const { as, s } = await protectedPair({ cimd: false, preRegistered: "pre-registered-id" });
  const options = { server: "secure", url: s.url, oauth: { redirectUri: REDIRECT_URI, clientId: "pre-registered-id" } };
  const e = await mcpTools(options).then(() => null, (err) => err);
  assert.equal(e?.status, 401);
  const req = e.authRequired;
  assert.equal(new URL(req.url).searchParams.get("client_id"), "pre-registered-id");
  assert.equal(req.data.clientIdMetadataDocument, false);
  const callbackUrl = await browse(req.url);
  const wrong = callbackUrl.replace(/state=[^&]+/, "state=forged");
  assert.throws(() => authorizationGrant(req, wrong), (err) => err instanceof ToolnexusError && err.code === "bad_input" && err.refusal === "state_mismatch");
  const tokens = await exchangeCode(authorizationGrant(req, callbackUrl));
  assert.equal(tokens.token_type, "Bearer");
  const tools = await mcpTools({ ...options, token: () => tokens.access_token });
  assert.equal(tools.length, 6);
  assert.equal(as.log.token.length, 1);
  // a code is good once: the same callback again is refused by the server
  const again = await exchangeCode(authorizationGrant(req, callbackUrl)).then(() => null, (err) => err);
  assert.ok(again instanceof ToolnexusError && again.code === "transport" && again.status === 400);
  assert.match(again.message, /^exchangeCode\(grant\): the token endpoint answered HTTP 400: invalid_grant$/);
  await tools.close();
});

/** Halts on the authorization request of a 401 during a call and answers with `edit(callbackUrl)`. */
async function answerWith(as, s, edit, host = oauthHost()) {
  const tools = await mcpTools({ ...JSON.parse(await savedSource(s)), token: host.token });
  const halted = await modelClient().client.run("#echo", { toolkit: createToolkit({ tools }) });
  const callbackUrl = edit(await browse(halted.pending.url));
  const done = await modelClient().client.runWithAnswer({
    toolkit: createToolkit({ tools }), state: halted, answer: { id: halted.pending.id, ok: true, data: { callbackUrl } },
  });
  await tools.close();
  return { done, host };
}

test("a wrong iss, a missing promised iss, or a wrong state is refused before the code goes anywhere", async () => {
  for (const [asOptions, edit, message] of [
    [{ iss: "wrong" }, (u) => u, "the authorization response's iss is not the authorization server the request went to (RFC 9207)"],
    [{ iss: "missing" }, (u) => u, "the authorization response has no iss, which this authorization server promises (RFC 9207)"],
    [{}, (u) => u.replace(/state=[^&]+/, "state=forged"), "the authorization response's state is not the request's"],
    [{}, (u) => u.replace(/[?&]state=[^&]+/, ""), "the authorization response has no state"],
    [{}, (u) => u.replace(REDIRECT_URI, "https://attacker.example.test/"), "the callback URL is not at the redirect URI of the request"],
  ]) {
    const { as, s } = await protectedPair(asOptions);
    const { done, host } = await answerWith(as, s, edit);
    assert.equal(done.text, `Said: secure_echo → MCP server secure: ${message}`);
    assert.equal(host.grants.length, 0, "token() never saw the code");
    assert.equal(as.log.token.length, 0, "nothing reached the token endpoint");
  }
  // a server that does not promise iss and sends none: accepted (RFC 9207's table)
  const { as, s } = await protectedPair({ iss: "missing", issSupported: false });
  const { done } = await answerWith(as, s, (u) => u);
  assert.equal(done.text, "Said: secure_echo → echo: hello");
});

test("no S256, no usable client id, or a javascript: endpoint: no authorization URL, and data says why", async () => {
  for (const [asOptions, code] of [
    [{ s256: false }, "pkce_unsupported"],
    [{ cimd: false }, "no_client_id"],
    [{ authorizationEndpoint: "javascript:alert(document.cookie)" }, "no_authorization_server_metadata"],
  ]) {
    const { as, s } = await protectedPair(asOptions);
    const tools = await mcpTools({ ...JSON.parse(await savedSource(s)), token: oauthHost().token });
    const halted = await modelClient().client.run("#echo", { toolkit: createToolkit({ tools }) });
    const req = halted.pending;
    assert.equal(req.kind, "authorization");
    assert.equal(req.url, undefined, code);
    assert.equal(req.data.problem.code, code);
    assert.ok(!JSON.stringify(halted).includes("javascript:"));
    assert.equal(as.log.authorize.length, 0);
    await tools.close();
  }
  // the host's own URLs are checked when the tools are made; a grant's endpoint when it is used
  const bad = await mcpTools({ server: "x", url: "https://mcp.example.test/mcp", oauth: { redirectUri: "javascript:alert(1)", clientId: "c" }, tools: [] })
    .then(() => null, (err) => err);
  assert.equal(bad?.code, "bad_input");
  assert.match(bad.message, /oauth\.redirectUri must be an https URL/);
  const grant = { tokenEndpoint: "javascript:alert(1)", code: "c", codeVerifier: "v", redirectUri: REDIRECT_URI, clientId: "c", resource: "https://r.test" };
  await assert.rejects(exchangeCode(grant), (err) => err instanceof ToolnexusError && err.code === "bad_input" && /tokenEndpoint must be an https URL/.test(err.message));
});

test("with oauth configured, today's answer (the host ran the flow itself) still works", async () => {
  const { s } = await protectedPair();
  const host = tokenHost(undefined);
  const tools = await mcpTools({ ...JSON.parse(await savedSource(s)), token: host.token });
  const { client } = modelClient({
    waitFor: async (r) => { s.tokens.add("tok-SECRET-own"); host.current = "tok-SECRET-own"; return { id: r.id, ok: true }; },
  });
  const r = await client.run("#echo", { toolkit: createToolkit({ tools }) });
  assert.equal(r.text, "Said: secure_echo → echo: hello");
  await tools.close();
});
