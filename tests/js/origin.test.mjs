// Keys stay on their origin, through the built package in Node against real local HTTP servers
// (port 0): a provider answering 302/307/308 towards another local origin, which records whether a
// key ever reached it, for every style, whole and streamed, and through `translate`; a browser's
// opaque redirect; Gemini models that would leave their URL path segment; the wait a provider
// asks for (`retry-after-ms`, `Retry-After` seconds and dates) and its cap (`maxRetryAfterMs`);
// and a provider inventing 2,000 tool names while `metrics()` stays small.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient } from "toolnexus-wasm";

const KEY = "sk-origin-secret-4242";
const KEY_HEADERS = ["authorization", "x-api-key", "x-goog-api-key"];

/** A server on 127.0.0.1:0 that logs every request and answers with `handler`. */
async function serve(handler) {
  const hits = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const hit = { at: performance.now(), method: req.method, url: req.url, headers: req.headers, body: raw ? JSON.parse(raw) : null };
      hits.push(hit);
      handler(hit, res);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { hits, url: `http://127.0.0.1:${server.address().port}`, close: () => { server.closeAllConnections?.(); server.close(); } };
}

const REPLIES = {
  openai: { choices: [{ index: 0, message: { role: "assistant", content: "from elsewhere" }, finish_reason: "stop" }] },
  anthropic: { content: [{ type: "text", text: "from elsewhere" }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } },
  gemini: { candidates: [{ content: { role: "model", parts: [{ text: "from elsewhere" }] }, finishReason: "STOP" }] },
};
const base = (url, style) => (style === "openai" ? `${url}/v1` : url);

let elsewhere, redirector, redirectStatus = 307;
before(async () => {
  // Another origin (another port) that would accept the key and answer as the model.
  elsewhere = await serve((hit, res) => {
    const style = hit.url.includes("chat/completions") ? "openai" : hit.url.includes("/messages") ? "anthropic" : "gemini";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(REPLIES[style]));
  });
  redirector = await serve((hit, res) => {
    res.writeHead(redirectStatus, { location: `${elsewhere.url}${hit.url}`, "content-type": "text/plain" });
    res.end(`moved to ${elsewhere.url}`);
  });
});
after(() => { elsewhere.close(); redirector.close(); });

for (const style of ["openai", "anthropic", "gemini"]) {
  test(`${style}: a 302/307/308 to another origin is refused, not retried, and no key reaches it`, async () => {
    for (const status of [302, 307, 308]) {
      for (const mode of ["run", "stream", "translate"]) {
        redirectStatus = status;
        redirector.hits.length = 0;
        const client = createClient({ baseUrl: base(redirector.url, style), style, model: "m-1", apiKey: KEY, retries: 2, retryBaseMs: 1 });
        const go = {
          run: () => client.run("hi"),
          stream: async () => { for await (const _ of client.stream("hi")); },
          translate: () => client.translate({ messages: [{ role: "user", content: "hi" }] }),
        }[mode];
        const e = await go().then(() => assert.fail(`${mode} accepted a redirected reply`), (x) => x);
        assert.equal(e.code, "provider_http", `${style} ${status} ${mode}: ${e.message}`);
        assert.equal(e.status, status);
        assert.equal(e.message, `LLM ${status}: redirect refused`);
        assert.equal(redirector.hits.length, 1, "a redirect is not retried");
        assert.ok(KEY_HEADERS.some((h) => String(redirector.hits[0].headers[h] ?? "").includes(KEY)), "the configured origin got the key");
      }
    }
    assert.equal(elsewhere.hits.length, 0, `the other origin was never asked: ${JSON.stringify(elsewhere.hits.map((h) => h.url))}`);
  });
}

test("every provider call asks fetch not to follow redirects", async () => {
  const inits = [];
  const spy = (url, init) => { inits.push(init); return fetch(url, init); };
  redirectStatus = 308;
  for (const style of ["openai", "anthropic", "gemini"]) {
    const client = createClient({ baseUrl: base(redirector.url, style), style, model: "m", apiKey: KEY, retries: 0, fetch: spy });
    await assert.rejects(client.run("hi"), { code: "provider_http", status: 308 });
  }
  assert.deepEqual(inits.map((i) => i.redirect), ["manual", "manual", "manual"]);
  assert.equal(elsewhere.hits.length, 0);
});

test("a browser's opaque redirect (status 0) is refused as a network error", async () => {
  let calls = 0;
  const opaque = async () => { calls++; return { type: "opaqueredirect", status: 0, headers: new Headers(), text: async () => "" }; };
  const client = createClient({ baseUrl: "https://api.test/v1", style: "openai", model: "m", apiKey: KEY, retries: 1, retryBaseMs: 1, fetch: opaque });
  const e = await client.run("hi").catch((x) => x);
  assert.equal(e.code, "transport");
  assert.match(e.message, /redirect refused/);
  assert.ok(!e.message.includes(KEY));
  assert.equal(calls, 2, "a network error is retried like any other");
});

test("gemini: a model that could leave its URL path segment is refused before any request", async () => {
  let calls = 0;
  const spy = () => { calls++; throw new Error("no request may be made"); };
  for (const model of ["../../admin/x", "a/b", "x?key=1", "x#f", "..", "a..b", "a\\b", "x\ny", "tab\t", "\u007f"]) {
    assert.throws(() => createClient({ baseUrl: redirector.url, style: "gemini", model, apiKey: KEY, fetch: spy }), (e) => {
      assert.equal(e.code, "bad_input", model);
      assert.equal(e.message, "createClient options.model must be one URL path segment");
      return true;
    });
  }
  assert.equal(calls, 0);
});

test("the model enters the URL only for gemini, percent-encoded as one segment; elsewhere it stays in the body", async () => {
  const echo = await serve((hit, res) => {
    const style = hit.url.includes("chat/completions") ? "openai" : hit.url.includes("/messages") ? "anthropic" : "gemini";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(REPLIES[style]));
  });
  try {
    await createClient({ baseUrl: echo.url, style: "gemini", model: "gemini 2%ü", apiKey: KEY }).run("hi");
    assert.equal(echo.hits[0].url, "/v1beta/models/gemini%202%25%C3%BC:generateContent");
    for (const [style, path] of [["openai", "/v1/chat/completions"], ["anthropic", "/v1/messages"]]) {
      echo.hits.length = 0;
      await createClient({ baseUrl: base(echo.url, style), style, model: "vendor/../x?y#z", apiKey: KEY }).run("hi");
      assert.equal(echo.hits[0].url, path, style);
      assert.equal(echo.hits[0].body.model, "vendor/../x?y#z", style);
    }
  } finally {
    echo.close();
  }
});

// The wait a provider asks for: each step of `script` answers one attempt.
let script = [];
let waits;
before(async () => {
  waits = await serve((hit, res) => {
    const step = script.shift() ?? { status: 200 };
    res.writeHead(step.status, { "content-type": "application/json", ...(step.headers ?? {}) });
    res.end(step.status === 200 ? JSON.stringify(REPLIES.openai) : JSON.stringify({ error: { message: `busy ${step.status}` } }));
  });
});
after(() => waits.close());
const waitClient = (extra = {}) => createClient({ baseUrl: `${waits.url}/v1`, style: "openai", model: "m", apiKey: KEY, retryBaseMs: 20, ...extra });
const gaps = () => waits.hits.slice(1).map((h, i) => h.at - waits.hits[i].at);
const reset = (s) => { script = s; waits.hits.length = 0; };

test("retry-after-ms comes before Retry-After; both forms of Retry-After are read", async () => {
  reset([
    { status: 429, headers: { "retry-after-ms": "300", "retry-after": "5" } },
    { status: 503, headers: { "retry-after": "0.4" } },
    { status: 429, headers: { "retry-after": new Date(Date.now() - 60_000).toUTCString() } },
  ]);
  assert.equal((await waitClient({ retries: 3 }).run("x")).text, "from elsewhere");
  assert.equal(waits.hits.length, 4);
  const [g1, g2, g3] = gaps();
  assert.ok(g1 >= 280 && g1 < 1500, `retry-after-ms: 300 → waited ${g1} ms`);
  assert.ok(g2 >= 380 && g2 < 1500, `Retry-After: 0.4 → waited ${g2} ms`);
  assert.ok(g3 < 200, `a date in the past → at once, waited ${g3} ms`);
});

test("a wait beyond maxRetryAfterMs (default 60 s) fails at once with the provider's error; the cap is configurable", async () => {
  for (const headers of [{ "retry-after": "3600" }, { "retry-after-ms": "60001" }, { "retry-after": new Date(Date.now() + 86_400_000).toUTCString() }, { "retry-after": "99999999999999999999" }]) {
    reset([{ status: 429, headers }]);
    const t0 = performance.now();
    const e = await waitClient({ retries: 3 }).run("x").catch((x) => x);
    assert.equal(e.code, "provider_http", JSON.stringify(headers));
    assert.equal(e.status, 429);
    assert.match(e.message, /busy 429/);
    assert.equal(waits.hits.length, 1, "no retry");
    assert.ok(performance.now() - t0 < 1000, "no wait");
  }
  // onError may insist: the wait is then the cap.
  reset([{ status: 429, headers: { "retry-after": "3600" } }]);
  const seen = [];
  await waitClient({ retries: 1, maxRetryAfterMs: 250, onError: (info) => { seen.push(info); return "retry"; } }).run("x");
  assert.equal(seen[0].retryable, false);
  assert.ok(gaps()[0] >= 230 && gaps()[0] < 1500, `waited the cap: ${gaps()[0]} ms`);
  // A higher cap honours a longer wait; 0 refuses any.
  reset([{ status: 429, headers: { "retry-after": "1" } }]);
  await waitClient({ retries: 1, maxRetryAfterMs: 1500 }).run("x");
  assert.ok(gaps()[0] >= 950, `waited ${gaps()[0]} ms`);
  reset([{ status: 429, headers: { "retry-after": "1" } }]);
  await assert.rejects(waitClient({ retries: 1, maxRetryAfterMs: 0 }).run("x"), { code: "provider_http", status: 429 });
  for (const bad of [-1, 2 ** 31, "5", null, Infinity]) {
    assert.throws(() => waitClient({ maxRetryAfterMs: bad }), { code: "bad_input" }, String(bad));
  }
});

test("2,000 tool names a provider invents are one metric series", async () => {
  let turn = 0;
  const inventor = await serve((hit, res) => {
    const t = turn++;
    const message = t < 8
      ? { role: "assistant", content: null, tool_calls: Array.from({ length: 250 }, (_, i) => ({ id: `c${t}_${i}`, type: "function", function: { name: `made_up_${t}_${i}`, arguments: "{}" } })) }
      : { role: "assistant", content: "done" };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ choices: [{ index: 0, message }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
  try {
    const client = createClient({ baseUrl: `${inventor.url}/v1`, style: "openai", model: "m", apiKey: KEY });
    const r = await client.run("go");
    assert.equal(r.text, "done");
    assert.equal(r.toolCallCount, 2000);
    const text = client.metrics();
    assert.ok(!text.includes("made_up"), "no invented name is a label");
    assert.match(text, /toolnexus_tool_calls_total\{tool="unknown",source="custom",is_error="true",pending="false"\} 2000/);
    assert.ok(text.length < 4096, `metrics() is ${text.length} bytes`);
  } finally {
    inventor.close();
  }
});
