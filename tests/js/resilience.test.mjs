// Resilience through the built package in Node: a fault-injecting provider on 127.0.0.1 (429 with
// each Retry-After form, more in origin.test.mjs; 503 storms, reset connections, stalls), timeouts
// and aborts that reach a parked waitFor, the four hooks, requestParams / bodyTransform, and metrics().
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, createToolkit, defineTool, relayTool, pending, memoryStore } from "toolnexus-wasm";

const KEY = "sk-resilience-secret";
const ok = (text) => JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: text } }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const calls = (...c) => JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: c.map(([id, name, args]) => ({ id, type: "function", function: { name, arguments: args } })) } }] });

/** Each request takes the next fault of `script`; every attempt is logged with its time. */
let script = [];
const attempts = [];
let server, base;
before(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      attempts.push({ at: performance.now(), body: raw ? JSON.parse(raw) : null });
      const step = script.shift() ?? { status: 200, body: ok("fine") };
      if (step.reset) return req.socket.destroy();
      if (step.stall) return; // never answers
      res.writeHead(step.status, { "content-type": "application/json", ...(step.retryAfter !== undefined ? { "retry-after": step.retryAfter } : {}) });
      res.end(step.body ?? JSON.stringify({ error: { message: `status ${step.status} for ${KEY} ${"x".repeat(400)}` } }));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}/v1`;
});
after(() => { server.closeAllConnections?.(); server.close(); });

const client = (extra = {}) => createClient({ baseUrl: base, style: "openai", model: "m", apiKey: KEY, retryBaseMs: 20, ...extra });
const run = (c, prompt = "x", opts = {}) => c.run(prompt, opts);
const reset = (s) => { script = s; attempts.length = 0; };
const gaps = () => attempts.slice(1).map((a, i) => a.at - attempts[i].at);

test("429 with Retry-After delay-seconds or an HTTP date waits that long; 0 retries at once; other forms back off", async () => {
  // HTTP dates have whole seconds: 3.5 s ahead now is 1.4–2.5 s ahead when the third attempt fails.
  const date = new Date(Date.now() + 3500).toUTCString();
  reset([{ status: 429, retryAfter: "1" }, { status: 429, retryAfter: "0" }, { status: 503, retryAfter: date }, { status: 429, retryAfter: "soon" }, { status: 200, body: ok("after four") }]);
  const r = await run(client({ retries: 4 }));
  assert.equal(r.text, "after four");
  assert.equal(attempts.length, 5);
  const [g1, g2, g3, g4] = gaps();
  assert.ok(g1 >= 950 && g1 < 2500, `Retry-After: 1 → waited ${g1} ms`);
  assert.ok(g2 < 200, `Retry-After: 0 → waited ${g2} ms`);
  assert.ok(g3 >= 1200 && g3 < 3000, `Retry-After: ${date} → waited ${g3} ms`);
  assert.ok(g4 >= 140 && g4 < 900, `an unreadable form falls back to backoff 20·2³ + jitter → waited ${g4} ms`);
});

test("a 503 storm stops after retries + 1 attempts with a capped, key-free error", async () => {
  reset(Array.from({ length: 6 }, () => ({ status: 503 })));
  const e = await run(client({ retries: 2 })).catch((x) => x);
  assert.equal(e.code, "provider_http");
  assert.equal(e.status, 503);
  assert.equal(attempts.length, 3);
  assert.ok(!e.message.includes(KEY));
  assert.ok(e.message.endsWith(" (after 3 attempts)"), e.message);
  assert.ok(e.message.length <= "LLM 503: ".length + 201 + " (after 3 attempts)".length, `${e.message.length} chars`);
  reset([{ status: 503 }, { status: 200, body: ok("never") }]);
  await assert.rejects(run(client({ retries: 0 })), { code: "provider_http" });
  assert.equal(attempts.length, 1, "retries: 0 means no retry");
});

test("reset connections are retried as network errors", async () => {
  reset([{ reset: true }, { reset: true }, { status: 200, body: ok("third time") }]);
  assert.equal((await run(client({ retries: 2 }))).text, "third time");
  assert.equal(attempts.length, 3);
});

test("onError decides, within the budget", async () => {
  const seen = [];
  reset([{ status: 400 }, { status: 400 }, { status: 200, body: ok("retried a 400") }]);
  const r = await run(client({ retries: 2, onError: (info) => { seen.push(info); return "retry"; } }));
  assert.equal(r.text, "retried a 400");
  assert.deepEqual(seen.map((i) => [i.attempt, i.status, i.retryable]), [[0, 400, false], [1, 400, false]]);
  reset([{ status: 503 }, { status: 200, body: ok("no") }]);
  await assert.rejects(run(client({ retries: 5, onError: async () => "fail" })), { code: "provider_http" });
  assert.equal(attempts.length, 1);
});

test("timeoutMs aborts a stalled request, and a signal aborts it; neither is retried", async () => {
  reset([{ stall: true }, { stall: true }]);
  const t0 = performance.now();
  const e = await run(client({ retries: 3, timeoutMs: 300 })).catch((x) => x);
  assert.equal(e.code, "aborted");
  assert.equal(e.message, "run timeout after 300ms");
  assert.ok(performance.now() - t0 < 2000);
  assert.equal(attempts.length, 1, "an abort is never retried");
  reset([{ stall: true }]);
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(), 100);
  await assert.rejects(run(client({ retries: 3 }), "x", { signal: ctl.signal }), { code: "aborted" });
});

test("an abort reaches a parked relay waitFor, and the parked state is already in the store", async () => {
  const store = memoryStore();
  const kit = createToolkit({ tools: [relayTool("click", "click")] });
  reset([{ status: 200, body: calls(["c1", "click", "{}"]) }]);
  const ctl = new AbortController();
  let parked = false;
  const c = client({ store, waitFor: () => { parked = true; setTimeout(() => ctl.abort(), 50); return new Promise(() => {}); } });
  const t0 = performance.now();
  await assert.rejects(c.ask("x", { toolkit: kit, id: "p1", signal: ctl.signal }), { code: "aborted" });
  assert.ok(parked && performance.now() - t0 < 2000);
  const saved = await store.get("p1");
  assert.equal(saved.pending.kind, "tool_call");
  reset([{ status: 200, body: calls(["c1", "click", "{}"]) }]);
  const e = await client({ timeoutMs: 200, waitFor: () => new Promise(() => {}) }).run("x", { toolkit: kit }).catch((x) => x);
  assert.equal(e.message, "run timeout after 200ms");
});

test("hooks: beforeLLM replaces, afterLLM sees the raw reply, beforeTool denies or rewrites or suspends, afterTool replaces", async () => {
  const log = [];
  const kit = createToolkit({ tools: [
    defineTool({ name: "add", description: "adds", run: ({ a, b }) => String(a + b) }),
    defineTool({ name: "rm", description: "deletes", run: () => { throw new Error("must not run"); } }),
    defineTool({ name: "pay", description: "pays", run: (args, ctx) => `paid (answered: ${ctx.answer?.ok})` }),
  ] });
  const hooks = {
    beforeLLM: ({ messages, tools, model, turn }) => {
      log.push(`beforeLLM ${turn} ${messages.length} ${tools.length} ${model}`);
      if (turn === 0) return { messages: messages.slice(-1), tools: tools.filter((t) => t.name !== "rm").map((t) => ({ ...t, description: `${t.description}!` })) };
    },
    afterLLM: ({ response, turn }) => log.push(`afterLLM ${turn} ${"choices" in response}`),
    beforeTool: ({ name, args }) => {
      log.push(`beforeTool ${name}`);
      if (name === "rm") return { result: { output: "denied by policy", isError: true } };
      if (name === "add") return { args: { ...args, b: 40 } };
      if (name === "pay") return { result: pending({ kind: "approval", prompt: "Pay?" }) };
    },
    afterTool: ({ name, result }) => { log.push(`afterTool ${name}`); if (name === "add") return { result: `[${result.output}]` }; },
  };
  reset([{ status: 200, body: calls(["1", "add", '{"a":2,"b":0}'], ["2", "rm", "{}"], ["3", "pay", "{}"]) }, { status: 200, body: ok("done") }]);
  const r = await client({ hooks, requestParams: { temperature: 0.1, max_tokens: 9, messages: "ignored" }, bodyTransform: (b) => ({ ...b, user: `u-${b.temperature}` }), waitFor: async (q) => ({ id: q.id, ok: true }) })
    .run("now", { toolkit: kit, history: [{ role: "user", content: "old" }, { role: "assistant", content: "old answer" }] });
  assert.deepEqual(r.toolCalls.map((t) => [t.name, t.output, t.args]), [
    ["add", "[42]", { a: 2, b: 40 }], ["rm", "denied by policy", {}], ["pay", "paid (answered: true)", {}],
  ]);
  const first = attempts[0].body;
  assert.deepEqual(first.messages, [{ role: "user", content: "now" }]);
  assert.deepEqual(first.tools.map((t) => t.function.description), ["adds!", "pays!"]);
  assert.equal(first.temperature, 0.1);
  assert.equal(first.user, "u-0.1");
  assert.ok(Array.isArray(first.messages), "requestParams cannot replace messages");
  assert.ok(!log.includes("afterTool rm"), "no afterTool after a short-circuit");
  assert.equal(log.filter((l) => l === "afterTool pay").length, 1, "afterTool runs once, on the answered result, never on the suspension");
  assert.deepEqual(log.filter((l) => l.startsWith("afterLLM")), ["afterLLM 0 true", "afterLLM 1 true"]);
});

test("a hook that throws stops the run with host_callback", async () => {
  reset([{ status: 200, body: ok("x") }]);
  const e = await run(client({ hooks: { afterLLM: () => { throw new Error("audit down"); } } })).catch((x) => x);
  assert.equal(e.code, "host_callback");
  assert.equal(e.message, "afterLLM hook failed: audit down");
  assert.throws(() => client({ hooks: { beforeLLM: 3 } }), { code: "bad_input" });
  assert.throws(() => client({ requestParams: [1] }), { code: "bad_input" });
  assert.throws(() => client({ retries: -1 }), { code: "bad_input" });
});

test("metrics() renders Prometheus text of everything the client did", async () => {
  const c = client({ retries: 0 });
  const empty = c.metrics();
  assert.ok(empty.split("\n").filter(Boolean).every((l) => l.startsWith("#")), "only HELP/TYPE lines before any activity");
  const kit = createToolkit({ tools: [relayTool("click", "click"), defineTool({ name: "t", description: "t", run: () => "ok" })] });
  reset([{ status: 200, body: calls(["1", "t", "{}"], ["2", "click", "{}"]) }, { status: 503 }]);
  const halted = await c.run("x", { toolkit: kit });
  assert.equal(halted.status, "pending");
  await assert.rejects(c.run("again", {}), { code: "provider_http" });
  const text = c.metrics();
  assert.ok(text.endsWith("\n"));
  assert.match(text, /^toolnexus_llm_requests_total\{model="m",status="error"\} 1$/m);
  assert.match(text, /^toolnexus_llm_requests_total\{model="m",status="ok"\} 1$/m);
  assert.match(text, /^toolnexus_tool_calls_total\{tool="click",source="relay",is_error="false",pending="true"\} 1$/m);
  assert.match(text, /^toolnexus_tool_calls_total\{tool="t",source="native",is_error="false",pending="false"\} 1$/m);
  assert.match(text, /^toolnexus_run_errors_total\{model="m"\} 1$/m);
  assert.match(text, /^toolnexus_llm_request_duration_seconds_bucket\{model="m",le="\+Inf"\} 2$/m);
  const order = ["llm_requests_total", "llm_tokens_total", "llm_request_duration_seconds", "tool_calls_total", "tool_duration_seconds", "run_errors_total"]
    .map((n) => text.indexOf(`# HELP toolnexus_${n} `));
  assert.deepEqual([...order].sort((a, b) => a - b), order, "metrics in the pinned order");
});
