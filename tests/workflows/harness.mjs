// The pieces tests/workflows and bench/workflows.mjs share: the scripted model served with a
// switch that fails requests (503), a counter of the JS tool's executions (counted outside
// workerd, so across restarts of the runtime), and the Worker of worker.mjs in Miniflare with
// its local Workflows runtime, its state persisted in a directory a new runtime picks up.
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

/** Starts the model and counter server; `root` holds a copy of pkg/ and worker.mjs. */
export async function startHarness() {
  const h = { executions: [], modelRequests: [], failNext: 0 };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/tool") {
        h.executions.push(`${url.searchParams.get("instance")}/${url.searchParams.get("call")}`);
        return res.end("{}");
      }
      h.modelRequests.push(url.pathname);
      if (h.failNext > 0) {
        h.failNext--;
        res.writeHead(503, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "overloaded" } }));
      }
      const { status, body } = respond(url.pathname, req.headers, raw);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-workflows-"));
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(root, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(here, "worker.mjs"), path.join(root, "worker.mjs"));
  h.dir = (name) => fs.mkdtempSync(path.join(root, name + "-"));
  /** The runtime with its Workflow, KV and Durable Object state persisted under `dir`. */
  h.runtime = (dir, style = "openai") =>
    new Miniflare({
      modules: true, scriptPath: path.join(root, "worker.mjs"), modulesRoot: root,
      modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
      compatibilityDate: "2026-04-01",
      workflows: { AGENT: { name: "agent", className: "Agent" }, BARE: { name: "bare", className: "Bare" } },
      kvNamespaces: ["OPEN", "BLOBS"],
      workflowsPersist: path.join(dir, "wf"),
      kvPersist: path.join(dir, "kv"),
      durableObjectsPersist: path.join(dir, "do"),
      bindings: { MODEL_URL: style === "openai" ? `${base}/v1` : base, STYLE: style, API_KEY: "wf-secret", COUNTER_URL: base },
    });
  h.close = () => {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
  return h;
}

/** A route of the Worker: JSON in (POST when given), JSON out, 200 expected. */
export async function call(mf, route, body) {
  const res = await mf.dispatchFetch(`http://worker${route}`, body ? { method: "POST", body: JSON.stringify(body) } : undefined);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

/** Polls until `f()` gives a value that passes `ok` (every `every` ms, up to `ms`). */
export async function until(f, ok, ms = 30_000, every = 20) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

export const open = (mf, id, q = "") => until(() => call(mf, `/open?id=${id}${q}`), (l) => l.length > 0);
export const finished = (mf, id, q = "", every) => until(() => call(mf, `/status?id=${id}${q}`), (s) => s.status === "complete" || s.status === "errored", 30_000, every);

/**
 * `n` agents started at once, each parked on its relay call, then all answered at once (each
 * with its own text): the time until all had parked, until all were complete, and their states.
 */
export async function load(mf, n) {
  const ids = Array.from({ length: n }, (_, i) => `load-${i}`);
  const t0 = performance.now();
  await Promise.all(ids.map((id) => call(mf, "/start", { id, prompt: "#mixed buy the red mug" })));
  const opened = await Promise.all(ids.map((id) => open(mf, id).then((l) => l[0])));
  const t1 = performance.now();
  await Promise.all(ids.map((id, i) => call(mf, `/answer?id=${id}`, { suspension: opened[i], answer: { ok: true, data: { output: `clicked for ${id}` } } })));
  const done = await Promise.all(ids.map((id) => finished(mf, id)));
  return { ids, done, parkedMs: t1 - t0, doneMs: performance.now() - t1 };
}
