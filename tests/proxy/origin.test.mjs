// Keys stay on their origin through the proxy Worker (examples/worker-proxy) in workerd: the caller
// picks the model, so a Gemini model that would leave its URL path segment is a 400 before any
// upstream request, and an upstream that redirects to another origin is refused (502) without the
// Worker's secret ever reaching that origin, whole and streamed, for every upstream style.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startProxyWorker } from "./worker.mjs";


const SECRETS = { OPENAI_API_KEY: "openai-secret-1", ANTHROPIC_API_KEY: "anthropic-secret-2", GEMINI_API_KEY: "gemini-secret-3" };

async function serve(handler) {
  const hits = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits.push({ url: req.url, headers: req.headers });
      handler(req, res);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { hits, url: `http://127.0.0.1:${server.address().port}`, close: () => { server.closeAllConnections?.(); server.close(); } };
}

let elsewhere, upstream, openai, proxy;
before(async () => {
  elsewhere = await serve((req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end("{}"); });
  upstream = await serve((req, res) => { res.writeHead(307, { location: `${elsewhere.url}${req.url}` }); res.end(); });
  proxy = await startProxyWorker({ OPENAI_BASE_URL: `${upstream.url}/v1`, ANTHROPIC_BASE_URL: upstream.url, GEMINI_BASE_URL: upstream.url, ...SECRETS });
  ({ openai } = proxy);
});
after(async () => { await proxy?.close(); upstream.close(); elsewhere.close(); });

const keyIn = (hits) => hits.some((h) => Object.values(h.headers).some((v) => Object.values(SECRETS).some((k) => String(v).includes(k))));

test("a Gemini model the caller picks that would leave its URL path segment is a 400 and reaches no upstream", async () => {
  for (const model of ["gemini/../../admin/x", "gemini/a/b", "gemini/x?key=1", "gemini/x#f", "gemini/..", "gemini/a\\b"]) {
    for (const stream of [false, true]) {
      const e = await openai.chat.completions.create({ model, stream, messages: [{ role: "user", content: "hi" }] }).then(() => null, (x) => x);
      assert.equal(e?.status, 400, `${model} stream=${stream}: ${e?.message}`);
      assert.match(e.message, /one URL path segment/);
    }
  }
  assert.equal(upstream.hits.length, 0, JSON.stringify(upstream.hits.map((h) => h.url)));
});

test("an upstream redirect to another origin is refused for every style; the secret never leaves for it", async () => {
  for (const model of ["gpt-x", "claude-x", "gemini-x"]) {
    for (const stream of [false, true]) {
      upstream.hits.length = 0;
      const e = await openai.chat.completions.create({ model, stream, messages: [{ role: "user", content: "hi" }] }).then(() => null, (x) => x);
      assert.equal(e?.status, 502, `${model} stream=${stream}: ${e?.message}`);
      assert.match(e.message, /LLM 307: redirect refused/);
      assert.equal(upstream.hits.length, 1, "the configured upstream was asked once (a redirect is not retried)");
      assert.ok(keyIn(upstream.hits), "the configured upstream got its key");
    }
  }
  assert.equal(elsewhere.hits.length, 0, "the other origin was never asked");
  assert.ok(!keyIn(elsewhere.hits));
});
