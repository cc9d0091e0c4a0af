// One claim before any resume runs anything (docs/decisions/resume-claim.md), for an MCP
// server's question (input_required, revision 2026-07-28, the official server in server2026.mjs):
// two concurrent askWithAnswer of one stored halted question send the server one answer; the
// other resume gets `conflict` before anything reached the server. On memoryStore and on
// chromeStorageStore over a fake chrome.storage with navigator.locks.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { chromeStorageStore, createClient, createToolkit, memoryStore } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { start2026 } from "./server2026.mjs";

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
const SCENARIOS = { greet: [{ calls: [["s_greet", { greeting: "Hi" }]] }, { text: "Said: {{results}}" }] };

function chromeWithLocks() {
  const data = new Map();
  const later = () => new Promise((r) => setTimeout(r, 1));
  const chains = new Map();
  globalThis.chrome = { storage: { local: {
    async get(k) { await later(); return data.has(k) ? { [k]: structuredClone(data.get(k)) } : {}; },
    async set(o) { await later(); for (const [k, v] of Object.entries(o)) data.set(k, structuredClone(v)); },
    async remove(k) { await later(); data.delete(k); },
  } } };
  const locks = { request: (name, cb) => { const run = (chains.get(name) ?? Promise.resolve()).then(() => cb()); chains.set(name, run.catch(() => {})); return run; } };
  Object.defineProperty(globalThis, "navigator", { value: { locks }, configurable: true, writable: true });
  return chromeStorageStore();
}

for (const kind of ["memory", "chrome"]) {
  test(`claim: two concurrent answers to one MCP question on ${kind}: the server hears one, the other is conflict`, async () => {
    const s = await start2026();
    servers.push(s);
    const store = kind === "memory" ? memoryStore() : chromeWithLocks();
    const toolkit = createToolkit({ tools: await mcpTools({ server: "s", url: s.url }) });
    const client = () => createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch: scriptedFetch(SCENARIOS), store });
    const halted = await client().ask("#greet", { toolkit, id: "q1" });
    assert.equal(halted.status, "pending");
    assert.equal(halted.pending.kind, "input");
    const answer = (name) => ({ id: halted.pending.id, ok: true, data: { inputResponses: { who: { action: "accept", content: { name } } } } });
    const asked = s.log.retries.length;
    const results = await Promise.allSettled([client().askWithAnswer({ toolkit, id: "q1", answer: answer("Ann") }), client().askWithAnswer({ toolkit, id: "q1", answer: answer("Bob") })]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.reason?.message ?? r.value?.text)));
    assert.equal(lost[0].reason.code, "conflict", lost[0].reason.message);
    const answers = s.log.retries.slice(asked).filter((x) => x.tool === "greet" && x.inputResponses);
    assert.equal(answers.length, 1, "the server got exactly one answer");
    assert.match(won[0].value.text, /Hi, (Ann|Bob)!/);
    assert.equal(won[0].value.text.includes("Ann"), answers[0].inputResponses.who.content.name === "Ann", "the winner's answer is the one sent");
    if (kind === "chrome") delete globalThis.chrome;
  });
}
