// httpTool against a local node:http server: {placeholder} substitution, GET arguments as the
// query string, JSON / form / raw bodies, `HTTP <status>: <body>` errors, result modes, the
// timeout, headers from an env map, the definition as data, and the tool in a run of the loop.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, createToolkit } from "toolnexus-wasm";
import { httpTool } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";

let server, base;
const seen = [];
before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, body, type: req.headers["content-type"], key: req.headers["x-api-key"] });
      if (req.url.startsWith("/slow")) return setTimeout(() => res.end("late"), 2000);
      if (req.url.startsWith("/missing")) return res.writeHead(404).end("no such item");
      res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body }, null, 1));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => { server.closeAllConnections(); server.close(r); }));

test("GET: placeholders fill the path, the other arguments become the query", async () => {
  const t = httpTool({ name: "get item", description: "an item", url: `${base}/items/{id}?v=1`, headers: { "x-api-key": "${KEY}" }, env: { KEY: "k-123" }, resultMode: "json" });
  assert.equal(t.name, "get_item");
  assert.equal(t.source, "http");
  assert.deepEqual(t.inputSchema, { type: "object", properties: {}, additionalProperties: false });
  const r = await t.run({ id: "a/b c", q: "blue mug", n: 3 }, {});
  assert.deepEqual(r, { output: JSON.stringify({ method: "GET", url: "/items/a%2Fb%20c?v=1&q=blue+mug&n=3", body: "" }), isError: false, metadata: { status: 200 } });
  assert.equal(seen.at(-1).key, "k-123");
  assert.ok(!JSON.stringify(t.definition).includes("k-123"), "env stays out of the definition");
  assert.equal(t.definition.headers["x-api-key"], "${KEY}");
});

test("POST bodies: json by default, form, raw; listed arguments go to the query", async () => {
  const json = httpTool({ name: "create", method: "post", url: `${base}/items`, query: ["dry"], resultMode: "status+text" });
  const r = await json.run({ dry: true, title: "Mug" }, {});
  assert.equal(r.output.split("\n")[0], "201");
  assert.deepEqual(seen.at(-1), { method: "POST", url: "/items?dry=true", body: '{"title":"Mug"}', type: "application/json", key: undefined });
  await httpTool({ name: "form", method: "POST", url: `${base}/f`, body: "form" }).run({ "a b": "c&d" }, {});
  assert.deepEqual([seen.at(-1).body, seen.at(-1).type], ["a+b=c%26d", "application/x-www-form-urlencoded"]);
  await httpTool({ name: "raw", method: "PUT", url: `${base}/r`, body: "raw", headers: { "Content-Type": "text/plain" } }).run({ body: "just text" }, {});
  assert.deepEqual([seen.at(-1).method, seen.at(-1).body, seen.at(-1).type], ["PUT", "just text", "text/plain"]);
});

test("a non-2xx reply is an error result; a timeout and an unreachable host are too", async () => {
  const r = await httpTool({ name: "m", url: `${base}/missing` }).run({}, {});
  assert.deepEqual(r, { output: "HTTP 404: no such item", isError: true, metadata: { status: 404 } });
  const t0 = Date.now();
  const slow = await httpTool({ name: "slow", url: `${base}/slow`, timeout: 200 }).run({}, {});
  assert.deepEqual(slow, { output: "HTTP tool slow: timeout after 200ms", isError: true });
  assert.ok(Date.now() - t0 < 1500);
  const down = await httpTool({ name: "down", url: "http://127.0.0.1:1/x" }).run({}, {});
  assert.equal(down.isError, true);
  assert.match(down.output, /^HTTP tool down: fetch failed/);
  assert.throws(() => httpTool({ name: "x", url: base, body: "xml" }), { code: "bad_input", message: "httpTool(definition).body must be one of: json, form, raw" });
});

test("the definition is data: a tool rebuilt from it after a restart works the same", async () => {
  const t = httpTool({ name: "lookup", url: `${base}/items/{id}`, resultMode: "json" });
  const again = httpTool(JSON.parse(JSON.stringify(t.definition)));
  assert.deepEqual(await again.run({ id: 9 }, {}), await t.run({ id: 9 }, {}));
});

test("an HTTP tool in a run of the loop", async () => {
  const tools = [httpTool({ name: "lookup", url: `${base}/items/{id}`, resultMode: "json", inputSchema: { type: "object", properties: { id: { type: "string" } } } })];
  const scenarios = { http: [{ calls: [["lookup", { id: "mug" }]] }, { text: "Found: {{results}}" }] };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "anthropic", model: "scripted", apiKey: "k", fetch: scriptedFetch(scenarios) });
  const r = await client.run("#http", { toolkit: createToolkit({ tools }) });
  assert.equal(r.text, 'Found: lookup → {"method":"GET","url":"/items/mug","body":""}');
});

// A server that answers with a redirect to another origin: a request carrying credentials (an
// API key from `env`) must not follow it, so the other origin never sees the key; a plain
// request (no credentials) follows redirects as fetch does.
test("credentials stay on their origin: no redirect is followed with a key", async () => {
  const other = [];
  const elsewhere = http.createServer((req, res) => {
    other.push(req.headers["x-api-key"] ?? "none");
    res.writeHead(200, { "content-type": "application/json" }).end('{"from":"elsewhere"}');
  });
  await new Promise((r) => elsewhere.listen(0, "127.0.0.1", r));
  const to = `http://127.0.0.1:${elsewhere.address().port}/x`;
  const bouncer = http.createServer((req, res) => res.writeHead(307, { location: to }).end());
  await new Promise((r) => bouncer.listen(0, "127.0.0.1", r));
  const from = `http://127.0.0.1:${bouncer.address().port}/item`;
  try {
    const keyed = await httpTool({ name: "k", url: from, headers: { "x-api-key": "${KEY}" }, env: { KEY: "k-secret" } }).run({}, {});
    assert.equal(keyed.isError, true);
    assert.match(keyed.output, /redirect refused/);
    assert.ok(!keyed.output.includes("k-secret"));
    assert.deepEqual(other, [], "the other origin was never contacted");
    const plain = await httpTool({ name: "p", url: from, resultMode: "json" }).run({}, {});
    assert.equal(plain.isError, false);
    assert.deepEqual(other, ["none"]);
  } finally {
    bouncer.close();
    elsewhere.close();
  }
});
