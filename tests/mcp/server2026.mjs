// An MCP server of protocol revision 2026-07-28 for the tests, built on the official
// `@modelcontextprotocol/server` 2.x package (pinned in package.json): `createMcpHandler` gives a
// fetch-style handler, wrapped here in node:http (the package has no node adapter of its own).
// It serves 2025 clients on the same URL unless `legacy: "reject"`. Its tools (tools2026.mjs),
// some of which ask for input, are ours; `log` records what each request carried.
import http from "node:http";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { factory } from "./tools2026.mjs";

/**
 * Starts the server on 127.0.0.1 port 0: `{ url, log, close }`. `legacy`: "stateless" (default)
 * or "reject"; `responseMode`: "auto" (default), "json" or "sse" (the shape of 2026-07-28 replies).
 */
export async function start2026({ legacy, responseMode } = {}) {
  const log = { requests: [], retries: [] };
  const handler = createMcpHandler(factory(log), { ...(legacy ? { legacy } : {}), ...(responseMode ? { responseMode } : {}) });
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    let parsed;
    try {
      parsed = body ? JSON.parse(body.toString()) : undefined;
    } catch {}
    log.requests.push({ method: req.method, headers: Object.fromEntries(headers), body: parsed });
    const url = `http://127.0.0.1:${server.address().port}${req.url}`;
    const response = await handler.fetch(new Request(url, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const c of response.body) res.write(c);
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  return { url, log, close: () => (server.closeAllConnections?.(), new Promise((r) => server.close(r))) };
}
