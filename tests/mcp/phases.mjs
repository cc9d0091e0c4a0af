// Where an MCP tool call's time goes (issue 31 item 6), beside tests/mcp/bench.mjs: one `echo`
// call, split by the server's own timestamps into client-to-request (the client's work before
// the request, the request's way in), server (the `request` event to `res.end`) and
// end-to-result (the reply's way back, its body read, the client's work after). Timed in turns
// of 50 calls, in one process:
// - floor: a bare `fetch` of the same request with an AbortController and a deadline timer, its
//   body read with `text()` (what any client does at the least);
// - ours: toolnexus-wasm/mcp as linked; with BASELINE_PKG=<a package dir>, that build too
//   ("base"), to compare two builds against the same server and the same SDKs;
// - 2.x: the official `@modelcontextprotocol/client`; for 2025-11-25 also 1.x, the
//   `@modelcontextprotocol/sdk` client; each declaring what ours does.
// Revision 2026-07-28 runs against the 2.x server (tests/mcp/server2026.mjs, stateless),
// 2025-11-25 against the 1.x SDK's session server (tests/mcp/servers.mjs; the floor opens its own
// session first).
// Not a test: `node tests/mcp/phases.mjs [calls] [json|sse] [2026-07-28|2025-11-25]` after
// scripts/build.sh and the tests/mcp install.
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { startServer } from "./servers.mjs";
import { start2026 } from "./server2026.mjs";

const N = Number(process.argv[2] ?? 1000);
const mode = process.argv[3] ?? "json";
const revision = process.argv[4] ?? "2026-07-28";
let atRequest = 0, atEnd = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === "request") atRequest = performance.now();
  return emit.call(this, event, ...args);
};
const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  atEnd = performance.now();
  return end.apply(this, args);
};

const capabilities = { elicitation: { form: {}, url: {} } };
const legacy = revision === "2025-11-25";
const server = legacy ? await startServer({ json: mode === "json" }) : await start2026({ responseMode: mode });
const drain = () => ((server.log.requests.length = 0), legacy ? (server.log.calls.length = 0) : (server.log.retries.length = 0));
const accept = { "content-type": "application/json", accept: "application/json, text/event-stream" };

// The floor's request: its headers and the params besides the tool's name and arguments.
let headers, extra;
if (legacy) {
  const post = (h, body) => fetch(server.url, { method: "POST", headers: h, body: JSON.stringify(body) });
  const init = await post(accept, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: revision, capabilities, clientInfo: { name: "floor", version: "1" } } });
  headers = { ...accept, "mcp-session-id": init.headers.get("mcp-session-id"), "mcp-protocol-version": revision };
  await init.text();
  await (await post(headers, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  extra = {};
} else {
  headers = { ...accept, "mcp-protocol-version": revision, "mcp-method": "tools/call", "mcp-name": "echo" };
  extra = { _meta: { "io.modelcontextprotocol/protocolVersion": revision, "io.modelcontextprotocol/clientCapabilities": capabilities, "io.modelcontextprotocol/clientInfo": { name: "floor", version: "1" } } };
}

const ours = async (pkg) => {
  const { mcpTools } = await import(pkg);
  const echo = (await mcpTools({ server: "b", url: server.url })).find((t) => t.name === "b_echo");
  return async (i) => {
    if ((await echo.run({ text: `n${i}` }, {})).output !== `echo: n${i}`) throw new Error("bad reply");
  };
};
const official = async (client, transport) => {
  await client.connect(transport);
  return async (i) => {
    if ((await client.callTool({ name: "echo", arguments: { text: `n${i}` } })).content[0].text !== `echo: n${i}`) throw new Error("bad reply");
  };
};
let id = 1000;
const clients = {
  floor: async (i) => {
    const c = new AbortController();
    const t = setTimeout(() => c.abort(), 60000);
    const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: `n${i}` }, ...extra } });
    await (await fetch(server.url, { method: "POST", headers, body, redirect: "manual", signal: c.signal })).text();
    clearTimeout(t);
  },
  ...(process.env.BASELINE_PKG ? { base: await ours(`${process.env.BASELINE_PKG}/mcp/node.js`) } : {}),
  ours: await ours("toolnexus-wasm/mcp"),
  "2.x": await official(new Client2({ name: "bench", version: "1" }, { capabilities, versionNegotiation: { mode: "auto" } }), new Transport2(new URL(server.url))),
  ...(legacy ? { "1.x": await official(new Client({ name: "bench", version: "1" }, { capabilities }), new StreamableHTTPClientTransport(new URL(server.url))) } : {}),
};

const names = Object.keys(clients);
const times = Object.fromEntries(names.map((k) => [k, [[], [], [], []]]));
for (const f of Object.values(clients)) for (let i = 0; i < 200; i++) drain(), await f(i); // warm up
for (let turn = 0; turn * 50 < N; turn++) {
  // Each turn starts with another client, so that a neighbour's load falls on all alike.
  for (const k of names.map((_, j) => names[(j + turn) % names.length])) {
    for (let i = turn * 50; i < Math.min(N, turn * 50 + 50); i++) {
      drain();
      const s = performance.now();
      await clients[k](i);
      const e = performance.now();
      [atRequest - s, atEnd - atRequest, e - atEnd, e - s].forEach((t, j) => times[k][j].push(t));
    }
  }
}
const median = (ts) => (ts.sort((a, b) => a - b), 1000 * ts[ts.length >> 1]);
const all = Object.fromEntries(names.map((k) => [k, median(times[k][3])]));
const peers = legacy ? ["2.x", "1.x"] : ["2.x"];
console.log(`${revision}, ${mode} replies, ${N} calls each; medians in µs`);
for (const k of names) {
  const [toRequest, atServer, toResult, whole] = times[k].map(median);
  const parts = `to request ${toRequest.toFixed(0)}, server ${atServer.toFixed(0)}, end to result ${toResult.toFixed(0)}`;
  const ratios = peers.map((p) => `/ ${p} ${(whole / all[p]).toFixed(2)}×`).join(", ");
  console.log(`  ${k.padEnd(5)} ${whole.toFixed(0).padStart(5)} (${parts}); ${ratios}`);
}
process.exit(0);
