// The MCP entry throws the package's one error class (issue 22, item 4): every error of
// mcpTools, httpTool, a2aTools, builtinTools and skillTool, and of a listing, a call's setup or
// close(), is `instanceof ToolnexusError` as imported from `toolnexus-wasm` (the default entry),
// with the stable `code` the loop's errors use. The two entries are separate wasm modules; the
// class lives once in the package.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { ToolnexusError } from "toolnexus-wasm";
import * as mcp from "toolnexus-wasm/mcp";

const { a2aTools, builtinTools, httpTool, mcpTools, skillTool } = mcp;
let base, server;

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const msg = body ? JSON.parse(body) : null;
      if (req.url === "/hang") return; // never answers
      if (req.url === "/auth") return res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="' + base + '/meta"' }).end();
      if (req.url === "/meta") {
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: base + "/auth", authorization_servers: ["https://as.test"] }));
      }
      if (req.url === "/mcp") {
        if (req.method === "DELETE") return res.writeHead(500).end("no");
        if (msg.method === "server/discover") return res.writeHead(400).end("Unsupported protocol version");
        if (msg.id === undefined) return res.writeHead(202).end();
        const result = msg.method === "initialize" ? { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "e", version: "1" } } : { tools: [{ name: "t" }] };
        return res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "S1" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));

/** A ToolnexusError of the default entry's class, with `code`. */
function typed(code, more = {}) {
  return (e) => {
    assert.ok(e instanceof ToolnexusError, `not instanceof ToolnexusError: ${e?.constructor?.name} ${e?.message}`);
    assert.ok(e instanceof Error && ToolnexusError.is(e));
    assert.equal(e.name, "ToolnexusError");
    assert.equal(e.code, code, e.message);
    for (const [k, v] of Object.entries(more)) assert.deepEqual(e[k], v, k);
    return true;
  };
}

test("the MCP entry exports the very class of the default entry", () => {
  assert.equal(mcp.ToolnexusError, ToolnexusError);
});

test("mcpTools: refused options, a failed fetch, a deadline, a throwing token, authorization while listing", async () => {
  await assert.rejects(mcpTools(5), typed("bad_input"));
  await assert.rejects(mcpTools({ url: `${base}/mcp` }), typed("bad_input"));
  await assert.rejects(mcpTools({ server: "s", url: `${base}/mcp`, fetch: 1 }), typed("bad_input"));
  await assert.rejects(mcpTools({ server: "s", url: "http://127.0.0.1:1/mcp" }), typed("transport"));
  await assert.rejects(mcpTools({ server: "s", url: `${base}/hang`, timeoutMs: 200 }), typed("aborted", { message: "MCP server s: timeout after 200ms" }));
  const token = () => {
    throw new Error("no token");
  };
  await assert.rejects(mcpTools({ server: "s", url: `${base}/mcp`, token }), typed("host_callback", { message: "MCP server s: the token callback failed: it threw (its message is not passed on: it may hold a secret; log it inside token())" }));
  const e = await mcpTools({ server: "s", url: `${base}/auth` }).then(() => null, (x) => x);
  typed("transport", { status: 401 })(e);
  assert.equal(e.authRequired?.kind, "authorization");
});

test("mcpTools: close() that the server refuses", async () => {
  const tools = await mcpTools({ server: "s", url: `${base}/mcp` });
  assert.deepEqual(tools.map((t) => t.name), ["s_t"]);
  await assert.rejects(tools.close(), typed("transport"));
});

test("httpTool, builtinTools, skillTool, a2aTools: refused definitions and failed connections", async () => {
  assert.throws(() => httpTool({ name: "h" }), typed("bad_input"));
  assert.throws(() => httpTool(null), typed("bad_input"));
  assert.throws(() => builtinTools(["bash"]), typed("bad_input"));
  assert.throws(() => builtinTools(undefined, { maxBytes: 0 }), typed("bad_input"));
  assert.throws(() => skillTool(5), typed("bad_input"));
  await assert.rejects(a2aTools({}), typed("bad_input"));
  await assert.rejects(a2aTools({ card: "http://127.0.0.1:1/card" }), typed("transport"));
  await assert.rejects(a2aTools({ card: `${base}/hang`, timeoutMs: 200 }), typed("aborted"));
});

test("the browser entry before init(): declarations are deferred, async calls load the module themselves", async () => {
  // Loaded by its file (the package's conditions pick node.js in Node); the glue module is the
  // one node.js initialised, so the entry's own load finds it ready at once.
  const web = await import(new URL("../../pkg/mcp/index.js", import.meta.url));
  const LATER = Symbol.for("toolnexus-wasm.later");
  assert.equal(web.ToolnexusError, ToolnexusError);
  // Declarations made before the load (making one loads the module: all are taken first).
  const h = web.httpTool({ name: "h", url: `${base}/x` });
  const [builtins] = web.builtinTools();
  const [bash] = web.builtinTools(["bash"]);
  assert.throws(() => web.skillTool([]).prompt, typed("bad_state"));
  assert.throws(() => web.authorizationGrant({}, "https://app.test/cb"), typed("bad_state"));
  assert.equal(h.name, "h");
  assert.equal(typeof h[LATER], "function");
  assert.equal((await h[LATER]()).name, "h");
  assert.deepEqual((await builtins[LATER]()).map((t) => t.name).sort(), ["question", "todowrite", "webfetch"]);
  // A deferred declaration is refused when it is made, with the message it would have had.
  await assert.rejects(bash[LATER](), typed("bad_input"));
  await web.init();
  assert.equal(web.httpTool({ name: "h", url: `${base}/x` }).name, "h");
  assert.equal(typeof web.httpTool({ name: "h", url: `${base}/x` })[LATER], "undefined");
});
