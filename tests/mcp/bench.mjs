// MCP tool-call overhead: toolnexus-wasm/mcp beside the official SDKs' own clients, against the
// same local servers, in both reply modes (JSON and SSE): revision 2025-11-25 with the 1.x SDK
// client (tests/mcp/servers.mjs, sessions), and revision 2026-07-28 with the 2.x client
// (`@modelcontextprotocol/client`, `versionNegotiation: { mode: "auto" }`) against the 2.x server
// (tests/mcp/server2026.mjs, stateless). The `log` the 2026 server keeps is emptied between calls. Not a test: `node tests/mcp/bench.mjs [calls]` after scripts/build.sh and
// the tests/mcp install (scripts/setup.sh), with tests/mcp/node_modules/toolnexus-wasm linked.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { mcpTools } from "toolnexus-wasm/mcp";
import { startServer } from "./servers.mjs";
import { start2026 } from "./server2026.mjs";

const N = Number(process.argv[2] ?? 2000);
const stats = (ms) => {
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return `median ${q(0.5).toFixed(3)} ms, p95 ${q(0.95).toFixed(3)} ms`;
};
async function time(label, call) {
  for (let i = 0; i < 200; i++) await call(i); // warm up
  const ms = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    await call(i);
    ms.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  console.log(`${label.padEnd(46)} ${(N / (total / 1000)).toFixed(0).padStart(6)} calls/s, ${stats(ms)}`);
}

for (const json of [false, true]) {
  const server = await startServer({ json });
  const mode = json ? "JSON replies" : "SSE replies";
  const tools = await mcpTools({ server: "b", url: server.url });
  const echo = tools.find((t) => t.name === "b_echo");
  await time(`toolnexus-wasm/mcp, ${mode}`, async (i) => {
    const r = await echo.run({ text: `n${i}` }, {});
    if (r.output !== `echo: n${i}`) throw new Error(r.output);
  });
  const sdk = new Client({ name: "bench", version: "1" });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  await time(`SDK client, ${mode}`, async (i) => {
    const r = await sdk.callTool({ name: "echo", arguments: { text: `n${i}` } });
    if (r.content[0].text !== `echo: n${i}`) throw new Error("bad reply");
  });
  await sdk.close();
  await tools.close();
  await server.close();
}

for (const responseMode of ["json", "sse"]) {
  const server = await start2026({ responseMode });
  const drain = () => ((server.log.requests.length = 0), (server.log.retries.length = 0));
  const mode = `2026-07-28, ${responseMode === "json" ? "JSON" : "SSE"} replies`;
  const tools = await mcpTools({ server: "b", url: server.url });
  if (tools.source.protocol !== "2026-07-28") throw new Error(`spoke ${tools.source.protocol}`);
  const echo = tools.find((t) => t.name === "b_echo");
  await time(`toolnexus-wasm/mcp, ${mode}`, async (i) => {
    drain();
    const r = await echo.run({ text: `n${i}` }, {});
    if (r.output !== `echo: n${i}`) throw new Error(r.output);
  });
  const sdk = new Client2({ name: "bench", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await sdk.connect(new Transport2(new URL(server.url)));
  await time(`SDK 2.x client, ${mode}`, async (i) => {
    drain();
    const r = await sdk.callTool({ name: "echo", arguments: { text: `n${i}` } });
    if (r.content[0].text !== `echo: n${i}`) throw new Error("bad reply");
  });
  const seen = server.log.requests.at(-1)?.headers["mcp-protocol-version"];
  if (seen !== "2026-07-28") throw new Error(`the SDK client spoke ${seen}`);
  await sdk.close();
  await tools.close();
  await server.close();
}
