// mcpTools against the MCP reference server @modelcontextprotocol/server-everything (pinned in
// package.json) in its Streamable HTTP mode, run as its own process: its real tools listed and
// called (text, a sum, structured content, an image), one used by the loop, the session ended;
// its elicitation tools are not offered to a client that does not declare elicitation.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient, createToolkit } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let proc, url;

/** A port the system just handed out (closed again at once, then given to the server). */
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

before(async () => {
  const port = await freePort();
  const entry = path.join(here, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  proc = spawn(process.execPath, [entry, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise((resolve, reject) => {
    let log = "";
    const t = setTimeout(() => reject(new Error(`server-everything did not start: ${log}`)), 15000);
    proc.stderr.on("data", (d) => { log += d; if (log.includes("listening on port")) { clearTimeout(t); resolve(); } });
    proc.on("exit", (code) => reject(new Error(`server-everything exited ${code}: ${log}`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
});
after(() => proc?.kill());

test("server-everything: its tools are listed, called and used in a run", async () => {
  const tools = await mcpTools({ server: "everything", url });
  const names = tools.map((t) => t.name);
  for (const n of ["everything_echo", "everything_get-sum", "everything_get-tiny-image", "everything_get-structured-content"]) assert.ok(names.includes(n), `${n} in ${names}`);
  // An SDK 1.x server: the 2026-07-28 probe is refused and the session protocol is used.
  assert.equal(tools.source.protocol, "2025-11-25");
  // Its questions are server-to-client requests inside a session (not `input_required`), which the
  // client cannot answer yet: it declares no elicitation at initialize, so the server, which
  // offers these tools only to clients that do, leaves them out rather than asking mid-call.
  for (const n of ["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request"]) {
    assert.ok(!names.includes(`everything_${n}`), `${n} is not offered`);
  }
  const tool = (n) => tools.find((t) => t.name === `everything_${n}`);
  assert.equal((await tool("echo").run({ message: "hi" }, {})).output, "Echo: hi");
  assert.equal((await tool("get-sum").run({ a: 2, b: 3 }, {})).output, "The sum of 2 and 3 is 5.");
  const weather = await tool("get-structured-content").run({ location: "Chicago" }, {});
  assert.equal(weather.isError, false);
  assert.deepEqual(Object.keys(JSON.parse(weather.output)).sort(), ["conditions", "humidity", "temperature"]);
  const img = await tool("get-tiny-image").run({}, {});
  assert.match(img.output, /^Here's the image you requested:/);
  const image = img.metadata.content.find((c) => c.type === "image");
  assert.equal(image.mimeType, "image/png");
  assert.ok(image.data.startsWith("iVBORw0KGgo"), "the PNG is kept as it came");
  const bad = await tool("get-sum").run({ a: "two" }, {});
  assert.equal(bad.isError, true, "an invalid argument is an error result");

  const scenarios = { ev: [{ calls: [["everything_echo", { message: "from the loop" }], ["everything_get-sum", { a: 40, b: 2 }]] }, { text: "{{results}}" }] };
  const client = createClient({ baseUrl: "http://model.test", style: "gemini", model: "scripted", apiKey: "k", fetch: scriptedFetch(scenarios) });
  const r = await client.run("#ev", { toolkit: createToolkit({ tools }) });
  assert.equal(r.text, "everything_echo → Echo: from the loop; everything_get-sum → The sum of 40 and 2 is 42.");
  await tools.close();
});
