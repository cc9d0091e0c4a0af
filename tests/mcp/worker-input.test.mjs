// examples/worker with the official 2026-07-28 MCP server (tests/mcp/server2026.mjs) in workerd
// (Miniflare): a run halts on the server's question, the Worker restarts (a new Miniflare
// instance, so a new workerd process, over the same persisted KV) and the user's answer, posted
// there, finishes the run; a tool that asks twice takes three instances; a cancel reaches the
// server. The resuming instances only call the tool: the listing comes from KV.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { start2026 } from "./server2026.mjs";
import { bundleExample, workerModules } from "../workerd/bundle-example.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const { Miniflare } = createRequire(path.join(repo, "tools/js/package.json"))("miniflare");
let root, mcp;
before(async () => {
  mcp = await start2026();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-worker-input-"));
  bundleExample("worker", path.join(root, "worker"));
});
after(async () => { await mcp?.close(); fs.rmSync(root, { recursive: true, force: true }); });

const worker = () => new Miniflare({
  ...workerModules(path.join(root, "worker")),
  compatibilityDate: "2026-04-01", kvNamespaces: ["RUNS"], kvPersist: path.join(root, "kv"), bindings: { MCP_URL: mcp.url },
});
/** One request to a fresh instance, which is then disposed of: nothing but KV outlives it. */
async function once(method, p, body) {
  const mf = worker();
  try {
    const r = await mf.dispatchFetch(`http://w${p}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  } finally {
    await mf.dispose();
  }
}
const methods = (from) => mcp.log.requests.slice(from).map((r) => r.body?.method);
const accept = (key, content) => ({ [key]: { action: "accept", content } });

test("a run halted on an MCP question resumes in a fresh workerd with the user's answer", async () => {
  const start = await once("POST", "/runs", { prompt: "#greet" });
  assert.equal(start.status, 202, JSON.stringify(start.body));
  const { id, pending } = start.body;
  assert.equal(pending.kind, "input");
  assert.equal(pending.prompt, "Who should I greet?");
  assert.deepEqual(Object.keys(pending.data.inputRequests), ["who"]);
  assert.equal(pending.data.server, "mcp");
  assert.deepEqual(methods(0).slice(-3), ["server/discover", "tools/list", "tools/call"]);

  const stored = await once("GET", `/runs/${id}`);
  assert.equal(stored.body.pending.id, pending.id, "halted in KV");
  assert.ok(!JSON.stringify(stored.body.pending.data).includes("greet:Hello"), "the server's requestState is not in data");

  const wrong = await once("POST", `/runs/${id}/answer`, { results: [{ id: "x", output: "clicked" }] });
  assert.deepEqual([wrong.status, wrong.body.error.code], [409, "answer_mismatch"], "relay results do not answer a question");
  const n = mcp.log.requests.length;
  const done = await once("POST", `/runs/${id}/answer`, { inputResponses: accept("who", { name: "Ann" }) });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.text, "The MCP server says: mcp_greet → Hello, Ann!");
  assert.deepEqual(methods(n), ["tools/call"], "no discovery, no listing: the tools came from KV");
  const retry = mcp.log.requests.at(-1).body.params;
  assert.deepEqual([retry.requestState, retry.inputResponses], ["greet:Hello", accept("who", { name: "Ann" })]);
  const stale = await once("POST", `/runs/${id}/answer`, { inputResponses: accept("who", { name: "Bob" }) });
  assert.deepEqual([stale.status, stale.body.error.code], [409, "not_halted"]);
});

test("a tool that asks twice: three workerd instances; a cancel through { answer } reaches the server", async () => {
  const start = await once("POST", "/runs", { prompt: "#survey" });
  assert.equal(start.body.pending.prompt, "Your name?");
  const { id } = start.body;
  const second = await once("POST", `/runs/${id}/answer`, { inputResponses: accept("name", { name: "Ann" }) });
  assert.equal(second.status, 202, "the server asks again");
  assert.equal(second.body.pending.prompt, "Favourite colour?");
  const mismatch = await once("POST", `/runs/${id}/answer`, { answer: { id: start.body.pending.id, ok: true, data: { inputResponses: accept("colour", { colour: "red" }) } } });
  assert.deepEqual([mismatch.status, mismatch.body.error.code], [409, "answer_mismatch"], "the first question's id does not answer the second");
  const done = await once("POST", `/runs/${id}/answer`, { inputResponses: accept("colour", { colour: "red" }) });
  assert.equal(done.body.text, "The MCP server says: mcp_survey → Ann likes red");
  assert.equal(mcp.log.requests.at(-1).body.params.requestState, "name:Ann");

  const again = await once("POST", "/runs", { prompt: "#greet" });
  const cancelled = await once("POST", `/runs/${again.body.id}/answer`, { answer: { id: again.body.pending.id, ok: false, reason: "cancelled" } });
  assert.equal(cancelled.body.text, "The MCP server says: mcp_greet → no greeting: cancel");
  assert.deepEqual(mcp.log.requests.at(-1).body.params.inputResponses, { who: { action: "cancel" } });
});
