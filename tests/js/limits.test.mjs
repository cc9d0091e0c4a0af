// Timers and limits through the built package in Node: the backoff sleep is cleared by an abort,
// `timeoutMs` and `signal` cover the conversation store, timer-safe bounds on `timeoutMs` and
// `retryBaseMs`, and `maxResponseBytes` checked while a reply is read (whole and streamed).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { spawn } from "node:child_process";
import { createClient, initSync } from "toolnexus-wasm";

const ok = (text) => JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: text } }] });
const base = { baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k" };
const fetchOk = async () => new Response(ok("fine"));

// A provider on 127.0.0.1 whose replies are made to measure: `big` streams `n` bytes in 64 KiB
// chunks (chunked, no content-length) and counts what it could write before the client hung up;
// `declared` announces a huge content-length and never sends it.
let server, url;
const sent = { bytes: 0, closed: false };
before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const n = Number(new URL(req.url, "http://x").searchParams.get("n") ?? 0);
    if (req.url.includes("declared")) {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(50 * 2 ** 20) });
      return res.write("{"); // and never the rest
    }
    const sse = req.url.includes("sse");
    res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json" });
    sent.bytes = 0;
    sent.closed = false;
    res.on("close", () => (sent.closed = true));
    const chunk = sse ? `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "x".repeat(65_000) } }] })}\n\n` : " ".repeat(65_536);
    const pump = () => {
      while (sent.bytes < n && !sent.closed) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return res.once("drain", pump);
      }
      if (!sent.closed) res.end(sse ? "data: [DONE]\n\n" : ok("big"));
    };
    pump();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.closeAllConnections?.();
  server.close();
});

// The server's `n` query: how many bytes the big replies carry (50 MB).
const big = (path) => async (u, init) => fetch(`${url}/${path}?n=${50 * 2 ** 20}`, init);

test("timeoutMs and retryBaseMs take 0 < n <= 2**31 - 1 ms; anything else is bad_input", () => {
  for (const key of ["timeoutMs", "retryBaseMs"]) {
    for (const bad of [0, -1, 2 ** 31, Infinity, -Infinity, NaN, null, "100", true]) {
      assert.throws(() => createClient({ ...base, [key]: bad }), { code: "bad_input" }, `${key}: ${bad}`);
    }
    for (const good of [1, 0.5, 2 ** 31 - 1]) assert.doesNotThrow(() => createClient({ ...base, [key]: good }), `${key}: ${good}`);
  }
  for (const bad of [0, -1, 1.5, Infinity, NaN, null, "1024"]) {
    assert.throws(() => createClient({ ...base, maxResponseBytes: bad }), { code: "bad_input" }, `maxResponseBytes: ${bad}`);
  }
});

test("a 1 s abort during a 10 s backoff does not keep the process alive", async () => {
  // In a child process: the run must reject with `aborted`, and the process must then exit at
  // once (no backoff timer left behind).
  const script = `
    import { createClient } from "toolnexus-wasm";
    const client = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", retries: 3, retryBaseMs: 10000,
      fetch: async () => new Response("{}", { status: 503 }) });
    const e = await client.run("x", { signal: AbortSignal.timeout(1000) }).catch((e) => e);
    console.log(e.code);`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: new URL(".", import.meta.url) });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise((r) => child.on("exit", r));
  const ms = performance.now() - t0;
  assert.equal(code, 0, out);
  assert.equal(out.trim(), "aborted");
  assert.ok(ms < 5000, `the process lived ${Math.round(ms)} ms`);
});

test("timeoutMs and signal cover the store: a get or save that never settles ends in aborted", async () => {
  const never = () => new Promise(() => {});
  const hanging = { get: never, save: never, delete: never };
  const c = createClient({ ...base, fetch: fetchOk, store: hanging, timeoutMs: 150 });
  const t0 = performance.now();
  const e = await c.ask("x", { id: "a" }).catch((x) => x);
  assert.equal(e.code, "aborted");
  assert.equal(e.message, "run timeout after 150ms");
  assert.ok(performance.now() - t0 < 2000);
  // a store whose get answers but whose save never does
  const saving = { get: async () => undefined, save: never, delete: never };
  const e2 = await createClient({ ...base, fetch: fetchOk, store: saving, timeoutMs: 150 }).ask("x", { id: "a" }).catch((x) => x);
  assert.equal(e2.code, "aborted");
  // and a caller's signal
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(), 50);
  const e3 = await createClient({ ...base, fetch: fetchOk, store: hanging }).ask("x", { id: "a", signal: ctl.signal }).catch((x) => x);
  assert.equal(e3.code, "aborted");
  const e4 = await createClient({ ...base, fetch: fetchOk, store: hanging }).askWithAnswer({ id: "a", answer: { id: "r", ok: true }, signal: ctl.signal }).catch((x) => x);
  assert.equal(e4.code, "aborted");
});

test("maxResponseBytes: a whole reply past the cap is refused while it is read, not after", async () => {
  const wasm = initSync();
  const mem0 = wasm.memory.buffer.byteLength;
  const c = createClient({ ...base, retries: 0, fetch: big("whole") });
  sent.bytes = 0;
  const t0 = performance.now();
  const e = await c.run("x").catch((x) => x);
  assert.equal(e.code, "response_too_large", e.message);
  // the reply has no length: the default 8 MiB cap stops the read
  // The server sees the cancel when the socket closes: poll for it (a loaded machine is slow),
  // and check that it came long before the whole reply could have been sent.
  for (let i = 0; i < 100 && !sent.closed; i++) await new Promise((r) => setTimeout(r, 30));
  assert.ok(sent.closed, "the body was cancelled");
  assert.ok(performance.now() - t0 < 5000);
  const grew = wasm.memory.buffer.byteLength - mem0;
  assert.ok(grew < 4 * 2 ** 20, `wasm memory grew ${grew} bytes`);
  // a smaller cap, and a reply that fits it exactly
  const small = createClient({ ...base, retries: 0, fetch: big("whole"), maxResponseBytes: 100_000 });
  await assert.rejects(small.run("x", {}), { code: "response_too_large" });
  const fits = ok("fine");
  const exact = createClient({ ...base, maxResponseBytes: Buffer.byteLength(fits), fetch: async () => new Response(fits) });
  assert.equal((await exact.run("x")).text, "fine");
  const over = createClient({ ...base, maxResponseBytes: Buffer.byteLength(fits) - 1, fetch: async () => new Response(fits) });
  await assert.rejects(over.run("x"), { code: "response_too_large" });
});

test("maxResponseBytes: a declared content-length past the cap is refused before reading; a stream past it too", async () => {
  const t0 = performance.now();
  const declared = createClient({ ...base, retries: 0, fetch: async (u, init) => fetch(`${url}/declared`, init) });
  await assert.rejects(declared.run("x"), { code: "response_too_large" });
  assert.ok(performance.now() - t0 < 2000, "nothing waited for the body");
  const whole = createClient({ ...base, retries: 0, fetch: big("whole") });
  await assert.rejects(whole.run("x"), { code: "response_too_large" });
  assert.ok(sent.bytes < 40 * 2 ** 20, `the server wrote ${sent.bytes} bytes before the client stopped`);
  const streamed = createClient({ ...base, retries: 0, fetch: big("sse"), maxResponseBytes: 2 ** 20 });
  let deltas = 0;
  const e = await (async () => {
    for await (const ev of streamed.stream("x", {})) if (ev.type === "text") deltas++;
  })().catch((x) => x);
  assert.equal(e?.code, "response_too_large");
  assert.ok(deltas > 0 && deltas < 20, `${deltas} deltas before the cap`);
  // ask with onText streams too
  await assert.rejects(streamed.ask("x", { onText: () => {} }), { code: "response_too_large" });
});
