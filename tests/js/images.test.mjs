// Image parts through the JS API: a prompt of parts, a tool returning { output, parts }, a relay
// answer with parts across a durable halt and a new client, history and translate. The provider
// is a mock fetch that records every request body, so each test checks the wire shape per style.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf } from "toolnexus-wasm";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAW9JTAQAAAABJRU5ErkJggg==";
const URL_ = "https://example.com/cat.jpg";
const STYLES = ["openai", "anthropic", "gemini"];

const replies = {
  openai: {
    text: (t) => ({ choices: [{ message: { role: "assistant", content: t }, finish_reason: "stop" }] }),
    call: (id, name) => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }] }, finish_reason: "tool_calls" }] }),
  },
  anthropic: {
    text: (t) => ({ id: "m", type: "message", role: "assistant", content: [{ type: "text", text: t }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } }),
    call: (id, name) => ({ id: "m", type: "message", role: "assistant", content: [{ type: "tool_use", id, name, input: {} }], stop_reason: "tool_use", usage: { input_tokens: 1, output_tokens: 1 } }),
  },
  gemini: {
    text: (t) => ({ candidates: [{ content: { role: "model", parts: [{ text: t }] }, finishReason: "STOP" }] }),
    call: (id, name) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall: { id, name, args: {} } }] }, finishReason: "STOP" }] }),
  },
};

/** A fetch answering with `bodies` in turn and recording each request's JSON body. */
function recorder(...bodies) {
  const seen = [];
  const fetch = async (_url, init) => {
    seen.push(JSON.parse(init.body));
    return new Response(JSON.stringify(bodies[Math.min(seen.length - 1, bodies.length - 1)]), { status: 200 });
  };
  return { fetch, seen };
}

const client = (style, fetch, extra = {}) => createClient({ baseUrl: "http://model.test/v1", style, model: "m", apiKey: "k", fetch, ...extra });
const transcript = (body) => body.contents ?? body.messages;
const dataUrl = `data:image/png;base64,${PNG}`;

/** The prompt's parts as each provider's request carries them. */
const promptWire = {
  openai: { role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image_url", image_url: { url: dataUrl } }, { type: "image_url", image_url: { url: URL_ } }] },
  anthropic: { role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }, { type: "image", source: { type: "url", url: URL_ } }] },
  gemini: { role: "user", parts: [{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data: PNG } }, { fileData: { fileUri: URL_ } }] },
};
const prompt = [{ type: "text", text: "what is this?" }, { type: "image", data: PNG, mediaType: "image/png" }, { type: "image", url: URL_ }];

/** The screenshot result (text "captured" + the png) as each provider's request carries it. */
function assertResultWire(style, msgs) {
  const last = msgs.at(-1);
  if (style === "openai") {
    assert.deepEqual(msgs.at(-2), { role: "tool", tool_call_id: "c1", content: "captured" });
    assert.deepEqual(last, { role: "user", content: [{ type: "image_url", image_url: { url: dataUrl } }] });
  } else if (style === "anthropic") {
    assert.deepEqual(last.content[0].content, [{ type: "text", text: "captured" }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }]);
  } else {
    assert.deepEqual(last.parts[1], { inlineData: { mimeType: "image/png", data: PNG } });
    assert.equal(last.parts[0].functionResponse.name, "screenshot");
  }
}

test("a prompt of parts reaches each provider in its shape", async () => {
  for (const style of STYLES) {
    const { fetch, seen } = recorder(replies[style].text("a cat"));
    const r = await client(style, fetch).run(prompt, {});
    assert.equal(r.text, "a cat");
    assert.deepEqual(transcript(seen[0]).at(-1), promptWire[style], style);
    // The result's messages carry the image and feed a next run as history.
    const again = recorder(replies[style].text("still a cat"));
    await client(style, again.fetch).run("and now?", { history: r.messages });
    assert.equal(JSON.stringify(again.seen[0]).split(PNG).length - 1, 1, style);
  }
});

test("a tool returning { output, parts } sends its image with the result", async () => {
  const toolkit = createToolkit({ tools: [defineTool({ name: "screenshot", description: "the tab", run: async () => ({ output: "captured", parts: [{ type: "image", data: PNG }] }) })] });
  for (const style of STYLES) {
    const { fetch, seen } = recorder(replies[style].call("c1", "screenshot"), replies[style].text("a chart"));
    const r = await client(style, fetch).run("look", { toolkit });
    assert.equal(r.text, "a chart");
    assertResultWire(style, transcript(seen[1]));
  }
});

test("a halt on a relay screenshot resumes in a new client with the image intact", async () => {
  const toolkit = createToolkit({ tools: [relayTool("screenshot", "Capture the visible tab", { type: "object", properties: {} })] });
  for (const style of STYLES) {
    const first = recorder(replies[style].call("c1", "screenshot"));
    const halted = await client(style, first.fetch).run(prompt, { toolkit });
    assert.equal(halted.status, "pending");
    const stored = JSON.stringify(halted); // what a host keeps in chrome.storage or KV

    const second = recorder(replies[style].text("I see a 1x1 png"));
    const state = JSON.parse(stored);
    const [call] = relayCallsOf(state.pending);
    const answer = relayAnswer(state.pending.id, [{ id: call.id, output: "captured", parts: [{ type: "image", data: PNG, mediaType: "image/png" }] }]);
    const done = await client(style, second.fetch).runWithAnswer({ toolkit, state, answer });
    assert.equal(done.text, "I see a 1x1 png");
    const msgs = transcript(second.seen[0]);
    assertResultWire(style, msgs);
    assert.deepEqual(msgs[0], promptWire[style], "the prompt's image too");
  }
});

test("ask keeps images in the store across a waitFor answer with parts", async () => {
  const toolkit = createToolkit({ tools: [relayTool("screenshot", "Capture the visible tab", { type: "object", properties: {} })] });
  for (const style of STYLES) {
    const { fetch, seen } = recorder(replies[style].call("c1", "screenshot"), replies[style].text("seen"), replies[style].text("again"));
    const waitFor = async (request) => ({ id: request.id, ok: true, data: { output: "shot", parts: [{ type: "image", url: URL_ }] } });
    const c = client(style, fetch, { waitFor });
    await c.ask("look", { toolkit, id: "tab-1" });
    assert.ok(JSON.stringify(transcript(seen[1])).includes(URL_), style);
    const { messages } = await c.conversationStore().get("tab-1");
    assert.ok(JSON.stringify(messages).includes(URL_), `${style}: stored`);
    await c.ask("and?", { toolkit, id: "tab-1" });
    assert.ok(JSON.stringify(transcript(seen[2])).includes(URL_), `${style}: replayed from the store`);
  }
});

test("parts no provider can carry are bad_input, never dropped", async () => {
  const { fetch, seen } = recorder(replies.openai.text("x"));
  const c = client("openai", fetch);
  for (const bad of [
    [{ type: "input_audio", input_audio: { data: "AA", format: "wav" } }],
    [{ type: "image", data: "AAAA" }],
    [{ type: "image", url: URL_, mediaType: "application/pdf" }],
  ]) {
    const e = await c.run(bad, {}).then(() => null, (err) => err);
    assert.equal(e?.code, "bad_input", JSON.stringify(bad));
  }
  const e = await c.run("x", { history: [{ role: "user", content: [{ type: "file", file: { file_id: "f" } }] }] }).then(() => null, (err) => err);
  assert.equal(e?.code, "bad_input");
  assert.match(e.message, /history\[0\]: a part of type file is not supported/);
  assert.throws(() => relayAnswer("p", [{ id: "c", output: "", parts: [{ type: "video" }] }]), (err) => err.code === "bad_input");
  assert.equal(seen.length, 0, "nothing was sent");
});

test("translate maps image_url parts to every provider", async () => {
  const request = { messages: [{ role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: dataUrl } }] }] };
  for (const style of STYLES) {
    const { fetch, seen } = recorder(replies[style].text("a dot"));
    const r = await client(style, fetch).translate(request);
    assert.equal(r.text, "a dot");
    assert.deepEqual(transcript(seen[0]).at(-1), {
      openai: { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: dataUrl } }] },
      anthropic: { role: "user", content: [{ type: "text", text: "see" }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }] },
      gemini: { role: "user", parts: [{ text: "see" }, { inlineData: { mimeType: "image/png", data: PNG } }] },
    }[style]);
  }
});
