// a2aTools against an agent served by the official A2A JavaScript SDK (tests/mcp/a2a-server.mjs):
// the Agent Card's skill as a tool, a task sent and polled until completed or failed, a timeout,
// and the tool in a run of the loop.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit } from "toolnexus-wasm";
import { a2aTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { startA2aAgent } from "./a2a-server.mjs";

let agent;
before(async () => { agent = await startA2aAgent(); });
after(() => agent.close());

test("A2A: a skill becomes a tool; a task is polled until it completes or fails", async () => {
  const tools = await a2aTools({ card: agent.card, pollEvery: 25 });
  assert.deepEqual(tools.map((t) => [t.name, t.source, t.description]), [["Travel_Desk_book-trip", "a2a", "Books a trip described in plain language"]]);
  assert.deepEqual(tools[0].inputSchema.required, ["task"]);
  const ok = await tools[0].run({ task: "Lisbon, two nights" }, {});
  assert.equal(ok.output, "Booked: Lisbon, two nights");
  assert.equal(ok.isError, false);
  assert.equal(ok.metadata.state, "completed");
  assert.ok(ok.metadata.polls >= 2, `polled ${ok.metadata.polls} times`);
  assert.match(ok.metadata.taskId, /\S/);
  const bad = await tools[0].run({ task: "an impossible trip" }, {});
  assert.equal(bad.isError, true);
  assert.equal(bad.output, `A2A task ${bad.metadata.taskId} failed: no seats left`);
  const slow = await (await a2aTools({ card: agent.card, pollEvery: 20, timeoutMs: 60 }))[0].run({ task: "Oslo" }, {});
  assert.equal(slow.isError, true);
  assert.match(slow.output, /^A2A task \S+ timed out after 60ms \(state=(submitted|working)\)$/);
});

test("A2A: the agent's tool in a run of the loop", async () => {
  const tools = await a2aTools({ card: agent.card, pollEvery: 25 });
  const scenarios = { trip: [{ calls: [["Travel_Desk_book-trip", { task: "Rome in May" }]] }, { text: "Done: {{results}}" }] };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "k", fetch: scriptedFetch(scenarios) });
  const r = await client.run("#trip", { toolkit: createToolkit({ tools }) });
  assert.equal(r.text, "Done: Travel_Desk_book-trip → Booked: Rome in May");
});
