// The agent inside a Cloudflare Workflow, in workerd through Miniflare's local Workflows runtime
// (the one `wrangler dev` uses): an instance parks on a relay call, the runtime is shut down and
// started again from its persisted state, the answer is sent as an event and the instance
// finishes with every tool run exactly once; a model step that fails once is retried by
// Workflows without a second tool call; 100 concurrent instances each park and are answered,
// none lost or answered twice. The model is the scripted one, served here with a switch that
// fails one request; the JS tool reports each execution to a counter served here too, so
// executions are counted across restarts of the runtime.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { respond } from "../../demo/scripted-logic.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { Miniflare } = createRequire(path.resolve(here, "../../tools/js/package.json"))("miniflare");

let server, base, root;
const executions = []; // "<instance>/<call>" per execution of lookup_price
const modelRequests = [];
let failNext = 0; // model requests to answer 503 before serving again

before(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/tool") {
        executions.push(`${url.searchParams.get("instance")}/${url.searchParams.get("call")}`);
        return res.end("{}");
      }
      modelRequests.push(url.pathname);
      if (failNext > 0) {
        failNext--;
        res.writeHead(503, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "overloaded" } }));
      }
      const { status, body } = respond(url.pathname, req.headers, raw);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-workflows-"));
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(root, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(here, "worker.mjs"), path.join(root, "worker.mjs"));
});
after(async () => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The runtime, its Workflow and KV state persisted under `dir` (so a new one picks them up). */
function runtime(dir, style = "openai") {
  return new Miniflare({
    modules: true, scriptPath: path.join(root, "worker.mjs"), modulesRoot: root,
    modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
    workflows: { AGENT: { name: "agent", className: "Agent" } },
    kvNamespaces: ["OPEN"],
    workflowsPersist: path.join(dir, "wf"),
    kvPersist: path.join(dir, "kv"),
    durableObjectsPersist: path.join(dir, "do"),
    bindings: { MODEL_URL: style === "openai" ? `${base}/v1` : base, STYLE: style, API_KEY: "wf-secret", COUNTER_URL: base },
  });
}

const call = async (mf, route, body) => {
  const res = await mf.dispatchFetch(`http://worker${route}`, body ? { method: "POST", body: JSON.stringify(body) } : undefined);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
};

/** Polls until `f()` gives a value that passes `ok` (every 20 ms, up to `ms`). */
async function until(f, ok, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const open = (mf, id) => until(() => call(mf, `/open?id=${id}`), (l) => l.length > 0);
const finished = (mf, id) => until(() => call(mf, `/status?id=${id}`), (s) => s.status === "complete" || s.status === "errored");

test("a Workflow instance parks on a relay call, survives a restart of its runtime, resumes on sendEvent, every tool once", async () => {
  const dir = fs.mkdtempSync(path.join(root, "restart-"));
  executions.length = 0;
  let mf = runtime(dir);
  let suspension;
  try {
    await call(mf, "/start", { id: "restart-1", prompt: "#mixed buy the red mug" });
    [suspension] = await open(mf, "restart-1");
    assert.equal(suspension.kind, "tool_call");
    assert.equal(suspension.data.calls[0].name, "click");
    assert.equal(suspension.event, suspension.callId);
    // Parked: the local runtime reports a waiting instance as "running" (production says "waiting").
    assert.match((await call(mf, "/status?id=restart-1")).status, /^(running|waiting)$/);
  } finally {
    await mf.dispose();
  }
  assert.deepEqual(executions, [`restart-1/${executions[0]?.split("/")[1]}`], "the JS tool ran once before the park");
  const modelCalls = modelRequests.length;
  mf = runtime(dir);
  try {
    await call(mf, "/answer?id=restart-1", { suspension, answer: { ok: true, data: { output: "clicked #buy after a restart" } } });
    const s = await finished(mf, "restart-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.status, "done");
    assert.equal(s.output.text, "Summary: lookup_price → $3 for red mug; click → clicked #buy after a restart");
    assert.ok(!JSON.stringify(s).includes("wf-secret"), "no key in the Workflow's output");
    assert.equal(executions.length, 1, "the replay after the restart ran no tool again");
    assert.equal(modelRequests.length, modelCalls + 1, "and no model call again: only the one after the answer");
    assert.deepEqual(await call(mf, "/open?id=restart-1"), [], "onResolve closed the suspension");
  } finally {
    await mf.dispose();
  }
});

test("a model step that fails once is retried by Workflows, and the tool is not called twice", async () => {
  const dir = fs.mkdtempSync(path.join(root, "retry-"));
  executions.length = 0;
  const mf = runtime(dir, "anthropic");
  try {
    await call(mf, "/start", { id: "retry-1", prompt: "#mixed buy the red mug" });
    const [suspension] = await open(mf, "retry-1");
    const before = modelRequests.length;
    failNext = 1;
    await call(mf, "/answer?id=retry-1", { suspension, answer: { ok: true, data: { output: "clicked" } } });
    const s = await finished(mf, "retry-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.text, "Summary: lookup_price → $3 for red mug; click → clicked");
    assert.equal(modelRequests.length, before + 2, "the second model call was tried twice: a 503, then the reply");
    assert.equal(executions.length, 1, "lookup_price ran once");
  } finally {
    failNext = 0;
    await mf.dispose();
  }
});

test("a wait that times out answers { ok: false, reason: expired } and the run goes on", async () => {
  const dir = fs.mkdtempSync(path.join(root, "expire-"));
  const mf = runtime(dir);
  try {
    await call(mf, "/start", { id: "expire-1", prompt: "#mixed buy the red mug", waitTimeout: "1 second" });
    const s = await finished(mf, "expire-1");
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.match(s.output.text, /click → declined\/expired: /);
  } finally {
    await mf.dispose();
  }
});

test("100 concurrent instances each park and are answered once: none lost, none answered twice", async () => {
  const dir = fs.mkdtempSync(path.join(root, "load-"));
  executions.length = 0;
  const mf = runtime(dir);
  const n = 100;
  const ids = Array.from({ length: n }, (_, i) => `load-${i}`);
  try {
    const t0 = performance.now();
    await Promise.all(ids.map((id) => call(mf, "/start", { id, prompt: "#mixed buy the red mug" })));
    const suspensions = await Promise.all(ids.map((id) => open(mf, id).then((l) => l[0])));
    const parked = performance.now();
    await Promise.all(ids.map((id, i) => call(mf, `/answer?id=${id}`, { suspension: suspensions[i], answer: { ok: true, data: { output: `clicked for ${id}` } } })));
    const done = await Promise.all(ids.map((id) => finished(mf, id)));
    const end = performance.now();
    for (const [i, s] of done.entries()) {
      assert.equal(s.status, "complete", JSON.stringify(s));
      assert.equal(s.output.text, `Summary: lookup_price → $3 for red mug; click → clicked for ${ids[i]}`, "each instance got its own answer");
    }
    assert.equal(executions.length, n, "one tool execution per instance");
    assert.equal(new Set(executions.map((e) => e.split("/")[0])).size, n);
    console.log(`# load: ${n} instances parked in ${(parked - t0).toFixed(0)} ms, answered and finished in ${(end - parked).toFixed(0)} ms`);
  } finally {
    await mf.dispose();
  }
});
