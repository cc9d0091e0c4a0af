// Images through the UI message stream, both ways: a tool's result images (a JS tool's parts, an
// MCP server's image content) become the protocol's `file` parts, read with the AI SDK's own
// chunk schema and message reader; sent back by useChat's client they return to the call's
// result in the next turn's history, and a user message's `file` parts (data: URLs) reach the
// model as images.
import test, { after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DefaultChatTransport, readUIMessageStream, uiMessageChunkSchema } from "ai";
import { parseJsonEventStream } from "@ai-sdk/provider-utils";
import { createClient, createToolkit, defineTool } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { fromUIMessages, toUIMessageStream, toUIMessageStreamResponse } from "toolnexus-wasm/ui";
import { DONE, opts, scripted } from "../js/scripted-fetch.mjs";
import { startServer, PIXEL } from "../mcp/servers.mjs";
import { Chat } from "./chat.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const DOT = fs.readFileSync(path.join(here, "../fixtures/images/dot.png")).toString("base64");
const mcp = await startServer();
after(() => mcp.close());

/** A response's chunks, each checked by the AI SDK's schema, and the message its reader assembles. */
async function read(response) {
  const chunks = [];
  const reader = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    assert.ok(value.success, `a chunk the AI SDK refuses: ${JSON.stringify(value.rawValue ?? value)} (${value.error})`);
    chunks.push(value.value);
  }
  let message;
  const errors = [];
  const stream = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(String(e)) })) message = m;
  assert.deepEqual(errors, []);
  return { chunks, message };
}

const camera = defineTool({ name: "camera", description: "Takes a picture.", inputSchema: { type: "object", properties: {} },
  run: () => ({ output: "a dot", parts: [{ type: "image", data: DOT, mediaType: "image/png" }] }) });

test("a JS tool's and an MCP server's result images are file parts useChat shows, next to their calls' outputs", async () => {
  const tools = await mcpTools({ server: "pics", url: mcp.url });
  try {
    const m = scripted([["camera", {}], ["pics_image", {}]], DONE);
    const client = createClient(opts(m));
    const { chunks, message } = await read(toUIMessageStreamResponse(client.stream("two pictures", { toolkit: createToolkit({ tools: [camera, ...tools] }) })));
    const files = chunks.filter((c) => c.type == "file");
    assert.deepEqual(files, [
      { type: "file", url: `data:image/png;base64,${DOT}`, mediaType: "image/png", providerMetadata: { toolnexus: { toolCallId: "call_1_0" } } },
      { type: "file", url: `data:image/png;base64,${PIXEL}`, mediaType: "image/png", providerMetadata: { toolnexus: { toolCallId: "call_1_1" } } },
    ]);
    // Each file follows its call's output, in the same step.
    const at = (type, id) => chunks.findIndex((c) => c.type == type && (c.toolCallId ?? c.providerMetadata?.toolnexus?.toolCallId) == id);
    for (const id of ["call_1_0", "call_1_1"]) assert.equal(at("file", id), at("tool-output-available", id) + 1);
    assert.deepEqual(message.parts.filter((p) => p.type != "step-start").map((p) => p.type), ["tool-camera", "tool-pics_image", "file", "file", "text"]);
    assert.deepEqual(message.parts.filter((p) => p.type == "file").map((p) => p.url), [`data:image/png;base64,${DOT}`, `data:image/png;base64,${PIXEL}`]);
    assert.equal(message.parts.find((p) => p.type == "tool-pics_image").output, "a red dot");

    // The next turn: fromUIMessages gives the images back to their results, as OpenAI chat
    // carries them (one user message after the tool messages), and the model sees them again.
    const history = [{ id: "u1", role: "user", parts: [{ type: "text", text: "two pictures" }] }, message, { id: "u2", role: "user", parts: [{ type: "text", text: "and now?" }] }];
    const next = fromUIMessages(history);
    assert.deepEqual(next.history.slice(2), [
      { role: "tool", tool_call_id: "call_1_0", content: "a dot" },
      { role: "tool", tool_call_id: "call_1_1", content: "a red dot" },
      { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${DOT}` } }, { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } }] },
      { role: "assistant", content: "camera: a dot\npics_image: a red dot" },
    ]);
    const again = scripted(() => "ok");
    for await (const _ of toUIMessageStream(createClient(opts(again)).stream(next.prompt, { history: next.history })));
    const sent = again.bodies[0].messages;
    const carrier = sent.findIndex((x) => x.role == "user" && Array.isArray(x.content) && x.content.every((p) => p.type == "image_url"));
    assert.ok(carrier > 0 && sent[carrier - 1].role == "tool", "the images follow the tool results in the provider request");
    assert.equal(sent[carrier].content.length, 2);
  } finally {
    await tools.close();
  }
});

test("an image a user attaches in useChat (a file part, data: URL) reaches the model", async () => {
  const m = scripted((body) => {
    const images = body.messages.flatMap((x) => (Array.isArray(x.content) ? x.content : [])).filter((p) => p.type == "image_url");
    return `${images.length} image(s): ${images.map((p) => p.image_url.url.slice(0, 22)).join(", ")}`;
  });
  const client = createClient(opts(m));
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const next = fromUIMessages(JSON.parse(body).messages);
    const r = toUIMessageStreamResponse(client.stream(next.prompt, { history: next.history }));
    res.writeHead(r.status, Object.fromEntries(r.headers));
    for await (const chunk of r.body) res.write(chunk);
    res.end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  try {
    const chat = new Chat({ transport: new DefaultChatTransport({ api: `http://127.0.0.1:${server.address().port}/api/chat` }) });
    await chat.sendMessage({ text: "what is this?", files: [{ type: "file", mediaType: "image/png", filename: "dot.png", url: `data:image/png;base64,${DOT}` }] });
    assert.equal(chat.status, "ready");
    assert.equal(chat.messages.at(-1).parts.filter((p) => p.type == "text").map((p) => p.text).join(""), "1 image(s): data:image/png;base64,");
    const user = m.bodies[0].messages.at(-1);
    // In the order of the message's parts (the AI SDK puts a message's files before its text).
    assert.deepEqual(user.content, [{ type: "image_url", image_url: { url: `data:image/png;base64,${DOT}` } }, { type: "text", text: "what is this?" }]);
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});
