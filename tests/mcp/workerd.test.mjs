// An MCP server running in workerd (the official SDK's web-standard transport) reached from
// another Worker through a service binding, in Miniflare: the client Worker lists its tools with
// toolnexus-wasm/mcp and uses them in a run of the loop.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = path.dirname(fileURLToPath(import.meta.url));
const tools = createRequire(path.resolve(here, "../../tools/js/package.json"));
const { Miniflare } = tools("miniflare");
const esbuild = tools("esbuild");

let root;
before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-mcp-workerd-"));
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(root, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(here, "workerd/client-worker.mjs"), path.join(root, "client-worker.mjs"));
  fs.copyFileSync(path.resolve(here, "../../demo/scripted-logic.mjs"), path.join(root, "scripted-logic.mjs"));
  await esbuild.build({
    entryPoints: [path.join(here, "workerd/mcp-server-worker.mjs")], bundle: true, format: "esm", platform: "browser",
    conditions: ["workerd", "worker", "browser"], outfile: path.join(root, "mcp-server.mjs"), logLevel: "error",
    nodePaths: [path.join(here, "node_modules")],
  });
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

test("workerd: a Worker uses the tools of an MCP server running in workerd", async () => {
  const rules = [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }];
  const mf = new Miniflare({
    workers: [
      { name: "client", modules: true, scriptPath: path.join(root, "client-worker.mjs"), modulesRoot: root, modulesRules: rules,
        compatibilityDate: "2026-04-01", serviceBindings: { MCP: "mcp" } },
      { name: "mcp", modules: true, scriptPath: path.join(root, "mcp-server.mjs"), modulesRoot: root, compatibilityDate: "2026-04-01" },
    ],
  });
  try {
    const res = await mf.dispatchFetch("http://client/");
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.names, ["edge_where", "edge_shout"]);
    assert.equal(body.status, "done");
    assert.equal(body.text, "Edge: edge_where → workerd (Workers runtime); edge_shout → FROM A WORKER");
  } finally {
    await mf.dispose();
  }
});
