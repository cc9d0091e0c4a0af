// MCP servers for the tests, built on the official MCP TypeScript SDK (@modelcontextprotocol/sdk,
// pinned in package.json): its Streamable HTTP server transport, stateful (a session id per
// client) or stateless, replying with JSON or SSE, and its bearer-token middleware and
// protected-resource metadata router for a server that needs authorization. Only the tools are
// ours. Every server listens on 127.0.0.1 port 0.
import { randomUUID } from "node:crypto";
import express from "express";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

const obj = (properties, required = []) => ({ type: "object", properties, required });
export const TOOLS = [
  { name: "echo", description: "Echoes the text", inputSchema: obj({ text: { type: "string" } }, ["text"]) },
  { name: "add", description: "Adds two numbers", inputSchema: obj({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
    outputSchema: obj({ sum: { type: "number" } }, ["sum"]) },
  { name: "fail", description: "Always fails", inputSchema: obj({}) },
  { name: "image", description: "A one-pixel picture", inputSchema: obj({}) },
  { name: "slow", description: "Answers after ms milliseconds", inputSchema: obj({ ms: { type: "number" } }) },
  { name: "progress.report", description: "Notifies progress, then answers", inputSchema: obj({}) },
];
export const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

function mcpServer(log) {
  const server = new Server({ name: "toolnexus-test", version: "1.0.0" }, { capabilities: { tools: {}, logging: {} } });
  // Two tools a page, so a listing takes three pages.
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const start = Number(req.params?.cursor ?? 0);
    const page = TOOLS.slice(start, start + 2);
    return start + 2 < TOOLS.length ? { tools: page, nextCursor: String(start + 2) } : { tools: page };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    log.calls.push({ name, args });
    switch (name) {
      case "echo":
        return { content: [{ type: "text", text: `echo: ${args.text}` }] };
      case "add": {
        const sum = args.a + args.b;
        return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
      }
      case "fail":
        return { isError: true, content: [{ type: "text", text: "it broke" }, { type: "text", text: " " }, { type: "text", text: "twice" }] };
      case "image":
        return { content: [{ type: "text", text: "a red dot" }, { type: "image", data: PIXEL, mimeType: "image/png" },
                           { type: "resource_link", uri: "https://example.test/dot.png", name: "dot.png", mimeType: "image/png" }] };
      case "slow":
        await new Promise((r) => setTimeout(r, args.ms ?? 1000));
        return { content: [{ type: "text", text: "slow done" }] };
      case "progress.report":
        await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: "working" } });
        return { content: [{ type: "text", text: "reported" }] };
      default:
        throw new Error(`unknown tool ${name}`);
    }
  });
  return server;
}

/**
 * Starts a server: `{ url, log, close, forgetSessions, tokens }`. `log.requests` holds each
 * request's method, JSON-RPC method and MCP headers; `log.calls` the tool calls. Options:
 * `stateless`, `json` (JSON replies instead of SSE), `bearer` (require one of `tokens`), `cors`
 * (for a page on another origin), `authServer` (the issuer the protected-resource metadata names,
 * with its metadata; default an unreachable one).
 */
export async function startServer({ stateless = false, json = false, bearer = false, cors = false, authServer } = {}) {
  const log = { requests: [], calls: [], deleted: 0 };
  const sessions = new Map();
  const tokens = new Set();
  const app = express();
  if (cors) {
    // As a server a web page may call must: any origin, the MCP headers, the session id readable.
    app.use((req, res, next) => {
      res.set({ "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-expose-headers": "mcp-session-id, www-authenticate" });
      if (req.method === "OPTIONS") return res.status(204).end();
      next();
    });
  }
  app.use(express.json());
  const listener = await new Promise((resolve) => {
    const l = app.listen(0, "127.0.0.1", () => resolve(l));
  });
  const url = `http://127.0.0.1:${listener.address().port}/mcp`;
  const issuer = authServer?.issuer ?? "https://auth.example.test/";
  const guards = [];
  if (bearer) {
    app.use(mcpAuthMetadataRouter({
      oauthMetadata: authServer?.metadata ?? { issuer, authorization_endpoint: `${issuer}authorize`, token_endpoint: `${issuer}token`, response_types_supported: ["code"] },
      resourceServerUrl: new URL(url),
      scopesSupported: ["mcp:tools"],
    }));
    guards.push(requireBearerAuth({
      verifier: {
        async verifyAccessToken(token) {
          if (!tokens.has(token)) throw new InvalidTokenError("unknown or revoked token");
          return { token, clientId: "test-client", scopes: ["mcp:tools"], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
        },
      },
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)),
    }));
  }
  app.all("/mcp", (req, _res, next) => {
    log.requests.push({
      http: req.method, rpc: req.body?.method, session: req.headers["mcp-session-id"],
      version: req.headers["mcp-protocol-version"], authorized: Boolean(req.headers.authorization), custom: req.headers["x-custom"],
    });
    next();
  }, ...guards, async (req, res) => {
    try {
      if (stateless) {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
        const server = mcpServer(log);
        res.on("close", () => { transport.close(); server.close(); });
        await server.connect(transport);
        return await transport.handleRequest(req, res, req.body);
      }
      const id = req.headers["mcp-session-id"];
      let transport = id ? sessions.get(id) : undefined;
      if (!transport && !id && req.method === "POST" && isInitializeRequest(req.body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          onsessioninitialized: (sid) => sessions.set(sid, transport),
          onsessionclosed: (sid) => { sessions.delete(sid); log.deleted++; },
        });
        await mcpServer(log).connect(transport);
      }
      if (!transport) {
        return res.status(id ? 404 : 400).json({ jsonrpc: "2.0", error: { code: -32000, message: id ? "Session not found" : "No session" }, id: null });
      }
      await transport.handleRequest(req, res, req.body);
    } catch (e) {
      if (!res.headersSent) res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: String(e) }, id: null });
    }
  });
  return {
    url, log, tokens, issuer,
    sessionCount: () => sessions.size,
    /** Drops every session, as a restarted server would. */
    forgetSessions: () => sessions.clear(),
    close: () => new Promise((resolve) => { listener.closeAllConnections?.(); listener.close(() => resolve()); }),
  };
}

/**
 * A server of the legacy HTTP+SSE transport only (the SDK's SSEServerTransport): GET /mcp opens
 * the event stream, POST /mcp is refused (405) as such a server does, messages go to /messages.
 */
export async function startLegacyServer() {
  const log = { requests: [], calls: [] };
  const transports = new Map();
  const app = express();
  app.use(express.json());
  app.use((req, _res, next) => { log.requests.push({ http: req.method, path: req.path, rpc: req.body?.method }); next(); });
  app.get("/mcp", async (_req, res) => {
    const transport = new SSEServerTransport("/messages", res);
    transports.set(transport.sessionId, transport);
    res.on("close", () => transports.delete(transport.sessionId));
    await mcpServer(log).connect(transport);
  });
  app.post("/mcp", (_req, res) => res.status(405).set("allow", "GET").send("Method Not Allowed"));
  app.post("/messages", async (req, res) => {
    const t = transports.get(String(req.query.sessionId));
    if (!t) return res.status(404).send("no session");
    await t.handlePostMessage(req, res, req.body);
  });
  const listener = await new Promise((resolve) => {
    const l = app.listen(0, "127.0.0.1", () => resolve(l));
  });
  return {
    url: `http://127.0.0.1:${listener.address().port}/mcp`, log,
    streams: () => transports.size,
    close: () => new Promise((resolve) => { listener.closeAllConnections?.(); listener.close(() => resolve()); }),
  };
}
