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
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { Miniflare } from "../workerd/harness.mjs";
import { bundleExample, workerModules } from "../workerd/bundle-example.mjs";
import { DONE, scripted } from "../js/scripted-fetch.mjs";
import { block, quickstarts } from "../quickstart/readme.mjs";
import { Chat } from "./chat.mjs";

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


test("examples/use-chat-worker/worker.mjs is the package README's chat-worker.mjs", () => {
  const readme = block(quickstarts(path.join(repo, "pkg-template/README.md")), "chat-worker.mjs", "js");
  assert.equal(fs.readFileSync(path.join(repo, "examples/use-chat-worker/worker.mjs"), "utf8"), readme);
});

test("the AI SDK's chat client drives the Worker: two relay calls answered by the client, the run resumed in workerd", async () => {
  const chat = new Chat({
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

test("resumable in a Durable Object: the AI SDK's reconnect after the client left mid-answer replays it whole, followed live", async () => {
  const { workerRoot } = await import("../workerd/harness.mjs");
  const { moduleOptions } = await import("../workerd/harness.mjs");
  // A model that streams 40 text deltas, 15 ms apart.
  const words = 40;
  const slow = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (let i = 0; i < words; i++) {
      res.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }] })}\n\n`);
      await new Promise((ok) => setTimeout(ok, 15));
    }
    res.end(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`);
  });
  await new Promise((ok) => slow.listen(0, "127.0.0.1", ok));
  const dir = workerRoot("tnx-ui-do-", "../ui/do-worker.mjs");
  const chats = new Miniflare({ ...moduleOptions(dir), durableObjects: { CHATS: "Chat" }, bindings: { MODEL_URL: `http://127.0.0.1:${slow.address().port}/v1` } });
  const expected = Array.from({ length: words }, (_, i) => `w${i} `).join("");
  const chat = (messages = []) => {
    return new Chat({ id: "chat-do", messages, transport: new DefaultChatTransport({ api: "http://worker/api/chat", fetch: (url, init) => chats.dispatchFetch(url, init) }) });
  };
  const textOf = (c) => c.messages.at(-1)?.parts.filter((p) => p.type == "text").map((p) => p.text).join("") ?? "";
  try {
    const first = chat();
    const sent = first.sendMessage({ text: "tell me" });
    await new Promise((ok) => { const t = setInterval(() => textOf(first).length > 20 && (clearInterval(t), ok()), 5); });
    await first.stop(); // the page reloads mid-answer
    await sent;
    assert.ok(textOf(first).length < expected.length);
    const second = chat(first.messages.slice(0, 1));
    await second.resumeStream();
    assert.equal(textOf(second), expected);
    assert.equal(second.messages.filter((m) => m.role == "assistant").length, 1);
    // Delivered whole: the next reconnect is the 204 of nothing to resume.
    const third = chat(first.messages.slice(0, 1));
    await third.resumeStream();
    assert.equal(third.messages.length, 1);
  } finally {
    await chats.dispose();
    await new Promise((ok) => slow.close(ok));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
