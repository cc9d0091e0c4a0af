// An MCP server's questions inside a Cloudflare Workflow (`toolnexus-wasm/workflows`), against
// the official `@modelcontextprotocol/server` 2.x (server2026.mjs), through the model of the
// Workflows engine's replay rules (tests/js/workflow-engine.mjs): a tool that asks twice parks
// on `wait <call>`, then `wait <call> #2`, each answered by its own event; every round of the
// tool is a step that runs once, however often run() is replayed.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { mcpTools } from "toolnexus-wasm/mcp";
import { answerEvent, runInWorkflow } from "toolnexus-wasm/workflows";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { instance, parkedBy } from "../js/workflow-engine.mjs";
import { start2026 } from "./server2026.mjs";

let server;
after(() => server?.close());
const accept = (key, content) => ({ [key]: { action: "accept", content } });

test("an MCP tool that asks twice parks on two waits keyed by its call; each round runs once", async () => {
  server = await start2026();
  const tools = await mcpTools({ server: "s", url: server.url });
  const opened = [];
  const wf = parkedBy(instance((step) => runInWorkflow(step, {
    client: { baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch: scriptedFetch({ survey: [{ calls: [["s_survey", {}]] }, { text: "Said: {{results}}" }] }) },
    tools,
    prompt: "#survey",
    onSuspend: (s) => void opened.push(s),
  })));
  assert.deepEqual(await wf.replay(), { parked: true });
  assert.equal(opened.length, 1);
  const [first] = opened;
  assert.equal(first.kind, "input");
  assert.equal(first.prompt, "Your name?");
  wf.send(answerEvent(first, { ok: true, data: { inputResponses: accept("name", { name: "Ann" }) } }));
  assert.deepEqual(await wf.replay(), { parked: true }, "the second question parks again");
  const second = opened[1];
  assert.equal(second.prompt, "Favourite colour?");
  assert.equal(second.callId, first.callId);
  assert.notEqual(second.event, first.event, "each round has its own event");
  wf.send(answerEvent(second, { ok: true, data: { inputResponses: accept("colour", { colour: "red" }) } }));
  const { done } = await wf.replay();
  assert.equal(done.text, "Said: s_survey → Ann likes red");
  const id = first.callId;
  assert.deepEqual(wf.log.filter((n) => n.startsWith("tool")), [`tool s_survey ${id}`, `tool s_survey ${id} #2`, `tool s_survey ${id} #3`]);
  assert.deepEqual([...new Set(wf.log.filter((n) => n.startsWith("wait")))], [`wait ${id}`, `wait ${id} #2`]);
  assert.equal(server.log.retries.filter((r) => r.tool === "survey").length, 3, "the server saw each round once over three replays");
  await tools.close();
});
