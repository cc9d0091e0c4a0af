// examples/workflow's README, as written, under `wrangler dev` (wrangler's local Workflows
// runtime, workerd): the package copied in by its one command, the committed wrangler.toml, then
// the README's curl session, line by line, against what each `# →` line shows. A person waits for
// a call to be listed before answering it, and for the run to end before reading it: so does this.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { block, cleanCopy, quickstarts, removeCopy, startWrangler, substitute } from "./readme.mjs";

let copy, server;
before(() => { copy = cleanCopy("workflow"); });
after(async () => {
  await server?.stop();
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

test("examples/workflow/README.md: copy-pkg.sh and wrangler dev; the README's curl session runs an agent instance to its end", async () => {
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
