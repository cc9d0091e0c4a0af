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
