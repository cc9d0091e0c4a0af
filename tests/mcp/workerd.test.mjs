// An MCP server running in workerd (the official SDK's web-standard transport) reached from
// another Worker through a service binding, in Miniflare: the client Worker lists its tools with
// toolnexus-wasm/mcp and uses them in a run of the loop. And the official 2026-07-28 server
// (`@modelcontextprotocol/server`) in workerd: a run halted on its question is resumed, from JSON
// data, by a fresh workerd (a new Miniflare instance) for each answer.
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
  await esbuild.build({
    entryPoints: [path.join(here, "workerd/server2026-worker.mjs")], bundle: true, format: "esm", platform: "browser",
    conditions: ["workerd", "worker", "browser"], outfile: path.join(root, "mcp2026.mjs"), logLevel: "error",
    nodePaths: [path.join(here, "node_modules")],
  });
});
const rules = [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }];
after(() => fs.rmSync(root, { recursive: true, force: true }));

test("workerd: a Worker uses the tools of an MCP server running in workerd", async () => {
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

/** One request to a fresh Miniflare (a new workerd process): the client Worker and the 2026 server. */
async function once(p, body) {
  const mf = new Miniflare({
    workers: [
      { name: "client", modules: true, scriptPath: path.join(root, "client-worker.mjs"), modulesRoot: root, modulesRules: rules,
        compatibilityDate: "2026-04-01", serviceBindings: { MCP2026: "mcp2026" } },
      { name: "mcp2026", modules: true, scriptPath: path.join(root, "mcp2026.mjs"), modulesRoot: root, compatibilityDate: "2026-04-01" },
    ],
  });
  try {
    const res = await mf.dispatchFetch(`http://client${p}`, { method: "POST", body: JSON.stringify(body) });
    const json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(json));
    return json;
  } finally {
    await mf.dispose();
  }
}

test("workerd: a call suspended on a 2026-07-28 server's question resumes in fresh workerd instances, round after round", async () => {
  const { entry, state, sent } = await once("/halt", { prompt: "#survey" });
  assert.deepEqual(sent, ["server/discover", "tools/list", "tools/call"]);
  assert.equal(entry.protocol, "2026-07-28");
  assert.equal(state.status, "pending");
  assert.deepEqual([state.pending.kind, state.pending.prompt], ["input", "Your name?"]);
  const answer = (s, key, content) => ({ id: s.pending.id, ok: true, data: { inputResponses: { [key]: { action: "accept", content } } } });
  const first = await once("/resume", { entry, state, answer: answer(state, "name", { name: "Ann" }) });
  assert.deepEqual(first.sent, ["tools/call"], "from data: no discovery, no listing");
  assert.equal(first.result.status, "pending", "the server asks again");
  assert.equal(first.result.pending.prompt, "Favourite colour?");
  assert.ok(!JSON.stringify(first.result.pending.data).includes("name:Ann"), "the server's requestState is not in data");
  const done = await once("/resume", { entry, state: first.result, answer: answer(first.result, "colour", { colour: "red" }) });
  assert.deepEqual(done.sent, ["tools/call"]);
  assert.equal(done.result.status, "done");
  assert.equal(done.result.text, "Said: s_survey → Ann likes red");

  // A refusal from a fresh instance reaches the server, whose reply is the result.
  const asked = await once("/halt", { prompt: "#greet" });
  const declined = await once("/resume", { entry: asked.entry, state: asked.state, answer: { id: asked.state.pending.id, ok: false, reason: "declined" } });
  assert.equal(declined.result.text, "Said: s_greet → no greeting: decline");
});
