// MCP tool-call overhead: toolnexus-wasm/mcp beside the official SDK's own client
// (StreamableHTTPClientTransport), against the same local SDK server (tests/mcp/servers.mjs), in
// both reply modes. Not a test: `node tests/mcp/bench.mjs [calls]` after scripts/build.sh and
// the tests/mcp install (scripts/setup.sh), with tests/mcp/node_modules/toolnexus-wasm linked.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mcpTools } from "toolnexus-wasm/mcp";
import { startServer } from "./servers.mjs";

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
  console.log(`${label.padEnd(34)} ${(N / (total / 1000)).toFixed(0).padStart(6)} calls/s, ${stats(ms)}`);
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
