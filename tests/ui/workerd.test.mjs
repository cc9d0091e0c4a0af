// examples/use-chat-worker in workerd (Miniflare), bundled as wrangler deploys it, serving the AI
// SDK's own chat client (AbstractChat with DefaultChatTransport, whose fetch goes to the
// Worker): the model's relay call is the client's tool, answered with addToolOutput, and the
// halted run, its state carried in the message, resumes in the Worker. The example's worker.mjs
// is the package README's chat-worker.mjs block.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { Miniflare } from "../workerd/harness.mjs";
import { bundleExample, workerModules } from "../workerd/bundle-example.mjs";
import { DONE, scripted } from "../js/scripted-fetch.mjs";
import { block, quickstarts } from "../quickstart/readme.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let root, mf, modelServer, model;
before(async () => {
  model = scripted([["click", { selector: "#buy" }], ["click", { selector: "#pay" }]], DONE);
  modelServer = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const r = await model.fetch(req.url, { body });
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(await r.text());
  });
  await new Promise((ok) => modelServer.listen(0, "127.0.0.1", ok));
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-ui-worker-"));
  bundleExample("use-chat-worker", root);
  mf = new Miniflare({ ...workerModules(root), compatibilityDate: "2026-04-01",
    bindings: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${modelServer.address().port}/v1` } });
});
after(async () => { await mf?.dispose(); await new Promise((ok) => modelServer.close(ok)); fs.rmSync(root, { recursive: true, force: true }); });

class State {
  messages = [];
  status = "ready";
  error = undefined;
  pushMessage = (m) => { this.messages = [...this.messages, m]; };
  popMessage = () => { this.messages = this.messages.slice(0, -1); };
  replaceMessage = (i, m) => { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; };
  snapshot = (v) => structuredClone(v);
}

test("examples/use-chat-worker/worker.mjs is the package README's chat-worker.mjs", () => {
  const readme = block(quickstarts(path.join(repo, "pkg-template/README.md")), "chat-worker.mjs", "js");
  assert.equal(fs.readFileSync(path.join(repo, "examples/use-chat-worker/worker.mjs"), "utf8"), readme);
});

test("the AI SDK's chat client drives the Worker: two relay calls answered by the client, the run resumed in workerd", async () => {
  const chat = new (class extends AbstractChat {})({
    state: new State(),
    transport: new DefaultChatTransport({ api: "http://worker/api/chat", fetch: (url, init) => mf.dispatchFetch(url, init) }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: ({ toolCall }) => {
      setTimeout(() => chat.addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }), toolCall.input.selector == "#buy" ? 20 : 1);
    },
  });
  await chat.sendMessage({ text: "buy and pay" });
  const t0 = Date.now();
  for (;;) {
    await new Promise((ok) => setTimeout(ok, 20));
    const last = chat.messages.at(-1);
    if (chat.status == "error") throw chat.error;
    if (chat.status == "ready" && last?.parts.some((p) => p.type == "text" && p.state == "done")) break;
    assert.ok(Date.now() - t0 < 20_000, "the chat settles");
  }
  assert.equal(chat.messages.at(-1).parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "click: clicked #buy\nclick: clicked #pay");
  assert.equal(model.calls, 2, "one model call to ask, one after both outputs");
  assert.equal(model.bodies[1].messages.filter((m) => m.role == "tool").length, 2);
});
