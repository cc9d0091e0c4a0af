// The Cloudflare Worker quick starts, as written, under `wrangler dev` (wrangler's local runtime,
// workerd): README.md's examples/worker (the package copied in by its one command, the committed
// wrangler.toml) halting on a relay call and resumed by the README's curl commands, and the
// package README's worker.mjs + wrangler.toml beside the package installed from its tarball,
// answering from the scripted model (OPENAI_BASE_URL in .dev.vars).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { block, cleanCopy, freePort, npmOffline, projectWithTarball, quickstarts, removeCopy, repo, scriptedModel, serve, substitute } from "./readme.mjs";

const bundlers = path.join(repo, "tests/bundlers");
const WRANGLER = path.join(bundlers, "node_modules/.bin/wrangler");
const WRANGLER_VERSION = JSON.parse(fs.readFileSync(path.join(bundlers, "package.json"), "utf8")).devDependencies.wrangler;

let copy, model;
const servers = [];
before(async () => { copy = cleanCopy("worker"); model = await scriptedModel(); });
after(async () => {
  for (const s of servers) await s.stop();
  await model?.close();
  removeCopy(copy);
});

/**
 * Runs a shell block that ends in `wrangler dev` until wrangler is ready; resolves to its port.
 * The edits: `npx wrangler@<version>` (or `npx wrangler`) → the same version installed in
 * tests/bundlers (npx would download it), and a free port for 8787.
 */
async function wranglerDev(code, cwd) {
  const npx = /npx wrangler(?:@(\S+))? dev/.exec(code);
  assert.ok(npx, `no \`npx wrangler dev\` in:\n${code}`);
  if (npx[1]) assert.equal(npx[1], WRANGLER_VERSION, "the README's wrangler is the one the tests install");
  const [port, inspector] = [await freePort(), await freePort()];
  const run = substitute(code, npx[0], `exec ${JSON.stringify(WRANGLER)} dev --ip 127.0.0.1 --port ${port} --inspector-port ${inspector}`);
  const home = fs.mkdtempSync(path.join(path.dirname(copy), "home-"));
  const server = await serve("bash", ["-euo", "pipefail", "-c", run], {
    cwd, ready: /Ready on http/, timeoutMs: 90_000,
    env: { ...npmOffline(cwd), WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: home, WRANGLER_LOG_PATH: home, NO_COLOR: "1" },
  });
  servers.push(server);
  assert.doesNotMatch(server.output(), /\bERROR\b|✘/u, "wrangler started without errors");
  // esbuild's and wrangler's config warnings (a missing compatibility_date, the shipped glue's
  // duplicate keys) print as [WARNING]; `[wrangler:warn]` lines are about the network (Request.cf).
  assert.doesNotMatch(server.output(), /\[WARNING\]/u, "wrangler started without warnings");
  return port;
}

/** Runs one README line `curl -X METHOD localhost:8787/path -d '<body>'` with fetch. */
async function curl(line, port) {
  const m = /^curl -X (\w+) localhost:8787(\S*) -d '([^']*)'/.exec(line.trim());
  assert.ok(m, `a curl line of a shape this test reads: ${line}`);
  const r = await fetch(`http://127.0.0.1:${port}${m[2]}`, { method: m[1], body: m[3] });
  return { status: r.status, body: await r.json() };
}

test("README.md: copy-pkg.sh and wrangler dev in examples/worker; the README's curl commands halt and resume a run", async () => {
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
