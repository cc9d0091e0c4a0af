// What an MCP tool call costs the client itself (issue 31 item 6), net of the server and the
// network: each client's `fetch` is a replay of the real servers' replies, so every client
// waits on the same in-memory answer and what is left is its own work (building the request,
// its signal and deadline, reading and checking the reply, the result).
// The replies are recorded first from the servers of tests/mcp/bench.mjs (the 1.x SDK's session
// server for 2025-11-25, the 2.x server for 2026-07-28, JSON or SSE replies), one per JSON-RPC
// method, and replayed with the request's id and the echoed text put in. `replay` alone (the
// request written, the replay, its body read as text) is the floor every client pays.
// Timed in turns of 50 calls, in one process; the summary gives each client's median above the
// floor and ours ÷ the official client's.
// Not a test: `node tests/mcp/overhead.mjs [calls] [rounds]` after scripts/build.sh and the
// tests/mcp install.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { mcpTools } from "toolnexus-wasm/mcp";
import { startServer } from "./servers.mjs";
import { start2026 } from "./server2026.mjs";

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CAPABILITIES = { elicitation: { form: {}, url: {} } };
const URL_ = "http://mcp.invalid/mcp";

// The recording: what the real server answered to each JSON-RPC method (`GET` and `DELETE` by
// their HTTP method), as status, headers and body text.
async function record(start, clients) {
  const server = await start();
  const replies = new Map();
  const recorder = async (url, init) => {
    const res = await fetch(server.url, { ...init, signal: undefined });
    const text = await res.text();
    const method = key(init);
    if (!replies.has(method) || method.startsWith("tools/call")) replies.set(method, { status: res.status, headers: [...res.headers], text });
    return new Response(res.status === 204 || res.status === 202 ? null : text, { status: res.status, headers: res.headers });
  };
  for (const c of clients) await c(recorder);
  await server.close();
  return replies;
}

// A request's key in the recording: its JSON-RPC method (and a listing's page), else its HTTP one.
function key(init, msg = init?.body ? JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body)) : undefined) {
  return msg ? `${msg.method} ${msg.params?.cursor ?? ""}` : init?.method ?? "GET";
}

// A `fetch` that answers from the recording: the reply to the request's method, with its id and
// the echoed text (`echo: <text>`) replaced by the request's own.
function replayer(replies) {
  return async (_url, init) => {
    const msg = init?.body ? JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body)) : undefined;
    const r = replies.get(key(init, msg)) ?? { status: 405, headers: [], text: "" };
    let text = r.text;
    if (msg?.id !== undefined) text = text.replace(/"id":\d+/, `"id":${JSON.stringify(msg.id)}`);
    if (msg?.method === "tools/call") text = text.replace(/echo: [^"]*/, `echo: ${msg.params.arguments.text}`);
    return new Response(r.status === 202 || r.status === 204 ? null : text, { status: r.status, headers: r.headers });
  };
}

// The three clients on a given `fetch`: each resolves to a call `(i) => …` of `echo`.
const ours = (fetch) => async () => {
  const tools = await mcpTools({ server: "b", url: URL_, fetch });
  const echo = tools.find((t) => t.name === "b_echo");
  return async (i) => check(i, (await echo.run({ text: `n${i}` }, {})).output);
};
const sdk1 = (fetch) => async () => {
  const c = new Client({ name: "bench", version: "1" }, { capabilities: CAPABILITIES });
  await c.connect(new StreamableHTTPClientTransport(new URL(URL_), { fetch }));
  return async (i) => check(i, (await c.callTool({ name: "echo", arguments: { text: `n${i}` } })).content[0].text);
};
const sdk2 = (fetch) => async () => {
  const c = new Client2({ name: "bench", version: "1" }, { capabilities: CAPABILITIES, versionNegotiation: { mode: "auto" } });
  await c.connect(new Transport2(new URL(URL_), { fetch }));
  return async (i) => check(i, (await c.callTool({ name: "echo", arguments: { text: `n${i}` } })).content[0].text);
};
const check = (i, text) => {
  if (text !== `echo: n${i}`) throw new Error(`bad reply: ${text}`);
};

// The floor: the call's request written and answered by the replay, its body read.
function floor(replay, headers, params) {
  let id = 1;
  return async () => async (i) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: `n${i}` }, ...params } });
    await (await replay(URL_, { method: "POST", headers, body })).text();
  };
}

const median = (ts) => (ts.sort((a, b) => a - b), 1000 * ts[ts.length >> 1]);
async function time(calls) {
  const names = Object.keys(calls);
  const times = Object.fromEntries(names.map((k) => [k, []]));
  for (const f of Object.values(calls)) for (let i = 0; i < 200; i++) await f(i); // warm up
  for (let turn = 0; turn * 50 < N; turn++) {
    for (const k of names.map((_, j) => names[(j + turn) % names.length])) {
      for (let i = turn * 50; i < Math.min(N, turn * 50 + 50); i++) {
        const s = performance.now();
        await calls[k](i);
        times[k].push(performance.now() - s);
      }
    }
  }
  return Object.fromEntries(names.map((k) => [k, median(times[k])]));
}

const cases = [];
for (const json of [true, false]) {
  const mode = json ? "JSON" : "SSE";
  const replies = await record(() => startServer({ json }), [ours, sdk1].map((c) => async (f) => (await c(f)())(0)));
  const replay = replayer(replies);
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  cases.push([`2025-11-25, ${mode} replies`, { floor: floor(replay, base), ours: ours(replay), "1.x": sdk1(replay), "2.x": sdk2(replay) }]);
}
for (const responseMode of ["json", "sse"]) {
  const replies = await record(() => start2026({ responseMode }), [ours, sdk2].map((c) => async (f) => (await c(f)())(0)));
  const replay = replayer(replies);
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" };
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": CAPABILITIES, "io.modelcontextprotocol/clientInfo": { name: "floor", version: "1" } };
  cases.push([`2026-07-28, ${responseMode.toUpperCase()} replies`, { floor: floor(replay, headers, { _meta: meta }), ours: ours(replay), "2.x": sdk2(replay) }]);
}

const summary = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, makers] of cases) {
    const calls = {};
    for (const [k, make] of Object.entries(makers)) calls[k] = await make();
    const m = await time(calls);
    const net = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v - m.floor]));
    console.log(`${label}, round ${round + 1}: medians in µs ${Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`);
    for (const peer of ["1.x", "2.x"]) {
      if (!(peer in net)) continue;
      const key = `${label}, ours ÷ ${peer} client`;
      summary.set(key, [...(summary.get(key) ?? []), [net.ours, net[peer]]]);
    }
  }
}
console.log(`The client's own cost (median above the replay floor), over ${ROUNDS} round(s) of ${N} calls:`);
for (const [key, rs] of summary) {
  const ratios = rs.map(([a, b]) => a / b).sort((a, b) => a - b);
  const mid = rs[rs.length >> 1];
  console.log(`  ${key.padEnd(44)} ${ratios[ratios.length >> 1].toFixed(2)}× (rounds ${ratios[0].toFixed(2)}–${ratios.at(-1).toFixed(2)}; e.g. ${mid[0].toFixed(0)} µs against ${mid[1].toFixed(0)} µs)`);
}
process.exit(0);
