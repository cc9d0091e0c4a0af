// MCP tool-call overhead: toolnexus-wasm/mcp beside the official SDKs' own clients, against the
// same local servers, in both reply modes (JSON and SSE): revision 2025-11-25 with the 1.x SDK
// client and with the 2.x one (tests/mcp/servers.mjs, sessions), and revision 2026-07-28 with
// the 2.x client (`@modelcontextprotocol/client`, `versionNegotiation: { mode: "auto" }`) against the 2.x server
// (tests/mcp/server2026.mjs, stateless). The `log` the 2026 server keeps is emptied between calls.
// Not a test: `node tests/mcp/bench.mjs [calls] [rounds] [capabilities]` after scripts/build.sh and the
// tests/mcp install (scripts/setup.sh), with tests/mcp/node_modules/toolnexus-wasm linked.
// Each round times every pair once, the two clients' calls in turns against one server; the
// summary gives, per pair, the median over rounds of
// the ratio of median latencies (ours / the SDK's) and its spread: on a shared machine one round
// says little.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { mcpTools } from "toolnexus-wasm/mcp";
import { startServer } from "./servers.mjs";
import { start2026 } from "./server2026.mjs";

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 1);
const quantile = (ms, p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
// Times the two clients' calls in turns of 50 calls each (`a` first on even turns, `b` first on
// odd ones), so that a neighbour's load on a shared machine falls on both alike; prints each
// one's rate and latency, and returns the ratio of their median latencies (a / b).
async function time([labelA, a], [labelB, b]) {
  for (let i = 0; i < 200; i++) await a(i), await b(i); // warm up
  const runs = [
    [labelA, a, [], 0],
    [labelB, b, [], 0],
  ];
  for (let turn = 0; turn * 50 < N; turn++) {
    for (const r of turn % 2 ? [runs[1], runs[0]] : runs) {
      for (let i = turn * 50; i < Math.min(N, turn * 50 + 50); i++) {
        const s = performance.now();
        await r[1](i);
        const t = performance.now() - s;
        r[2].push(t);
        r[3] += t;
      }
    }
  }
  const medians = runs.map(([label, , ms, total]) => {
    ms.sort((x, y) => x - y);
    const median = quantile(ms, 0.5);
    const rate = (N / (total / 1000)).toFixed(0).padStart(6);
    console.log(`${label.padEnd(56)} ${rate} calls/s, median ${median.toFixed(3)} ms, p95 ${quantile(ms, 0.95).toFixed(3)} ms`);
    return median;
  });
  return medians[0] / medians[1];
}

// The SDK clients declare what ours does (it answers form and URL elicitations). A 2026-07-28
// request carries the client's capabilities each time, and the official server's reading of
// `elicitation: { form, url }` costs it about 0.25 ms a request on the machine this was measured
// on: left out, the bench timed the server's work beside the client's. `capabilities: none` as
// the third argument leaves them out (the SDK clients' default), to see that cost.
const SAME_CAPABILITIES = process.argv[4] === "none" ? {} : { elicitation: { form: {}, url: {} } };

const echoed = (i, text) => {
  if (text !== `echo: n${i}`) throw new Error(`bad reply: ${text}`);
};

// Revision 2025-11-25 (sessions), the 1.x SDK client beside ours, or (`v2`) the 2.x client,
// which speaks 2025-11-25 to a server without 2026-07-28.
async function pair2025(json, v2) {
  const server = await startServer({ json });
  const mode = `2025-11-25, ${v2 ? "2.x" : "1.x"} client, ${json ? "JSON" : "SSE"} replies`;
  const tools = await mcpTools({ server: "b", url: server.url });
  const echo = tools.find((t) => t.name === "b_echo");
  const sdk = v2
    ? new Client2({ name: "bench", version: "1" }, { capabilities: SAME_CAPABILITIES, versionNegotiation: { mode: "auto" } })
    : new Client({ name: "bench", version: "1" }, { capabilities: SAME_CAPABILITIES });
  await sdk.connect(v2 ? new Transport2(new URL(server.url)) : new StreamableHTTPClientTransport(new URL(server.url)));
  const ratio = await time(
    [`toolnexus-wasm/mcp, ${mode}`, async (i) => echoed(i, (await echo.run({ text: `n${i}` }, {})).output)],
    [`the SDK client, ${mode}`, async (i) => echoed(i, (await sdk.callTool({ name: "echo", arguments: { text: `n${i}` } })).content[0].text)],
  );
  const seen = server.log.requests.at(-1)?.version;
  if (seen !== "2025-11-25") throw new Error(`the SDK client spoke ${seen}`);
  await sdk.close();
  await tools.close();
  await server.close();
  return [mode, ratio];
}

// Revision 2026-07-28 (stateless), the 2.x client (`@modelcontextprotocol/client`) beside ours.
async function pair2026(responseMode) {
  const server = await start2026({ responseMode });
  const drain = () => ((server.log.requests.length = 0), (server.log.retries.length = 0));
  const mode = `2026-07-28, 2.x client, ${responseMode === "json" ? "JSON" : "SSE"} replies`;
  const tools = await mcpTools({ server: "b", url: server.url });
  if (tools.source.protocol !== "2026-07-28") throw new Error(`spoke ${tools.source.protocol}`);
  const echo = tools.find((t) => t.name === "b_echo");
  const sdk = new Client2({ name: "bench", version: "1" }, { capabilities: SAME_CAPABILITIES, versionNegotiation: { mode: "auto" } });
  await sdk.connect(new Transport2(new URL(server.url)));
  const ratio = await time(
    [
      `toolnexus-wasm/mcp, ${mode}`,
      async (i) => {
        drain();
        echoed(i, (await echo.run({ text: `n${i}` }, {})).output);
      },
    ],
    [
      `the SDK client, ${mode}`,
      async (i) => {
        drain();
        echoed(i, (await sdk.callTool({ name: "echo", arguments: { text: `n${i}` } })).content[0].text);
      },
    ],
  );
  const seen = server.log.requests.at(-1)?.headers["mcp-protocol-version"];
  if (seen !== "2026-07-28") throw new Error(`the SDK client spoke ${seen}`);
  await sdk.close();
  await tools.close();
  await server.close();
  return [mode, ratio];
}

const ratios = new Map();
for (let round = 0; round < ROUNDS; round++) {
  if (ROUNDS > 1) console.log(`round ${round + 1} of ${ROUNDS}`);
  for (const run of [() => pair2025(false), () => pair2025(true), () => pair2025(false, true), () => pair2025(true, true), () => pair2026("json"), () => pair2026("sse")]) {
    const [mode, r] = await run();
    ratios.set(mode, [...(ratios.get(mode) ?? []), r]);
  }
}
console.log(`ours / the SDK client's median latency, over ${ROUNDS} round(s) of ${N} calls:`);
for (const [mode, rs] of ratios) {
  rs.sort((a, b) => a - b);
  const spread = rs.length > 1 ? ` (rounds ${rs[0].toFixed(2)}–${rs.at(-1).toFixed(2)})` : "";
  console.log(`  ${mode.padEnd(40)} ${quantile(rs, 0.5).toFixed(2)}×${spread}`);
}
