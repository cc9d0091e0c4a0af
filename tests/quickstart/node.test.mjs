// The Node quick starts, as written: README.md's (the package installed from the clone's pkg/ by
// the README's own commands) and the package README's (installed from the packed tarball), each
// `app.mjs` run with node against the scripted model (OPENAI_BASE_URL, as the README says); and the
// package README's durable halt (`halt.mjs`: halted on a relay call, kept in a file, resumed) and
// its model in process (`in-process.mjs`).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { block, cleanCopy, projectWithTarball, quickstarts, removeCopy, scriptedModel, sh, substitute } from "./readme.mjs";

let copy, model;
before(async () => { copy = cleanCopy("node"); model = await scriptedModel(); });
after(async () => { await model?.close(); removeCopy(copy); });

/**
 * Runs `app.mjs` in `dir` as the README says, against the scripted model (served by this process:
 * the child runs asynchronously); resolves to its stdout.
 */
const runApp = async (dir, file = "app.mjs") => (await promisify(execFile)(process.execPath, [file], {
  cwd: dir, encoding: "utf8", timeout: 30_000,
  env: { ...process.env, OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: "sk-quickstart" },
})).stdout;

test("README.md: install from the clone's pkg/, then app.mjs answers with the tool's result", async () => {
  const blocks = quickstarts(path.join(copy, "README.md"));
  // The one edit: the README's placeholder for where the clone is.
  sh(substitute(block(blocks, "node-install", "bash"), "/path/to/toolnexus-wasm", copy), path.dirname(copy));
  const project = path.join(path.dirname(copy), "my-agent");
  assert.ok(fs.existsSync(path.join(project, "node_modules/toolnexus-wasm/package.json")), "the package is installed");
  fs.writeFileSync(path.join(project, "app.mjs"), block(blocks, "node", "js"));
  const before = model.requests.length;
  assert.equal((await runApp(project)).trim(), "Done. lookup_price → $12.50");
  assert.equal(model.requests.length - before, 2, "two model calls: the tool call, then the answer");
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
});

test("pkg-template/README.md: installed from the tarball, app.mjs answers with the tool's result", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy);
  fs.writeFileSync(path.join(project, "app.mjs"), block(blocks, "node", "js"));
  assert.equal((await runApp(project)).trim(), "Done. lookup_price → $12.50");
});

test("pkg-template/README.md: agents.mjs delegates to the shopper agent, whose relay call reaches waitFor", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy, "project-agents");
  fs.writeFileSync(path.join(project, "agents.mjs"), block(blocks, "agents.mjs", "js"));
  const before = model.requests.length;
  const [text, tokens] = (await runApp(project, "agents.mjs")).trim().split(/ (?=\d+$)/u);
  assert.equal(text, "The shopper reports: Done. lookup_price → $12.50 for blue mug; click → clicked #add-to-cart");
  assert.ok(Number(tokens) > 0, "the child's usage, by agent");
  assert.equal(model.requests.length - before, 4, "the root's two calls and the shopper's two");
});

test("pkg-template/README.md: halt.mjs halts on the relay call, keeps the state in a file and resumes it", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy, "project-halt");
  fs.writeFileSync(path.join(project, "halt.mjs"), block(blocks, "halt.mjs", "js"));
  const before = model.requests.length;
  assert.equal((await runApp(project, "halt.mjs")).trim(), "Done. lookup_price → $12.50; click → clicked #add-to-cart");
  assert.equal(model.requests.length - before, 2, "one call that halted, one after the resume");
  const kept = JSON.parse(fs.readFileSync(path.join(project, "halted.json"), "utf8"));
  assert.equal(kept.status, "pending");
  assert.equal(kept.pending.data.calls[0].name, "click");
});

test("pkg-template/README.md: in-process.mjs runs the loop on a function and halts on its relay call", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy, "project-in-process");
  fs.writeFileSync(path.join(project, "in-process.mjs"), block(blocks, "in-process.mjs", "js"));
  const before = model.requests.length;
  assert.equal((await runApp(project, "in-process.mjs")).trim(), "pending tool_call");
  assert.equal(model.requests.length, before, "no request reached the network's model");
});
