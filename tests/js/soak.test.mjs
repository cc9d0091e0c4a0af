// Two writers interleave 1,000 turns on one conversation through one store. Every save is
// revision-checked: a writer whose view is stale gets `conflict` and tries again from the
// store. Nothing may be lost or duplicated: each prompt appears exactly once, in order per writer.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, memoryStore } from "toolnexus-wasm";

test("1,000 interleaved turns across two writers: no lost or duplicated message", async () => {
  const store = memoryStore();
  // A provider that yields to the event loop, so the two writers really interleave.
  const fetch = async (url, init) => {
    await new Promise((r) => setImmediate(r));
    const last = JSON.parse(init.body).messages.at(-1).content;
    return new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: `ack ${last}` } }] }));
  };
  const writer = (name) => createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch, store });
  const a = writer("A");
  const b = writer("B");
  let conflicts = 0;
  async function turns(client, name, n) {
    for (let i = 0; i < n; i++) {
      for (;;) {
        try { await client.ask(`${name}-${i}`, { id: "soak" }); break; } catch (e) {
          if (e.code !== "conflict") throw e;
          conflicts++;
        }
      }
    }
  }
  await Promise.all([turns(a, "A", 500), turns(b, "B", 500)]);
  const state = await store.get("soak");
  const prompts = state.messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.equal(prompts.length, 1000, "every turn once");
  assert.equal(new Set(prompts).size, 1000, "no duplicates");
  for (const name of ["A", "B"]) {
    const mine = prompts.filter((p) => p.startsWith(`${name}-`)).map((p) => Number(p.slice(2)));
    assert.deepEqual(mine, [...mine].sort((x, y) => x - y), `${name}'s turns in order`);
  }
  assert.equal(state.messages.filter((m) => m.role === "assistant").length, 1000);
  assert.equal(state.revision, 1000, "one save per successful turn");
  assert.ok(conflicts > 0, `the writers really raced (${conflicts} conflicts retried)`);
});

// Flat memory: mixed runs (tools, halts and resumes, streams broken early, aborts, fetches that
// ignore the abort, parked waits aborted, deadlines, a long-lived signal shared by every run;
// bench/soak-runs.mjs) must not grow what the wasm holds. A leak of one JS value per run shows
// as 1,200 more live externrefs between the two samples; the bench (bench/soak.mjs) runs 20,000.
test("mixed runs keep live externrefs, wasm memory and the JS heap flat", async () => {
  const pkg = await import("toolnexus-wasm");
  const { makeRuns, sample } = await import("../../bench/soak-runs.mjs");
  const wasm = pkg.initSync();
  const run = makeRuns(pkg);
  const keep = setInterval(() => {}, 1000); // builds with unref'd deadline timers would exit early
  let i = 0;
  for (; i < 600; i++) await run(i);
  const a = await sample(wasm);
  for (; i < 1800; i++) await run(i);
  const b = await sample(wasm);
  clearInterval(keep);
  assert.ok(b.externrefs - a.externrefs <= 16, `live externrefs ${a.externrefs} → ${b.externrefs} over 1,200 runs`);
  assert.ok(b.wasmBytes - a.wasmBytes <= 65536, `wasm memory ${a.wasmBytes} → ${b.wasmBytes}`);
  assert.ok(b.heapUsed - a.heapUsed < 300 * 1200, `JS heap ${a.heapUsed} → ${b.heapUsed} over 1,200 runs`);
});
