// examples/workflow's README, as written, under `wrangler dev` (wrangler's local Workflows
// runtime, workerd): the package installed by name (npm install), the committed wrangler.toml, then
// the README's curl session, line by line, against what each `# →` line shows. A person waits for
// a call to be listed before answering it, and for the run to end before reading it: so does this.
// Also the package README's Workflows section: agent.mjs and its wrangler.toml beside the package
// installed from its tarball, under `wrangler dev`, driven by the README's curl session.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { block, cleanCopy, projectWithTarball, quickstarts, removeCopy, scriptedModel, startWrangler, substitute } from "./readme.mjs";

let copy, server, model;
const servers = [];
before(() => { copy = cleanCopy("workflow"); });
after(async () => {
  await server?.stop();
  for (const s of servers) await s.stop();
  await model?.close();
  removeCopy(copy);
});

/** Polls `f()` until `ok(value)`, every 50 ms, for up to 30 s. */
async function until(f, ok) {
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`timed out; last: ${JSON.stringify(v)}`);
  }
}

test("examples/workflow/README.md: npm install and wrangler dev; the README's curl session runs an agent instance to its end", async () => {
  const blocks = quickstarts(path.join(copy, "examples/workflow/README.md"));
  let port;
  ({ port, server } = await startWrangler(block(blocks, "workflow", "bash"), copy, path.dirname(copy)));
  const base = `http://127.0.0.1:${port}`;
  const get = async (route) => { const r = await fetch(base + route); return { status: r.status, body: await r.json() }; };

  const lines = block(blocks, "workflow-curl", "bash").split("\n").filter((l) => l.trim());
  let id, last;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith("# → ")) {
      const [, status, shown] = /^# → (\d{3}) (.*)$/.exec(line);
      assert.equal(last.status, Number(status), `${lines[i - 1]}\n${JSON.stringify(last.body)}`);
      const text = /"text":"([^"]*)"/.exec(shown)?.[1];
      if (text) assert.equal(last.body.output.text, text, "the text the README shows");
      const events = [...shown.matchAll(/"event":"([^"]+)"/g)].map((m) => m[1]);
      if (Array.isArray(last.body)) assert.deepEqual(last.body.map((s) => s.event), events, "the listing the README shows");
      continue;
    }
    const m = /^curl (?:-X (\w+) )?localhost:8787(\S+)(?: -d '([^']*)')?$/.exec(line.trim());
    assert.ok(m, `a curl line of a shape this test reads: ${line}`);
    const route = id ? substitute(m[2], "<id>", id) : m[2];
    const event = /\/suspensions\/([^/]+)$/.exec(route)?.[1];
    const next = lines[i + 1] ?? "";
    if (event) await until(() => get(`/agents/${id}/suspensions`), (r) => r.body.some((s) => s.event === event));
    if (m[1] === "POST") {
      const r = await fetch(base + route, { method: "POST", body: m[3] });
      last = { status: r.status, body: await r.json() };
      if (!id) assert.match((id = last.body.id) ?? "", /^[\w-]+$/, "the first command prints the instance's id");
    } else if (/\/suspensions$/.test(route)) {
      // What the next line shows: wait until that many calls are listed.
      const n = (next.match(/"event":/g) ?? []).length;
      last = await until(() => get(route), (r) => r.status !== 200 || r.body.length >= n);
    } else {
      last = await until(() => get(route), (r) => r.status !== 200 || !/^(queued|running|waiting)$/.test(r.body.status));
    }
  }
  assert.equal(last.body.status, "complete");
});

test("pkg-template/README.md: agent.mjs and its wrangler.toml; the README's curl session starts, lists, answers and reads an agent", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  model = await scriptedModel();
  const project = projectWithTarball(copy, "project-agent");
  fs.writeFileSync(path.join(project, "agent.mjs"), block(blocks, "agent.mjs", "js"));
  fs.writeFileSync(path.join(project, "wrangler.toml"), block(blocks, "agent-wrangler.toml"));
  fs.writeFileSync(path.join(project, ".dev.vars"), `OPENAI_API_KEY=sk-quickstart\nOPENAI_BASE_URL=${model.url}/v1\n`);
  const started = await startWrangler("npx wrangler@4.86.0 dev", project, path.dirname(copy));
  servers.push(started.server);
  const base = `http://127.0.0.1:${started.port}`;
  const lines = block(blocks, "agent-run", "bash").split("\n").filter((l) => l.trim());
  const curls = lines.filter((l) => l.startsWith("curl "));
  const shown = lines.filter((l) => l.startsWith("# → ")).map((l) => /^# → (\d{3}) (.*)$/.exec(l));
  assert.equal(curls.length, 4);
  assert.equal(shown.length, 4);
  const send = async (line, fill) => {
    const m = /^curl (?:-X (\w+) )?localhost:8787(\S+)(?: -d '([^']*)')?$/.exec(line.trim());
    assert.ok(m, `a curl line of a shape this test reads: ${line}`);
    let route = m[2];
    for (const [from, to] of Object.entries(fill)) route = substitute(route, from, to);
    const r = await fetch(base + route, { method: m[1] ?? "GET", body: m[3] });
    return { status: r.status, body: await r.json() };
  };
  const start = await send(curls[0], {});
  assert.equal(start.status, Number(shown[0][1]), JSON.stringify(start.body));
  const { id } = start.body;
  assert.match(id ?? "", /^[\w-]+$/);
  // A person waits for the call to be listed: so does this.
  let listed;
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    listed = await send(curls[1], { "<id>": id });
    if (listed.status !== 200 || listed.body.length) break;
    if (Date.now() > end) assert.fail("nothing listed in 30 s");
  }
  assert.equal(listed.status, Number(shown[1][1]));
  assert.equal(listed.body.length, 1, JSON.stringify(listed.body));
  const [suspension] = listed.body;
  assert.deepEqual([suspension.kind, suspension.data.calls[0].name, suspension.seq], ["tool_call", "click", 1]);
  const sent = await send(curls[2], { "<id>": id, "<event>": suspension.event });
  assert.deepEqual([sent.status, sent.body], [Number(shown[2][1]), JSON.parse(shown[2][2])]);
  let last;
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    last = await send(curls[3], { "<id>": id });
    if (!/^(queued|running|waiting)$/.test(last.body.status)) break;
    if (Date.now() > end) assert.fail(`still ${last.body.status} after 30 s`);
  }
  assert.equal(last.status, Number(shown[3][1]));
  assert.equal(last.body.status, "complete", JSON.stringify(last.body));
  assert.equal(last.body.output.text, /"text":"([^"]*)"/.exec(shown[3][2])[1], "the text the README shows");
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
});
