// examples/workflow end to end in workerd, through Miniflare's local Workflows runtime (the one
// `wrangler dev` uses), driven through its HTTP routes only, as a browser or a curl would: an
// instance starts per request, parks on relay calls (listed in the model's order, even when
// their ids sort the other way), survives a restart of the runtime, is answered call by call,
// asks for an approval, and finishes. Once with the embedded scripted model (no API_KEY), once
// with a provider from the environment (the scripted model served here, its key a secret that
// no reply shows), with an access token, a declined approval, and the refusals of bad requests.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { respond } from "../../demo/scripted-logic.mjs";
import { copyExample, exampleRuntime } from "./example-worker.mjs";
import { until } from "./harness.mjs";


let server, base, root;
const seen = []; // the model requests the served model got: { auth, model }

before(async () => {
  // The scripted model, with each turn's call ids reversed (`call_0_1` → `call_0_8`): a
  // provider's ids need not sort in call order, so the listing's order must come from elsewhere.
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const { status, body, parsed } = respond(req.url, req.headers, raw);
      seen.push({ auth: req.headers.authorization, model: parsed?.model });
      for (const c of body.choices?.[0]?.message?.tool_calls ?? []) c.id = c.id.replace(/_(\d)$/, (_, i) => `_${9 - Number(i)}`);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
  root = copyExample();
  fs.copyFileSync(fileURLToPath(new URL("slow-first-publish.mjs", import.meta.url)), path.join(root, "slow.mjs"));
});
after(async () => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** `api(method, route, body?)` → { status, body, headers } through the Worker's fetch handler. */
const client = (mf, headers = {}) => async (method, route, body) => {
  const res = await mf.dispatchFetch(`http://example.test${route}`, { method, headers, body: typeof body === "string" ? body : body && JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
};


const listing = (api, id, n) => until(async () => (await api("GET", `/agents/${id}/suspensions`)).body, (l) => l.length === n);
/** The listing of the first turn's relay calls as they are published: polled as fast as it
 * answers, every view must be a prefix of [type, click] (a browser shows the first it sees). */
async function firstTurn(api, id) {
  const views = new Set();
  const open = await until(async () => {
    const l = (await api("GET", `/agents/${id}/suspensions`)).body;
    views.add(names(l).join(","));
    return l;
  }, (l) => l.length === 2, 30_000, 0);
  assert.deepEqual([...views].filter((v) => !["", "type", "type,click"].includes(v)), [], "never a later call without the earlier one");
  return open;
}
const finished = (api, id) => until(async () => (await api("GET", `/agents/${id}`)).body, (s) => ["complete", "errored", "terminated"].includes(s.status));
const names = (open) => open.map((s) => (s.kind === "approval" ? `approve ${s.data.name}` : s.data.calls.map((c) => c.name).join("+")));

async function answer(api, id, event, body) {
  const r = await api("POST", `/agents/${id}/suspensions/${event}`, body);
  assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.deepEqual(r.body, { sent: true, event });
}

test("the scripted model offline: relay calls in the model's order, a restart while parked, an approval, every answer sent through the routes", async () => {
  const dir = fs.mkdtempSync(path.join(root, "offline-"));
  // The first publication is slow here (slow.mjs): its KV put comes 300 ms late.
  let mf = exampleRuntime(root, dir, {}, { scriptPath: path.join(root, "slow.mjs") });
  let api = client(mf);
  let id, open;
  try {
    const started = await api("POST", "/agents", { prompt: "#checkout buy the red mug for Ada" });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    id = started.body.id;
    open = await firstTurn(api, id);
    assert.deepEqual(names(open), ["type", "click"]);
    assert.deepEqual(open.map((s) => s.seq), [1, 2]);
    assert.deepEqual(open[0].data.calls[0].input, { selector: "#name", text: "Ada" });
    for (const s of open) assert.equal(s.event, s.callId, "a call id that fits is its event type");
    // Parked: the local runtime says "running" for a waiting instance (production: "waiting").
    assert.match((await api("GET", `/agents/${id}`)).body.status, /^(running|waiting)$/);
  } finally {
    await mf.dispose();
  }
  // The runtime stops and starts again from its persisted state; the answers go to the new one.
  mf = exampleRuntime(root, dir);
  api = client(mf);
  try {
    assert.deepEqual(names((await api("GET", `/agents/${id}/suspensions`)).body), ["type", "click"], "still listed after the restart");
    const [type, click] = open;
    await answer(api, id, type.event, { ok: true, data: { results: [{ id: type.data.calls[0].id, output: 'typed "Ada" into #name' }] } });
    await answer(api, id, click.event, { ok: true, data: { output: "clicked #send" } });
    const again = await api("POST", `/agents/${id}/suspensions/${click.event}`, { ok: true, data: { output: "twice" } });
    assert.equal(again.status, 404, "an answered suspension is no longer open");
    assert.equal(again.body.error.code, "not_open");

    const [read] = await listing(api, id, 1).then((l) => (assert.deepEqual(names(l), ["read_text"]), l));
    assert.equal(read.seq, 3, "numbered on after the restart");
    await answer(api, id, read.event, { ok: true, data: { output: "Thanks, Ada!" } });

    const [approval] = await until(async () => (await api("GET", `/agents/${id}/suspensions`)).body, (l) => l[0]?.kind === "approval");
    assert.deepEqual(approval.data, { name: "place_order", arguments: { item: "red mug", name: "Ada" } });
    await answer(api, id, approval.event, { ok: true });

    const s = await finished(api, id);
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.status, "done");
    assert.equal(s.output.text,
      'Ordered. lookup_price → $9.90; type → typed "Ada" into #name; click → clicked #send; read_text → Thanks, Ada!; place_order → order placed: red mug for Ada');
    assert.equal(s.output.messages, undefined, "the transcript stays out of the Workflow's output");
    assert.deepEqual(s.output.toolCalls.map((c) => c.name), ["lookup_price", "type", "click", "read_text", "place_order"]);
    assert.deepEqual((await api("GET", `/agents/${id}/suspensions`)).body, [], "nothing left open");
  } finally {
    await mf.dispose();
  }
});

test("a provider from the environment, an access token, CORS, a declined approval, and bad requests refused", async () => {
  const dir = fs.mkdtempSync(path.join(root, "provider-"));
  const secret = "sk-example-secret-7f3a";
  const mf = exampleRuntime(root, dir, { API_KEY: secret, STYLE: "openai", BASE_URL: `${base}/v1`, MODEL: "scripted-from-env", ACCESS_TOKEN: "let-me-in" });
  const api = client(mf, { authorization: "Bearer let-me-in" });
  const replies = [];
  const call = async (...a) => { const r = await api(...a); replies.push(JSON.stringify(r.body)); return r; };
  try {
    for (const headers of [{}, { authorization: "Bearer let-me-out" }, { authorization: "let-me-in" }]) {
      const r = await client(mf, headers)("POST", "/agents", { prompt: "#checkout" });
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.equal(r.body.error.code, "unauthorized");
    }
    const pre = await client(mf, { origin: "chrome-extension://abc", "access-control-request-method": "POST" })("OPTIONS", "/agents/x/suspensions/y");
    assert.equal(pre.status, 204, "a preflight needs no token");
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
    assert.match(pre.headers.get("access-control-allow-headers"), /authorization/);
    assert.match(pre.headers.get("access-control-allow-methods"), /POST/);
    assert.match(pre.headers.get("access-control-allow-methods"), /DELETE/);

    assert.equal((await call("POST", "/agents", { prompt: "  " })).status, 400);
    assert.equal((await call("POST", "/agents", "not json")).status, 400);
    assert.equal((await call("GET", "/agents/no-such-agent")).status, 404);
    assert.equal((await call("GET", "/runs")).status, 404);
    const started = await call("POST", "/agents", { prompt: "#checkout" });
    assert.equal(started.status, 201);
    assert.equal(started.headers.get("access-control-allow-origin"), "*");
    const { id } = started.body;
    assert.equal((await call("PUT", `/agents/${id}`)).status, 405);

    const open = await firstTurn(call, id);
    assert.deepEqual(open.map((s) => s.event), ["call_0_8", "call_0_7"], "the provider's ids sort the other way");
    assert.deepEqual(names(open), ["type", "click"], "listed in the order the model made the calls");
    for (const bad of [{ ok: "yes" }, { data: {} }, "not json", null]) {
      const r = await call("POST", `/agents/${id}/suspensions/${open[0].event}`, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.body.error.code, "bad_answer");
    }
    assert.equal((await call("POST", `/agents/${id}/suspensions/call_9_9`, { ok: true })).status, 404);
    assert.equal((await call("POST", `/agents/${id}/suspensions/a%20b`, { ok: true })).status, 404);
    assert.deepEqual(names((await call("GET", `/agents/${id}/suspensions`)).body), ["type", "click"], "refused answers change nothing");

    await answer(call, id, open[0].event, { ok: true, data: { output: "typed" } });
    // A failed action is the call's error result: the model reads it.
    await answer(call, id, open[1].event, { ok: true, data: { results: [{ id: open[1].data.calls[0].id, output: "no element matches #send", isError: true }] } });
    const [read] = await listing(call, id, 1);
    await answer(call, id, read.event, { ok: true, data: { output: "Name please." } });
    const [approval] = await until(async () => (await call("GET", `/agents/${id}/suspensions`)).body, (l) => l[0]?.kind === "approval");
    await answer(call, id, approval.event, { ok: false, reason: "declined" });

    const s = await finished(call, id);
    assert.equal(s.status, "complete", JSON.stringify(s));
    assert.equal(s.output.text,
      "Ordered. lookup_price → $9.90; type → typed; click → no element matches #send; read_text → Name please.; place_order → declined/expired: approval to run place_order");
    assert.ok(seen.length >= 4 && seen.every((r) => r.auth === `Bearer ${secret}` && r.model === "scripted-from-env"), JSON.stringify(seen));
    assert.ok(!replies.some((r) => r.includes(secret)), "the key is in no reply");
  } finally {
    await mf.dispose();
  }
});

test("a screenshot answered through the route: its bytes wait in the blob store, every step and the event keep only their key", async () => {
  const dir = fs.mkdtempSync(path.join(root, "screenshot-"));
  const mf = exampleRuntime(root, dir);
  const api = client(mf);
  try {
    const { body: { id } } = await api("POST", "/agents", { prompt: "#screenshot what do you see?" });
    const [shot] = await listing(api, id, 1);
    assert.deepEqual(names([shot]), ["screenshot"]);
    const png = Buffer.alloc(150 * 1024, 7);
    png.write("\x89PNG", 0, "latin1");
    const url = `data:image/png;base64,${png.toString("base64")}`;
    await answer(api, id, shot.event, { ok: true, data: { results: [{ id: shot.data.calls[0].id, output: "a screenshot of the visible tab", parts: [{ type: "image", url }] }] } });
    const s = await finished(api, id);
    assert.equal(s.output.text, `I received image/png of ${png.length} bytes.`, "the model got the image whole");
    const kv = await mf.getKVNamespace("OPEN");
    const { keys } = await kv.list({ prefix: "toolnexus-blob:sha256:" });
    assert.equal(keys.length, 1, JSON.stringify(keys));
    assert.ok((await kv.get(keys[0].name)).includes(png.toString("base64")), "the image is in the blob store");
    // The local runtime lists each step's kept result (the event's payload among them).
    const { AGENT } = await mf.getBindings();
    const steps = ((await (await AGENT.get(id)).status()).__LOCAL_DEV_STEP_OUTPUTS ?? []).map((o) => JSON.stringify(o ?? null).length);
    assert.ok(steps.length >= 4, JSON.stringify(steps));
    assert.ok(Math.max(...steps) < 4096, `every step result is small: ${steps.join(", ")} B`);
  } finally {
    await mf.dispose();
  }
});

test("DELETE ends an agent where it waits: terminated, nothing left to answer", async () => {
  const dir = fs.mkdtempSync(path.join(root, "stop-"));
  const mf = exampleRuntime(root, dir);
  const api = client(mf);
  try {
    const { body: { id } } = await api("POST", "/agents", { prompt: "#checkout buy the red mug for Ada" });
    const open = await listing(api, id, 2);
    const r = await api("DELETE", `/agents/${id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { id, status: "terminated" });
    assert.deepEqual((await api("GET", `/agents/${id}/suspensions`)).body, [], "its suspensions are withdrawn");
    const late = await api("POST", `/agents/${id}/suspensions/${open[0].event}`, { ok: true, data: { output: "too late" } });
    assert.equal(late.status, 404);
    assert.equal((await finished(api, id)).status, "terminated");
  } finally {
    await mf.dispose();
  }
});
