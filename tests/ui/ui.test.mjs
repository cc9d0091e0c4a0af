// toolnexus-wasm/ui against the AI SDK's own client code (the `ai` package, pinned in
// tests/ui/package.json): every chunk our stream writes is read with the AI SDK's chunk schema
// through its SSE reader (`parseJsonEventStream`, what `DefaultChatTransport` uses), the
// messages assembled by its `readUIMessageStream`; and the real `AbstractChat` with
// `DefaultChatTransport` drives the loop over HTTP: client tools (relay calls) answered with
// `addToolOutput`, three of one turn out of order, an approval with `addToolApprovalResponse`,
// each resuming the halted run once all its answers are in.
import test from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, readUIMessageStream, uiMessageChunkSchema } from "ai";
import { parseJsonEventStream } from "@ai-sdk/provider-utils";
import { createClient, createToolkit, defineTool, relayTool } from "toolnexus-wasm";
import { fromUIMessages, toUIMessageStream, toUIMessageStreamResponse, UI_MESSAGE_STREAM_HEADERS } from "toolnexus-wasm/ui";
import { DONE, opts, scripted } from "../js/scripted-fetch.mjs";
import { Chat } from "./chat.mjs";

/** The chunks of a UI message stream response, each parsed with the AI SDK's schema. */
async function parsed(response) {
  const chunks = [];
  const reader = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    assert.ok(value.success, `a chunk the AI SDK refuses: ${JSON.stringify(value.rawValue ?? value)} (${value.error})`);
    chunks.push(value.value);
  }
}

const add = defineTool({ name: "add", description: "Adds.", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, run: ({ a, b }) => String(a + b) });

test("a run with a tool call and its answer is a UI message stream the AI SDK reads", async () => {
  const m = scripted([["add", { a: 2, b: 3 }]], DONE);
  const client = createClient(opts(m));
  const toolkit = createToolkit({ tools: [add] });
  const response = toUIMessageStreamResponse(client.stream("add 2 and 3", { toolkit }), { messageId: "msg-1" });
  assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
  for (const [k, v] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) assert.equal(response.headers.get(k), v);
  const chunks = await parsed(response);
  assert.deepEqual(chunks.map((c) => c.type), [
    "start", "start-step", "tool-input-available", "tool-output-available", "finish-step",
    "start-step", "text-start", "text-delta", "text-end", "finish-step", "finish",
  ]);
  assert.deepEqual(chunks[2], { type: "tool-input-available", toolCallId: "call_1_0", toolName: "add", input: { a: 2, b: 3 } });
  assert.deepEqual(chunks[3], { type: "tool-output-available", toolCallId: "call_1_0", output: "5" });
  assert.equal(chunks.at(-1).finishReason, "stop");
  // The AI SDK's own reader assembles the message as useChat shows it.
  let message;
  const stream = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
  for await (const m of readUIMessageStream({ stream })) message = m;
  assert.equal(message.id, "msg-1");
  assert.deepEqual(message.parts.filter((p) => p.type != "step-start").map((p) => [p.type, p.state]), [["tool-add", "output-available"], ["text", "done"]]);
  assert.equal(message.parts.find((p) => p.type == "text").text, "add: 5");
});

test("a failed run ends with the protocol's error chunk, and leaving the stream aborts the run", async () => {
  const client = createClient({ ...opts(scripted(DONE)), fetch: async () => new Response("nope", { status: 401 }) });
  const chunks = await parsed(toUIMessageStreamResponse(client.stream("hi")));
  assert.equal(chunks.at(-1).type, "error");
  assert.match(chunks.at(-1).errorText, /^provider_http: /);
  assert.ok(!chunks.at(-1).errorText.includes("sk-test-key"));
  // A message that already begins with its code (a store's conflict) is not prefixed twice.
  const conflict = Object.assign(new Error('conflict: conversation "c1" is no longer halted'), { code: "conflict" });
  const refused = (async function* () { throw conflict; })();
  const seen = [];
  for await (const c of toUIMessageStream(refused)) seen.push(c);
  assert.deepEqual(seen.at(-1), { type: "error", errorText: 'conflict: conversation "c1" is no longer halted' });
  // Cancelling the UI stream returns the event stream, which aborts the run before its model call.
  let fetched = 0;
  const slow = createClient({ ...opts(scripted(DONE)), fetch: async () => (fetched++, new Promise(() => {})) });
  const reader = toUIMessageStream(slow.stream("hi")).getReader();
  assert.equal((await reader.read()).value.type, "start");
  await reader.cancel();
  assert.ok(fetched <= 1);
});


/** A Node server that answers useChat's requests as a Worker would: fromUIMessages, then the run. */
async function server(client, toolkit) {
  const log = [];
  const s = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const { messages } = JSON.parse(body);
    const next = fromUIMessages(messages);
    log.push(next);
    if ("waiting" in next) return res.writeHead(204).end();
    const r = "resume" in next
      ? toUIMessageStreamResponse(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown })
      : toUIMessageStreamResponse(client.stream(next.prompt, { toolkit, history: next.history }));
    res.writeHead(r.status, Object.fromEntries(r.headers));
    for await (const chunk of r.body) res.write(chunk);
    res.end();
  });
  await new Promise((ok) => s.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${s.address().port}/api/chat`, log, close: () => new Promise((ok) => s.close(ok)) };
}

const settled = (chat) => new Promise((ok, fail) => {
  const t = setInterval(() => {
    if (chat.status == "ready" && chat.messages.at(-1)?.role == "assistant" && chat.messages.at(-1).parts.some((p) => p.type == "text" && p.state == "done")) clearInterval(t), ok();
    if (chat.status == "error") clearInterval(t), fail(chat.error);
  }, 5);
});

test("useChat's client tools answer three relay calls of one turn out of order; the run resumes once, when all are in", async () => {
  const m = scripted([["click", { selector: "#a" }], ["click", { selector: "#b" }], ["click", { selector: "#c" }]], DONE);
  const client = createClient(opts(m));
  const toolkit = createToolkit({ tools: [relayTool("click", "Clicks in the tab.", { type: "object", properties: { selector: { type: "string" } } })] });
  const srv = await server(client, toolkit);
  const answered = [];
  const chat = new Chat({
    transport: new DefaultChatTransport({ api: srv.url }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    // The tab answers the last call first: each output arrives on its own.
    onToolCall: ({ toolCall }) => {
      const wait = { "#a": 30, "#b": 15, "#c": 1 }[toolCall.input.selector];
      setTimeout(() => { answered.push(toolCall.input.selector); chat.addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }); }, wait);
    },
  });
  try {
    await chat.sendMessage({ text: "click a, b and c" });
    await settled(chat);
    assert.deepEqual(answered, ["#c", "#b", "#a"]);
    const last = chat.messages.at(-1);
    assert.equal(last.parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "click: clicked #a\nclick: clicked #b\nclick: clicked #c");
    assert.equal(m.calls, 2, "one model call to ask, one after the three answers");
    // The server ran the loop twice: the prompt, then one resume with all three outputs.
    assert.deepEqual(srv.log.map((n) => ("waiting" in n ? "waiting" : "resume" in n ? "resume" : "prompt")).filter((k) => k != "waiting"), ["prompt", "resume"]);
    // The provider saw each call's output once.
    assert.equal(m.bodies[1].messages.filter((x) => x.role == "tool").length, 3);
  } finally {
    await srv.close();
  }
});

test("an approval asked in the stream is answered with addToolApprovalResponse; the tool runs once", async () => {
  const m = scripted([["delete_file", { path: "/tmp/a" }]], DONE);
  let runs = 0;
  const del = defineTool({ name: "delete_file", description: "Deletes a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } }, needsApproval: true, run: ({ path }) => (runs++, `deleted ${path}`) });
  const client = createClient(opts(m));
  const toolkit = createToolkit({ tools: [del] });
  const srv = await server(client, toolkit);
  const chat = new Chat({ transport: new DefaultChatTransport({ api: srv.url }), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  try {
    await chat.sendMessage({ text: "delete /tmp/a" });
    const part = () => chat.messages.at(-1).parts.find((p) => p.type == "tool-delete_file");
    await new Promise((ok) => { const t = setInterval(() => part()?.state == "approval-requested" && chat.status == "ready" && (clearInterval(t), ok()), 5); });
    assert.equal(runs, 0);
    await chat.addToolApprovalResponse({ id: part().approval.id, approved: true });
    await settled(chat);
    assert.equal(runs, 1);
    assert.equal(part().state, "output-available");
    assert.equal(chat.messages.at(-1).parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "delete_file: deleted /tmp/a");
  } finally {
    await srv.close();
  }
});

test("fromUIMessages: a new turn's prompt and history, and what it refuses", () => {
  const messages = [
    { id: "1", role: "user", parts: [{ type: "text", text: "add 1 and 2" }] },
    { id: "2", role: "assistant", parts: [{ type: "step-start" }, { type: "tool-add", toolCallId: "c1", state: "output-available", input: { a: 1, b: 2 }, output: "3" }, { type: "step-start" }, { type: "text", text: "3" }] },
    { id: "3", role: "user", parts: [{ type: "text", text: "and this?" }, { type: "file", mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=" }] },
  ];
  const next = fromUIMessages(messages);
  assert.deepEqual(next.prompt, [{ type: "text", text: "and this?" }, { type: "image", url: "data:image/png;base64,iVBORw0KGgo=", mediaType: "image/png" }]);
  assert.deepEqual(next.history, [
    { role: "user", content: "add 1 and 2" },
    { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":1,"b":2}' } }] },
    { role: "tool", tool_call_id: "c1", content: "3" },
    { role: "assistant", content: "3" },
  ]);
  assert.throws(() => fromUIMessages([]), /non-empty array/);
  assert.throws(() => fromUIMessages([messages[1]]), /holds no halted run/);
});

test("pkg-template/README.md: chat-worker.mjs serves useChat, whose client tool answers the relay call", async () => {
  const { quickstarts, block, repo } = await import("../quickstart/readme.mjs");
  const fs = await import("node:fs");
  const path = await import("node:path");
  const file = path.join(repo, "tests/ui/chat-worker.readme.mjs"); // beside node_modules/toolnexus-wasm
  fs.writeFileSync(file, block(quickstarts(path.join(repo, "pkg-template/README.md")), "chat-worker.mjs", "js"));
  const model = scripted([["click", { selector: "#buy" }]], DONE);
  const modelServer = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const r = await model.fetch(req.url, { body });
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(await r.text());
  });
  await new Promise((ok) => modelServer.listen(0, "127.0.0.1", ok));
  const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${modelServer.address().port}/v1` };
  try {
    const worker = (await import(file)).default;
    // The Worker's fetch behind a Node server, as wrangler would serve it.
    const s = http.createServer(async (req, res) => {
      let body = "";
      for await (const c of req) body += c;
      const r = await worker.fetch(new Request("http://worker/api/chat", { method: "POST", body }), env);
      res.writeHead(r.status, Object.fromEntries(r.headers));
      if (r.body) for await (const chunk of r.body) res.write(chunk);
      res.end();
    });
    await new Promise((ok) => s.listen(0, "127.0.0.1", ok));
    const chat = new Chat({
      transport: new DefaultChatTransport({ api: `http://127.0.0.1:${s.address().port}/api/chat` }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
      onToolCall: ({ toolCall }) => { chat.addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }); },
    });
    await chat.sendMessage({ text: "buy it" });
    await settled(chat);
    assert.equal(chat.messages.at(-1).parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "click: clicked #buy");
    assert.equal(model.calls, 2);
    await new Promise((ok) => s.close(ok));
  } finally {
    await new Promise((ok) => modelServer.close(ok));
    fs.rmSync(file, { force: true });
  }
});

test("every recorded provider stream, of all four styles, is a UI message stream the AI SDK reads without an error", async () => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const { repo } = await import("../quickstart/readme.mjs");
  const wire = path.join(repo, "tests/fixtures/wire");
  const recorded = JSON.parse(fs.readFileSync(path.join(wire, "manifest.json"), "utf8")).filter((e) => e.stream);
  // A tool turn calls the model again: the second reply is the style's plain text stream.
  const second = { openai: "openai/text_stream.sse", anthropic: "anthropic/text.sse", gemini: "gemini/text_stream.sse", responses: "responses/text_stream.sse" };
  const styles = new Set();
  for (const e of recorded) {
    const bodies = [e.file, second[e.style]].map((f) => fs.readFileSync(path.join(wire, f), "utf8"));
    let n = 0;
    const fetch = async () => new Response(bodies[Math.min(n++, 1)], { headers: { "content-type": "text/event-stream" } });
    const client = createClient({ baseUrl: "http://m/v1", style: e.style, model: "m", apiKey: "k", retries: 0, fetch });
    // The events as the loop gives them, and the same run's chunks.
    const events = [];
    const tee = (async function* () { for await (const x of client.stream("hi")) yield (events.push(x), x); })();
    const chunks = await parsed(toUIMessageStreamResponse(tee));
    const stream = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
    let message;
    const errors = [];
    for await (const m of readUIMessageStream({ stream, onError: (err) => errors.push(String(err)) })) message = m;
    // The reader reports an `error` chunk (a failed run) to onError, and nothing else.
    assert.equal(errors.length, chunks.at(-1).type == "error" ? 1 : 0, `${e.file}: ${errors}`);
    const text = events.filter((x) => x.type == "text").map((x) => x.delta).join("");
    const shown = (message?.parts ?? []).filter((p) => p.type == "text").map((p) => p.text).join("");
    assert.equal(shown, text, e.file);
    const last = chunks.at(-1).type;
    assert.ok(last == "finish" || last == "error", `${e.file}: ends with ${last}`);
    if (e.expect.error) assert.equal(last, "error", e.file);
    styles.add(e.style);
  }
  assert.deepEqual([...styles].sort(), ["anthropic", "gemini", "openai", "responses"]);
});

/** Two ends of chrome.runtime ports, as the extension's page and worker see them (messages cloned, async). */
function fakeRuntime() {
  const connectListeners = new Set();
  const end = () => ({ messages: new Set(), disconnects: new Set(), other: null, open: true });
  const port = (self, name) => ({
    name,
    postMessage: (m) => { if (!self.open) throw new Error("Attempting to use a disconnected port object"); const copy = structuredClone(m); queueMicrotask(() => self.other.open && self.other.messages.forEach((f) => f(copy))); },
    disconnect: () => { if (!self.open) return; self.open = self.other.open = false; queueMicrotask(() => self.other.disconnects.forEach((f) => f())); },
    onMessage: { addListener: (f) => self.messages.add(f) },
    onDisconnect: { addListener: (f) => self.disconnects.add(f) },
  });
  return {
    connect({ name }) {
      const a = end(), b = end();
      (a.other = b), (b.other = a);
      queueMicrotask(() => connectListeners.forEach((f) => f(port(b, name))));
      return port(a, name);
    },
    onConnect: { addListener: (f) => connectListeners.add(f), removeListener: (f) => connectListeners.delete(f) },
  };
}

test("useChat in a side panel drives the loop in the service worker over a chrome.runtime port", async () => {
  const { portChatTransport, serveChatPort } = await import("toolnexus-wasm/ui");
  const runtime = fakeRuntime();
  const m = scripted([["click", { selector: "#a" }], ["click", { selector: "#b" }]], DONE);
  const client = createClient(opts(m));
  const toolkit = createToolkit({ tools: [relayTool("click", "Clicks in the tab.", { type: "object", properties: { selector: { type: "string" } } })] });
  const stop = serveChatPort(({ messages }) => {
    const next = fromUIMessages(messages);
    if ("waiting" in next) return new ReadableStream({ start: (c) => c.close() });
    if ("resume" in next) return toUIMessageStream(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown });
    return toUIMessageStream(client.stream(next.prompt, { toolkit, history: next.history }));
  }, { runtime });
  const chat = new Chat({
    transport: portChatTransport({ runtime }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: ({ toolCall }) => { setTimeout(() => chat.addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }), toolCall.input.selector == "#a" ? 10 : 1); },
  });
  await chat.sendMessage({ text: "click a and b" });
  await settled(chat);
  assert.equal(chat.messages.at(-1).parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "click: clicked #a\nclick: clicked #b");
  assert.equal(m.calls, 2);
  stop();
});

test("closing the panel mid-answer disconnects the port, which aborts the run in the worker", async () => {
  const { portChatTransport, serveChatPort } = await import("toolnexus-wasm/ui");
  const runtime = fakeRuntime();
  let signal;
  const client = createClient({ ...opts(scripted(DONE)), fetch: (_u, init) => ((signal = init.signal), new Promise(() => {})) });
  const stop = serveChatPort(({ messages }) => toUIMessageStream(client.stream(fromUIMessages(messages).prompt)), { runtime });
  const stream = await portChatTransport({ runtime }).sendMessages({ chatId: "c", trigger: "submit-message", messageId: undefined, messages: [{ id: "1", role: "user", parts: [{ type: "text", text: "hi" }] }] });
  const reader = stream.getReader();
  assert.equal((await reader.read()).value.type, "start");
  await new Promise((ok) => { const t = setInterval(() => signal && (clearInterval(t), ok()), 2); });
  assert.equal(signal.aborted, false);
  await reader.cancel(); // the panel closed
  await new Promise((ok) => { const t = setInterval(() => signal.aborted && (clearInterval(t), ok()), 2); });
  assert.equal(signal.aborted, true);
  stop();
});

/** An OpenAI model that streams `words` text deltas, `ms` apart. */
function slowModel(words, ms) {
  let calls = 0;
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const fetch = async () => {
    calls++;
    const enc = new TextEncoder();
    let i = 0;
    const body = new ReadableStream({
      async pull(c) {
        await new Promise((ok) => setTimeout(ok, ms));
        if (i < words) return c.enqueue(enc.encode(chunk({ content: `w${i++} ` })));
        c.enqueue(enc.encode(chunk({}, "stop") + "data: [DONE]\n\n"));
        c.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, get calls() { return calls; }, text: Array.from({ length: words }, (_, i) => `w${i} `).join("") };
}

const textOf = (chat) => chat.messages.at(-1)?.parts.filter((p) => p.type == "text").map((p) => p.text).join("");

test("resumable: a panel closed mid-answer and opened again shows the same text as an uninterrupted run, from the worker's kept answer", async () => {
  const { portChatTransport, serveChatPort } = await import("toolnexus-wasm/ui");
  const runtime = fakeRuntime();
  const model = slowModel(30, 3);
  const client = createClient({ ...opts(scripted(DONE)), fetch: model.fetch });
  const kept = new Map();
  const storage = { get: async (k) => structuredClone(kept.get(k)), put: async (k, v) => void kept.set(k, structuredClone(v)) };
  const stop = serveChatPort(({ messages }) => toUIMessageStream(client.stream(fromUIMessages(messages).prompt)), { runtime, resumable: true, storage });
  const first = new Chat({ id: "chat-1", transport: portChatTransport({ runtime }) });
  const sent = first.sendMessage({ text: "tell me" });
  await new Promise((ok) => { const t = setInterval(() => (textOf(first)?.length ?? 0) > 10 && (clearInterval(t), ok()), 2); });
  await first.stop(); // the panel closes: the port goes, the run goes on
  await sent;
  assert.ok(textOf(first).length < model.text.length, "the first panel saw part of the answer");
  // The panel opens again mid-answer: the AI SDK's resumeStream replays the answer and follows it.
  const second = new Chat({ id: "chat-1", transport: portChatTransport({ runtime }), messages: first.messages.slice(0, 1) });
  await second.resumeStream();
  assert.equal(textOf(second), model.text);
  assert.equal(second.messages.filter((m) => m.role == "assistant").length, 1, "one answer, no duplicate");
  assert.equal(model.calls, 1, "the run was not made again");
  // Delivered whole: a third reconnect has nothing to replay.
  const third = new Chat({ id: "chat-1", transport: portChatTransport({ runtime }), messages: first.messages.slice(0, 1) });
  await third.resumeStream();
  assert.equal(third.messages.length, 1);
  stop();

  // An answer that ended while no page watched is replayed whole, also by a worker that restarted
  // (a new serveChatPort over the same storage).
  const runtime2 = fakeRuntime();
  const stop2 = serveChatPort(({ messages }) => toUIMessageStream(client.stream(fromUIMessages(messages).prompt)), { runtime: runtime2, resumable: true, storage });
  const a = new Chat({ id: "chat-2", transport: portChatTransport({ runtime: runtime2 }) });
  const s2 = a.sendMessage({ text: "tell me" });
  await new Promise((ok) => { const t = setInterval(() => (textOf(a)?.length ?? 0) > 0 && (clearInterval(t), ok()), 2); });
  await a.stop();
  await s2;
  await new Promise((ok) => { const t = setInterval(() => kept.get("toolnexus:chat:chat-2")?.chunks?.length && (clearInterval(t), ok()), 5); });
  stop2();
  const runtime3 = fakeRuntime(); // the worker restarted: nothing in memory
  const stop3 = serveChatPort(() => { throw new Error("no new run"); }, { runtime: runtime3, resumable: true, storage });
  const b = new Chat({ id: "chat-2", transport: portChatTransport({ runtime: runtime3 }), messages: a.messages.slice(0, 1) });
  await b.resumeStream();
  assert.equal(textOf(b), model.text);
  assert.equal(kept.get("toolnexus:chat:chat-2").delivered, true);
  stop3();
});

test("events that give no chunk (usage, reasoning left out) never stall the stream", async () => {
  async function* events() {
    for (let i = 0; i < 3; i++) {
      await new Promise((ok) => setTimeout(ok, 2));
      yield { type: "usage", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
      yield { type: "reasoning", delta: "hm" };
    }
    yield { type: "text", delta: "ok" };
    yield { type: "done", result: { status: "done", finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } } };
  }
  const reader = toUIMessageStream(events(), { sendReasoning: false }).getReader();
  const types = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    types.push(value.type);
  }
  assert.deepEqual(types, ["start", "start-step", "text-start", "text-delta", "text-end", "finish-step", "finish"]);
});
