// The Cloudflare Worker quick starts, as written, under `wrangler dev` (wrangler's local runtime,
// workerd): README.md's examples/worker (the package installed by name by npm install, the committed
// wrangler.toml) halting on a relay call and resumed by the README's curl commands, and the
// package README's worker.mjs + wrangler.toml beside the package installed from its tarball,
// answering from the scripted model (OPENAI_BASE_URL in .dev.vars); and its KV conversation
// (conversation.mjs, its [[kv_namespaces]] wrangler.toml), two prompts of one id.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { block, cleanCopy, projectWithTarball, quickstarts, removeCopy, scriptedModel, startWrangler, substitute } from "./readme.mjs";

let copy, model;
const servers = [];
before(async () => { copy = cleanCopy("worker"); model = await scriptedModel(); });
after(async () => {
  for (const s of servers) await s.stop();
  await model?.close();
  removeCopy(copy);
});

/** `wrangler dev` of a block (readme.mjs), stopped after the tests. */
async function wranglerDev(code, cwd) {
  const { port, server } = await startWrangler(code, cwd, path.dirname(copy));
  servers.push(server);
  return port;
}

/** Runs one README line `curl -X METHOD localhost:8787/path -d '<body>'` with fetch. */
async function curl(line, port) {
  const m = /^curl -X (\w+) localhost:8787(\S*) -d '([^']*)'/.exec(line.trim());
  assert.ok(m, `a curl line of a shape this test reads: ${line}`);
  const r = await fetch(`http://127.0.0.1:${port}${m[2]}`, { method: m[1], body: m[3] });
  return { status: r.status, body: await r.json() };
}

test("README.md: npm install and wrangler dev in examples/worker; the README's curl commands halt and resume a run", async () => {
  const blocks = quickstarts(path.join(copy, "README.md"));
  const port = await wranglerDev(block(blocks, "worker", "bash"), copy);
  const lines = block(blocks, "worker-curl", "bash").split("\n");
  const curls = lines.filter((l) => l.startsWith("curl "));
  const expects = lines.filter((l) => l.startsWith("# → ")).map((l) => /^# → (\d{3}) (.*)$/.exec(l));
  assert.equal(curls.length, 2);
  assert.equal(expects.length, 2);

  const start = await curl(curls[0], port);
  assert.equal(start.status, Number(expects[0][1]), JSON.stringify(start.body));
  assert.equal(start.body.status, "pending");
  const [call] = start.body.pending.data.calls;
  assert.equal(call.name, "click");
  // The placeholders the README asks the reader to fill from the first reply.
  const answer = substitute(substitute(curls[1], "<id>", start.body.id), "<call id>", call.id);
  const done = await curl(answer, port);
  assert.equal(done.status, Number(expects[1][1]), JSON.stringify(done.body));
  assert.equal(done.body.status, "done");
  assert.equal(done.body.text, /"text":"([^"]*)"/.exec(expects[1][2])[1], "the text the README shows");
});

test("pkg-template/README.md: worker.mjs and wrangler.toml under wrangler dev answer the README's curl", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy);
  fs.writeFileSync(path.join(project, "worker.mjs"), block(blocks, "worker.mjs", "js"));
  // A bare fence: the package README is TypeDoc's front page, which refuses languages it does not
  // highlight (toml).
  fs.writeFileSync(path.join(project, "wrangler.toml"), block(blocks, "wrangler.toml"));
  // The key as the README says; the base URL the Worker reads, pointing at the scripted model.
  fs.writeFileSync(path.join(project, ".dev.vars"), `OPENAI_API_KEY=sk-quickstart\nOPENAI_BASE_URL=${model.url}/v1\n`);
  const [dev, curlLine] = block(blocks, "worker-run", "bash").split("\n");
  const port = await wranglerDev(dev.split("#")[0], project);
  const r = await curl(curlLine, port);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body, { status: "done", text: "Done. lookup_price → $12.50" });
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
});

test("pkg-template/README.md: conversation.mjs with its KV binding keeps a conversation across requests", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy, "project-kv");
  fs.writeFileSync(path.join(project, "conversation.mjs"), block(blocks, "conversation.mjs", "js"));
  fs.writeFileSync(path.join(project, "wrangler.toml"), block(blocks, "conversation-wrangler.toml"));
  fs.writeFileSync(path.join(project, ".dev.vars"), `OPENAI_API_KEY=sk-quickstart\nOPENAI_BASE_URL=${model.url}/v1\n`);
  const [dev, ...curls] = block(blocks, "conversation-run", "bash").trim().split("\n");
  assert.equal(curls.length, 2);
  const port = await wranglerDev(dev, project);
  const first = await curl(curls[0], port);
  assert.deepEqual([first.status, first.body], [200, { status: "done", text: "Done. lookup_price → $12.50" }]);
  const second = await curl(curls[1], port);
  assert.deepEqual([second.status, second.body.status], [200, "done"]);
  // The model read the first exchange with the second prompt: the conversation came from KV.
  const users = model.requests.at(-1).body.messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(users, ["What does the blue mug cost?", "And the red one?"]);
});
