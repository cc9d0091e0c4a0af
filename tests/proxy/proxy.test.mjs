// The proxy Worker (examples/worker-proxy) in workerd, driven by the official `openai` npm client
// (a client nobody here wrote), against local stubs of the OpenAI, Anthropic and Gemini APIs that
// check every request body they receive against the shape of the real APIs.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { startScriptedModel } from "../../demo/scripted-model.mjs";
import { startProxyWorker } from "./worker.mjs";

let model, mf, openai, proxy;
before(async () => {
  model = await startScriptedModel();
  proxy = await startProxyWorker({
    OPENAI_BASE_URL: `${model.url}/v1`, ANTHROPIC_BASE_URL: model.url, GEMINI_BASE_URL: model.url,
    OPENAI_API_KEY: "openai-secret", ANTHROPIC_API_KEY: "anthropic-secret", GEMINI_API_KEY: "gemini-secret",
    MODELS: "gpt-scripted,claude-scripted,gemini-scripted",
  });
  ({ mf, openai } = proxy);
});
after(async () => { await proxy?.close(); await model.close(); });

const MODELS = { openai: "gpt-scripted", anthropic: "claude-scripted", gemini: "gemini-scripted" };
const tools = [
  { type: "function", function: { name: "lookup_price", description: "price", parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"], additionalProperties: false } } },
  { type: "function", function: { name: "click", description: "click", parameters: { type: "object", properties: { selector: { type: "string" } } } } },
];

/** What each real API accepts, checked on every request the stubs receive. */
function checkShape(req) {
  const b = req.body;
  if (req.path.endsWith("/chat/completions")) {
    assert.equal(req.headers.authorization, "Bearer openai-secret");
    assert.ok(Array.isArray(b.messages) && b.messages.every((m) => ["system", "user", "assistant", "tool"].includes(m.role)));
    for (const m of b.messages) if (m.tool_calls) for (const c of m.tool_calls) assert.equal(typeof c.function.arguments, "string");
    for (const t of b.tools ?? []) assert.ok(t.type === "function" && typeof t.function.name === "string");
  } else if (req.path.endsWith("/v1/messages")) {
    assert.equal(req.headers["x-api-key"], "anthropic-secret");
    assert.equal(req.headers["anthropic-version"], "2023-06-01");
    assert.ok(typeof b.model === "string" && Number.isInteger(b.max_tokens));
    b.messages.forEach((m, i) => {
      assert.ok(["user", "assistant"].includes(m.role));
      if (i > 0) assert.notEqual(m.role, b.messages[i - 1].role, "roles alternate");
    });
    for (const t of b.tools ?? []) assert.ok(typeof t.name === "string" && t.input_schema?.type === "object" && !("function" in t));
  } else {
    assert.match(req.path, /^\/v1beta\/models\/gemini-scripted:(generateContent|streamGenerateContent\?alt=sse)$/);
    assert.equal(req.headers["x-goog-api-key"], "gemini-secret");
    assert.ok(Array.isArray(b.contents) && b.contents.every((c) => ["user", "model"].includes(c.role) && Array.isArray(c.parts)));
    const decls = b.tools?.[0]?.functionDeclarations ?? [];
    assert.ok(!JSON.stringify(decls).includes("additionalProperties"), "Gemini rejects additionalProperties");
  }
}

test("GET /v1/models lists the configured models", async () => {
  const list = await openai.models.list();
  assert.deepEqual(list.data.map((m) => [m.id, m.owned_by]), [["gpt-scripted", "openai"], ["claude-scripted", "anthropic"], ["gemini-scripted", "gemini"]]);
});

for (const [upstream, name] of Object.entries(MODELS)) {
  test(`${upstream}: plain completion, parallel tool calls and a tool-result round trip`, async () => {
    const hello = await openai.chat.completions.create({ model: name, messages: [{ role: "user", content: "#hello" }] });
    assert.equal(hello.choices[0].message.content, "Hello from the scripted model.");
    assert.equal(hello.choices[0].finish_reason, "stop");
    assert.ok(hello.usage.total_tokens > 0);

    const messages = [{ role: "system", content: "You shop." }, { role: "user", content: "#default" }];
    const first = await openai.chat.completions.create({ model: name, messages, tools, max_tokens: 300 });
    const msg = first.choices[0].message;
    assert.equal(first.choices[0].finish_reason, "tool_calls");
    assert.deepEqual(msg.tool_calls.map((c) => c.function.name), ["lookup_price", "click"]);
    assert.deepEqual(JSON.parse(msg.tool_calls[0].function.arguments), { item: "blue mug" });
    // Gemini signs the first call of a step; the signature reaches the client as Gemini's own
    // OpenAI-compatible endpoint sends it, and goes back upstream with the message (the scripted
    // model refuses a signature that is not the one it gave).
    const signed = upstream === "gemini" ? { google: { thought_signature: "c2NyaXB0ZWQ6c2lnbmF0dXJl" } } : undefined;
    assert.deepEqual(msg.tool_calls.map((c) => c.extra_content), [signed, undefined]);
    const results = [{ role: "tool", tool_call_id: msg.tool_calls[0].id, content: "$7" }, { role: "tool", tool_call_id: msg.tool_calls[1].id, content: "clicked" }];
    const second = await openai.chat.completions.create({ model: name, messages: [...messages, msg, ...results], tools });
    assert.equal(second.choices[0].message.content, "Done. lookup_price → $7; click → clicked");
    if (signed) {
      const back = model.requests.filter((r) => !r.path.endsWith("/chat/completions") && !r.path.endsWith("/v1/messages")).at(-1).body;
      const call = back.contents.find((c) => c.role === "model" && c.parts.some((p) => p.functionCall));
      assert.equal(call.parts.find((p) => p.functionCall).thoughtSignature, signed.google.thought_signature, "the signature went back upstream");
    }
  });

  test(`${upstream}: streaming through the official client`, async () => {
    const stream = await openai.chat.completions.create({ model: name, messages: [{ role: "user", content: "#hello" }], stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage;
    let finish;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
      assert.equal(chunk.model, name);
    }
    assert.equal(text, "Hello from the scripted model.");
    assert.equal(finish, "stop");
    assert.ok(usage.total_tokens > 0);
    const calls = {};
    const tc = await openai.chat.completions.create({ model: name, messages: [{ role: "user", content: "#three-clicks" }], tools, stream: true });
    for await (const chunk of tc) {
      for (const d of chunk.choices[0]?.delta?.tool_calls ?? []) calls[d.index] = d;
    }
    assert.deepEqual(Object.values(calls).map((c) => JSON.parse(c.function.arguments).selector), ["#a", "#b", "#c"]);
  });
}

test("bad requests get OpenAI-shaped errors and no key ever leaves the proxy", async () => {
  await assert.rejects(openai.chat.completions.create({ model: "claude-scripted", messages: [] }), (e) => e.status === 400 && /messages/.test(e.message));
  const raw = await mf.dispatchFetch("http://proxy/v1/chat/completions", { method: "POST", body: "{nope" });
  assert.equal(raw.status, 400);
  assert.equal((await raw.json()).error.type, "invalid_request_error");
  assert.equal((await mf.dispatchFetch("http://proxy/v1/other")).status, 404);
  for (const r of model.requests) checkShape(r);
  assert.equal(model.requests.length, 15, "five upstream calls per upstream, nothing retried");
  for (const r of model.requests) assert.ok(!JSON.stringify(r.body).includes("secret"));
});
