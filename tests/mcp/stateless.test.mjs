// mcpTools against the official `@modelcontextprotocol/server` 2.x (tests/mcp/server2026.mjs), which
// speaks revision 2026-07-28: discovery and stateless requests, and a server's questions
// (`input_required`) as suspensions — answered through waitFor, declined, mixed with relay calls,
// over two rounds, and halted durably, resumed from JSON in a fresh Node process. The older
// SDK's servers (tools.test.mjs) keep getting initialize.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";
import { start2026 } from "./server2026.mjs";

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function server(opts) {
  const s = await start2026(opts);
  servers.push(s);
  return s;
}
const byName = (tools, name) => tools.find((t) => t.name === name);
const V = "2026-07-28";

const SCENARIOS = {
  greet: [{ calls: [["s_greet", { greeting: "Hi" }]] }, { text: "Said: {{results}}" }],
  survey: [{ calls: [["s_survey", {}]] }, { text: "Said: {{results}}" }],
  several: [{ calls: [["s_greet", { greeting: "Hi" }], ["click", { selector: "#a" }], ["s_greet", { greeting: "Yo" }]] }, { text: "Said: {{results}}" }],
  twice: [{ calls: [["s_greet", { greeting: "Hi" }], ["s_greet", { greeting: "Yo" }]] }, { text: "Said: {{results}}" }],
};
const modelClient = (extra = {}) =>
  createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch: scriptedFetch(SCENARIOS), ...extra });
const accept = (key, content) => ({ [key]: { action: "accept", content } });

test("discovery picks 2026-07-28: no initialize, no session, _meta and the routing headers on every request", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  assert.deepEqual(tools.map((t) => t.name), ["s_echo", "s_greet", "s_survey", "s_connect", "s_book"]);
  assert.equal(tools.source.protocol, V, "the chosen revision is in the entry");
  assert.deepEqual(await byName(tools, "s_echo").run({ text: "hi" }, {}), { output: "echo: hi", isError: false, metadata: { server: "s" } });
  const rq = s.log.requests;
  assert.deepEqual(rq.map((r) => r.body?.method), ["server/discover", "tools/list", "tools/call"]);
  for (const r of rq) {
    assert.equal(r.headers["mcp-protocol-version"], V);
    assert.equal(r.headers["mcp-method"], r.body.method);
    assert.equal(r.headers["mcp-session-id"], undefined);
    assert.equal(r.body.params._meta["io.modelcontextprotocol/protocolVersion"], V);
    assert.ok(r.body.params._meta["io.modelcontextprotocol/clientCapabilities"].elicitation.form);
  }
  assert.equal(rq[2].headers["mcp-name"], "echo");
  await tools.close();
  assert.equal(rq.length, 3, "no session to DELETE");
  // rebuilt from the entry: nothing is probed again
  const again = await mcpTools(JSON.parse(JSON.stringify(tools.source)));
  await byName(again, "s_echo").run({ text: "x" }, {});
  assert.deepEqual(rq.slice(3).map((r) => r.body?.method), ["tools/call"]);
});

test("a question in form mode → waitFor → the answer → the server's final result", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const asked = [];
  const client = modelClient({
    waitFor: async (request) => {
      asked.push(request);
      return { id: request.id, ok: true, data: { inputResponses: accept("who", { name: "Ann" }) } };
    },
  });
  const done = await client.run("#greet", { toolkit: createToolkit({ tools }) });
  assert.equal(done.text, "Said: s_greet → Hi, Ann!");
  assert.equal(asked.length, 1);
  const q = asked[0];
  assert.equal(q.kind, "input");
  assert.equal(q.prompt, "Who should I greet?");
  assert.equal(q.url, undefined);
  assert.deepEqual(q.data, { server: "s", inputRequests: { who: { method: "elicitation/create", params: {
    message: "Who should I greet?", mode: "form",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], $schema: "https://json-schema.org/draft/2020-12/schema" },
  } } } });
  const retry = s.log.requests.at(-1).body.params;
  assert.deepEqual(retry.inputResponses, accept("who", { name: "Ann" }), "bare, at the top of params");
  assert.equal(retry.requestState, "greet:Hi", "echoed verbatim");
  assert.deepEqual([retry.name, retry.arguments], ["greet", { greeting: "Hi" }]);
});

test("URL mode sets url; a declined question is sent as a decline and the server's answer is the result", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const connect = byName(tools, "s_connect");
  const r = await connect.run({}, {});
  const q = r.metadata.pending;
  assert.equal(q.kind, "input");
  assert.equal(q.url, "https://auth.example.test/link?x=1");
  assert.equal(q.data.inputRequests.link.params.mode, "url");
  assert.equal((await connect.run({}, { answer: { id: q.id, ok: true, data: { inputResponses: { link: { action: "accept" } } } } })).output, "link: accept");
  assert.equal((await connect.run({}, { answer: { id: q.id, ok: false } })).output, "link: decline");
  assert.equal((await connect.run({}, { answer: { id: q.id, ok: false, reason: "closed" } })).output, "link: cancel");
  assert.deepEqual(s.log.requests.at(-1).body.params.inputResponses, { link: { action: "cancel" } });
  // through the loop, a refusal reaches the server (the request says rerunOnDecline) and its reply is the result
  assert.equal(q.rerunOnDecline, true);
  const declined = await modelClient({ waitFor: async (q) => ({ id: q.id, ok: false }) }).run("#greet", { toolkit: createToolkit({ tools }) });
  assert.equal(declined.text, "Said: s_greet → no greeting: decline");
  assert.deepEqual(s.log.requests.at(-1).body.params.inputResponses, { who: { action: "decline" } });
  const cancelled = await modelClient({ waitFor: async (q) => ({ id: q.id, ok: false, reason: "cancelled" }) }).run("#greet", { toolkit: createToolkit({ tools }) });
  assert.equal(cancelled.text, "Said: s_greet → no greeting: cancel");
  const unanswered = await modelClient({ waitFor: async () => undefined }).run("#greet", { toolkit: createToolkit({ tools }) });
  assert.equal(unanswered.text, "Said: s_greet → no greeting: decline", "no answer is a decline");
});

test("a second question under waitFor is waited for too", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const asked = [];
  const client = modelClient({
    waitFor: async (q) => {
      asked.push(q.prompt);
      const key = Object.keys(q.data.inputRequests)[0];
      return { id: q.id, ok: true, data: { inputResponses: accept(key, key === "name" ? { name: "Ann" } : { colour: "red" }) } };
    },
  });
  const done = await client.run("#survey", { toolkit: createToolkit({ tools }) });
  assert.deepEqual(asked, ["Your name?", "Favourite colour?"]);
  assert.equal(done.text, "Said: s_survey → Ann likes red");
  assert.equal(s.log.requests.at(-1).body.params.requestState, "name:Ann");
});

test("a durable refusal reaches the server on resume", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const halted = await modelClient().run("#greet", { toolkit: createToolkit({ tools }) });
  const state = JSON.parse(JSON.stringify(halted));
  assert.equal(state.pending.rerunOnDecline, true, "the flag is in the durable state");
  const done = await modelClient().runWithAnswer({ toolkit: createToolkit({ tools }), state, answer: { id: state.pending.id, ok: false } });
  assert.equal(done.status, "done");
  assert.equal(done.text, "Said: s_greet → no greeting: decline");
  assert.equal(s.log.requests.at(-1).body.params.requestState, "greet:Hi");
});

test("two questions of one turn, halted durably: each reaches the user once, in call order", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const toolkit = createToolkit({ tools });
  let r = await modelClient().run("#twice", { toolkit });
  const asked = [];
  const names = ["Ann", "Bob"];
  while (r.status === "pending") {
    const state = JSON.parse(JSON.stringify(r));
    asked.push(state.pending.id);
    const answer = { id: state.pending.id, ok: true, data: { inputResponses: accept("who", { name: names[asked.length - 1] }) } };
    r = await modelClient().runWithAnswer({ toolkit, state, answer });
  }
  assert.equal(asked.length, 2);
  assert.equal(r.text, "Said: s_greet → Hi, Ann!; s_greet → Yo, Bob!");
  // The second question was asked afresh by its server on the first resume (it is stateless).
  const greets = s.log.retries.filter((x) => x.tool === "greet").map((x) => (x.inputResponses ? "answer" : "ask"));
  assert.deepEqual(greets, ["ask", "ask", "answer", "ask", "answer"]);
});

test("several questions of one turn, mixed with a relay call, each answered by id", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const names = ["Ann", "Bob"];
  const asked = [];
  const client = modelClient({
    waitFor: async (q) => {
      asked.push(q);
      if (q.kind === "tool_call") return { id: q.id, ok: true, data: { output: "clicked" } };
      const name = names[asked.filter((a) => a.kind === "input").length - 1];
      return { id: q.id, ok: true, data: { inputResponses: accept("who", { name }) } };
    },
  });
  const done = await client.run("#several", { toolkit: createToolkit({ tools: [...tools, relayTool("click")] }) });
  assert.deepEqual(asked.map((q) => q.kind).sort(), ["input", "input", "tool_call"]);
  assert.equal(new Set(asked.map((q) => q.id)).size, 3);
  assert.match(done.text, /^Said: s_greet → Hi, (Ann|Bob)!; click → clicked; s_greet → Yo, (Ann|Bob)!$/);
  assert.ok(done.text.includes("Ann") && done.text.includes("Bob"), "each answer reached its own call");
});

test("two rounds, halted durably each time, resumed from JSON in fresh Node processes", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const entry = JSON.stringify(tools.source);
  const halted = await modelClient().run("#survey", { toolkit: createToolkit({ tools }) });
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.kind, "input");
  assert.equal(halted.pending.prompt, "Your name?");
  const n = s.log.requests.length;
  const first = await resumeInChild(entry, JSON.stringify(halted), { inputResponses: accept("name", { name: "Ann" }) });
  assert.equal(first.status, "pending", "the server asks again");
  assert.equal(first.pending.prompt, "Favourite colour?");
  assert.ok(!JSON.stringify(first.pending.data).includes("name:Ann"), "requestState is not in data");
  const done = await resumeInChild(entry, JSON.stringify(first), { inputResponses: accept("colour", { colour: "red" }) });
  assert.equal(done.status, "done");
  assert.equal(done.text, "Said: s_survey → Ann likes red");
  const later = s.log.requests.slice(n).map((r) => r.body?.method);
  assert.deepEqual(later, ["tools/call", "tools/call"], "the fresh processes did not probe or list");
  assert.equal(s.log.requests.at(-1).body.params.requestState, "name:Ann");
});

test("URL mode through the loop: halted with the url, resumed in a fresh Node process once the user has been there", async () => {
  const s = await server();
  const tools = await mcpTools({ server: "s", url: s.url });
  const entry = JSON.stringify(tools.source);
  const halted = await modelClient({ fetch: scriptedFetch({ connect: [{ calls: [["s_connect", {}]] }, { text: "Said: {{results}}" }] }) })
    .run("#connect", { toolkit: createToolkit({ tools }) });
  assert.equal(halted.status, "pending");
  assert.deepEqual([halted.pending.kind, halted.pending.prompt, halted.pending.url], ["input", "Link your account", "https://auth.example.test/link?x=1"]);
  assert.deepEqual(halted.pending.data.inputRequests.link.params, { mode: "url", message: "Link your account", url: "https://auth.example.test/link?x=1" });
  const done = await resumeInChild(entry, JSON.stringify(halted), { inputResponses: { link: { action: "accept" } } });
  assert.equal(done.text, "Said: s_connect → link: accept");
  assert.deepEqual(s.log.requests.at(-1).body.params.inputResponses, { link: { action: "accept" } }, "no content for a URL-mode answer");
  assert.equal(s.log.requests.at(-1).body.params.requestState, "link-1");
  // the user dismissed it instead, or said no: a cancel or a decline, from a fresh process too
  const cancelled = await resumeInChild(entry, JSON.stringify(halted), undefined, { reason: "cancelled" });
  assert.equal(cancelled.text, "Said: s_connect → link: cancel");
  const declined = await resumeInChild(entry, JSON.stringify(halted), undefined, { reason: "declined" });
  assert.equal(declined.text, "Said: s_connect → link: decline");
});

const CHILD = `
import { createClient, createToolkit } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from ${JSON.stringify(new URL("../../demo/scripted-logic.mjs", import.meta.url).href)};
const { entry, state, data, refusal } = JSON.parse(process.env.RESUME);
const tools = await mcpTools(JSON.parse(entry));
const s = JSON.parse(state);
const scenarios = { survey: [{ calls: [["s_survey", {}]] }, { text: "Said: {{results}}" }], connect: [{ calls: [["s_connect", {}]] }, { text: "Said: {{results}}" }] };
const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "sk-test", fetch: scriptedFetch(scenarios) });
const r = await client.runWithAnswer({ toolkit: createToolkit({ tools }), state: s, answer: { id: s.pending.id, ok: !refusal, data, ...refusal } });
process.stdout.write(JSON.stringify(r));
`;

/** Resumes in a child process with `{ ok: true, data }`, or with the `refusal` (`{ reason? }`) as an `ok: false` answer. */
function resumeInChild(entry, state, data, refusal) {
  const cwd = fileURLToPath(new URL(".", import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", CHILD], { cwd, env: { ...process.env, RESUME: JSON.stringify({ entry, state, data, refusal }) } },
      (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(JSON.parse(stdout))));
  });
}

test("a server that serves only 2026-07-28 still gets the stateless client; -32021 never happens", async () => {
  const s = await server({ legacy: "reject" });
  const tools = await mcpTools({ server: "s", url: s.url });
  const r = await byName(tools, "s_greet").run({ greeting: "Hey" }, {});
  assert.equal(r.metadata.pending.kind, "input", "the server asked: the client declared elicitation");
});
