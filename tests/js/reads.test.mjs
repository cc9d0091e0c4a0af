// How a streamed body is read (host.js `readChunk`): reads are gathered in JS until one holds a
// line ending and handed on in at most 8 KB at a time. Whatever the read sizes and line endings,
// a consumer must see exactly the events of the body read at once.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "toolnexus-wasm";

const wire = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/wire");
const recorded = JSON.parse(fs.readFileSync(path.join(wire, "manifest.json"), "utf8")).filter((e) => e.stream);
// A tool turn calls the model again: the second reply is the style's plain text stream.
const second = { openai: "openai/text_stream.sse", anthropic: "anthropic/text.sse", gemini: "gemini/text_stream.sse", responses: "responses/text_stream.sse" };
const enc = new TextEncoder();

/** A body in `size`-byte reads (fresh copies, as a network gives them). */
const body = (bytes, size) => {
  let at = 0;
  return new ReadableStream({ pull(c) { if (at >= bytes.length) return c.close(); c.enqueue(bytes.slice(at, at + size)); at += size; } });
};

/** Every event of one `stream()`, or its error, as JSON text. `bodies`: the replies in order. */
async function events(style, bodies, size, extra = {}) {
  let n = 0;
  const fetch = async () => new Response(body(bodies[Math.min(n++, bodies.length - 1)], size), { headers: { "content-type": "text/event-stream" } });
  const client = createClient({ baseUrl: "http://m/v1", style, model: "m", apiKey: "k", retries: 0, fetch, ...extra });
  const out = [];
  try {
    for await (const e of client.stream("hi")) out.push(e);
  } catch (e) {
    out.push({ error: e.code, message: e.message });
  }
  return JSON.stringify(out);
}

const endings = { lf: (t) => t, crlf: (t) => t.replaceAll("\n", "\r\n"), cr: (t) => t.replaceAll("\n", "\r") };
const SIZES = [1, 2, 7, 32, 256, 9000];

test("every recorded provider stream gives the same events at every read size and line ending", async () => {
  for (const e of recorded) {
    const text = [e.file, second[e.style]].map((f) => fs.readFileSync(path.join(wire, f), "utf8"));
    const expected = await events(e.style, text.map((t) => enc.encode(t)), Infinity);
    // A recording of a call kind the package does not carry (`unsupported`) must be refused,
    // naming the kind, at every read size alike; any other must read without a parse error.
    const refused = e.expect.unsupported && !e.file.includes("partial_args");
    if (refused) assert.ok(expected.includes("provider_parse") && expected.includes(e.expect.unsupported), `${e.file}: ${expected.slice(0, 200)}`);
    else assert.ok(!expected.includes("provider_parse") || e.file.includes("partial_args"), `${e.file}: ${expected.slice(0, 200)}`);
    for (const [name, end] of Object.entries(endings)) {
      const bytes = text.map((t) => enc.encode(end(t)));
      for (const size of [...SIZES, Infinity]) {
        assert.equal(await events(e.style, bytes, size), expected, `${e.file}, ${name} line endings, ${size}-byte reads`);
      }
    }
  }
});

test("a reply larger than one handoff, in any read size, gives every event once and in order", async () => {
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const words = Array.from({ length: 600 }, (_, i) => ` word${i}`);
  // 600 deltas (about 45 KB), one of them alone longer than a handoff (8 KB), the last with no line ending before the end
  words[300] = ` ${"long".repeat(3000)}`;
  const text = chunk({ role: "assistant", content: "" }) + words.map((w) => chunk({ content: w })).join("") + chunk({}, "stop") + "data: [DONE]";
  const expected = await events("openai", [enc.encode(text)], Infinity);
  const deltas = JSON.parse(expected).filter((e) => e.type === "text").map((e) => e.delta);
  assert.deepEqual(deltas, words);
  for (const size of [1, 7, 100, 8191, 8192, 8193, 20000, 65536]) {
    assert.equal(await events("openai", [enc.encode(text)], size), expected, `${size}-byte reads`);
  }
});

test("no complete event waits for more bytes, whatever the read size and line ending", async () => {
  // The body gives nothing past the end of text event k until the consumer has seen event k:
  // a reader that held a finished event back for more bytes would wait forever.
  const deltas = ["one", " two", " three", " four"];
  for (const [name, end] of Object.entries(endings)) {
    const events = [...deltas.map((d) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: d } }] })}\n\n`),
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`].map((t) => enc.encode(end(t)));
    for (const size of [1, 7, 1000]) {
      const seen = deltas.map(() => {
        let resolve;
        return { promise: new Promise((r) => (resolve = r)), resolve: () => resolve() };
      });
      const fetch = async () => {
        let k = 0, at = 0;
        return new Response(new ReadableStream({
          async pull(c) {
            if (k > 0 && at === 0) await seen[k - 1]?.promise;
            if (k === events.length) return c.close();
            c.enqueue(events[k].slice(at, at + size));
            if ((at += size) >= events[k].length) (k++, (at = 0));
          },
        }), { headers: { "content-type": "text/event-stream" } });
      };
      const client = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch });
      const got = [];
      const run = (async () => {
        for await (const e of client.stream("hi")) if (e.type === "text") seen[got.push(e.delta) - 1].resolve();
      })();
      let timer;
      const late = new Promise((_, no) => (timer = setTimeout(() => no(new Error(`${name}, ${size}-byte reads: stuck after ${JSON.stringify(got)}`)), 5000)));
      await Promise.race([run, late]).finally(() => clearTimeout(timer));
      assert.deepEqual(got, deltas);
    }
  }
});

test("a streamed run keeps nothing per body read: no guarded read is left to reject when it ends", async () => {
  // Each guarded host call used to leave its stop in the run's list until the run ended, and
  // each built an AbortError then: one per body read, with the bytes it read held until then.
  const text = fs.readFileSync(path.join(wire, "openai/text_stream.sse"));
  const RealError = globalThis.Error;
  let aborts = 0;
  globalThis.Error = new Proxy(RealError, {
    construct(target, args, newTarget) {
      if (args[0] === "AbortError") aborts++;
      return Reflect.construct(target, args, newTarget);
    },
  });
  try {
    for (const size of [1, 32, Infinity]) {
      aborts = 0;
      const out = JSON.parse(await events("openai", [text], size));
      assert.equal(out.at(-1).type, "done");
      // the last read may still be in the list when the run ends in its continuation
      assert.ok(aborts <= 1, `${size}-byte reads: ${aborts} AbortErrors built at the run's end`);
    }
  } finally {
    globalThis.Error = RealError;
  }
});
