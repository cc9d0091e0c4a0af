// `require()` of every entry in Node (the `node` > `require` conditions: a .cjs beside each ES
// module entry, loaded through Node's require(esm), Node 20.19+ and 22.12+): the same module
// instances as `import`, so one wasm memory, one ToolnexusError class and one set of functions.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const [major, minor] = process.versions.node.split(".").map(Number);
const requireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);

test("require() gives each entry's ES module itself", { skip: !requireEsm && `Node ${process.versions.node} has no require(esm)` }, async () => {
  for (const [name, fn] of [["toolnexus-wasm", "createClient"], ["toolnexus-wasm/full", "createClient"], ["toolnexus-wasm/mcp", "mcpTools"], ["toolnexus-wasm/web-storage", "localStorageStore"], ["toolnexus-wasm/workflows", "runInWorkflow"], ["toolnexus-wasm/blobs", "withBlobs"], ["toolnexus-wasm/agents", "agentTool"], ["toolnexus-wasm/ui", "toUIMessageStream"], ["toolnexus-wasm/in-process", "inProcessModel"], ["toolnexus-wasm/prompt-api", "promptApi"], ["toolnexus-wasm/browser", "browserTools"], ["toolnexus-wasm/workers-ai", "workersAI"]]) {
    assert.match(require.resolve(name), /\.cjs$/, `${name} resolves to its CommonJS file`);
    const cjs = require(name);
    const esm = await import(name);
    assert.equal(typeof cjs[fn], "function", `${name}: ${fn}`);
    assert.equal(cjs[fn], esm[fn], `${name}: one module instance`);
  }
  assert.equal(require("toolnexus-wasm/mcp").ToolnexusError, require("toolnexus-wasm").ToolnexusError);
  // A blobs error is the package's one error class.
  assert.throws(() => require("toolnexus-wasm/blobs").withBlobs({}, {}), require("toolnexus-wasm").ToolnexusError);
  // The wasm is loaded: a client from require() runs.
  const { createClient } = require("toolnexus-wasm");
  const client = createClient({
    baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k",
    fetch: async () => new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] })),
  });
  assert.equal((await client.run("hello")).text, "hi");
});
