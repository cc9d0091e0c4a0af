// The newcomer-mistake table (../shared/design/newcomer-review.md §2) as a test: one row per
// mistake a new user makes, with the exact `code` and message they get. Rows that were already
// right are kept right; the rest name the fix now. Provider replies come from an in-process fetch
// (./scripted-fetch.mjs); nothing leaves the process. The rows only a browser meets, in a process
// where the wasm is not loaded yet (tools declared at a service worker's top level, a call before
// `init()`, a CSP without 'wasm-unsafe-eval'), are in ./init-optional.test.mjs, and the README's
// service worker, declared at module level, runs in Chromium in tests/extension/side-panel.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer } from "toolnexus-wasm";
import { scripted, opts, DONE } from "./scripted-fetch.mjs";

const WITHHELD = " (the provider's reply is withheld: it can echo a key)";
const BROWSER = "; in a browser this is CORS (the API refuses this origin), host_permissions (an extension's manifest must list the API's origin) or being offline; not retried";

/** The ToolnexusError `f` throws (or its promise rejects with), checked for code and message. */
async function fails(f, code, message) {
  let e;
  try {
    await f();
  } catch (err) {
    e = err;
  }
  assert.ok(e, "expected a refusal");
  assert.equal(e.name, "ToolnexusError", String(e));
  assert.deepEqual([e.code, e.message], [code, message]);
  return e;
}

/** A fetch that answers every call with `status` and `body`, counting them. */
function answering(status, body) {
  const f = async () => (f.calls++, new Response(JSON.stringify(body), { status }));
  f.calls = 0;
  return f;
}

/** A fetch that throws what `make()` gives, counting the calls and keeping the URLs. */
function throwing(make) {
  const f = async (url) => (f.urls.push(url), Promise.reject(make()));
  f.urls = [];
  return f;
}

const lookup = defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: () => "$12.50" });

test("createClient: misspelt and foreign options name the right one (kept right)", () => {
  const c = (extra) => () => createClient({ style: "openai", model: "m", ...extra });
  const rows = [
    [{ baseURL: "http://x" }, 'createClient options: unknown option "baseURL"; did you mean baseUrl?'],
    [{ maxTokens: 5 }, 'createClient options: unknown option "maxTokens"; did you mean requestParams: { ... } (the provider\'s request body)?'],
    [{ temperature: 0 }, 'createClient options: unknown option "temperature"; did you mean requestParams: { ... } (the provider\'s request body)?'],
    [{ tools: [] }, 'createClient options: unknown option "tools"; did you mean run(prompt, { toolkit })?'],
    [{ maxRetries: 1 }, 'createClient options: unknown option "maxRetries"; did you mean retries?'],
    [{ system: "s" }, 'createClient options: unknown option "system"; did you mean systemPrompt?'],
    // Was "(see ClientOptions)": now where it goes.
    [{ toolkit: {} }, 'createClient options: unknown option "toolkit"; did you mean run(prompt, { toolkit })?'],
    [{ style: "openai-chat" }, 'style must be "openai", "anthropic", "gemini" or "responses", got "openai-chat"'],
  ];
  for (const [extra, message] of rows) assert.throws(c(extra), { name: "ToolnexusError", code: "bad_input", message });
});

test("run / ask / stream options are checked: tools, maxSteps, system no longer vanish", async () => {
  const m = scripted([["lookup_price", { item: "mug" }]], DONE);
  const client = createClient(opts(m));
  const rows = [
    ["run", { tools: [lookup] }, 'run options: unknown option "tools"; did you mean { toolkit: createToolkit({ tools }) }?'],
    ["run", { maxSteps: 5 }, 'run options: unknown option "maxSteps"; did you mean createClient({ maxTurns })?'],
    ["run", { system: "be brief" }, 'run options: unknown option "system"; did you mean createClient({ systemPrompt })?'],
    ["run", { messages: [] }, 'run options: unknown option "messages"; did you mean history?'],
    ["run", { temperature: 0 }, 'run options: unknown option "temperature"; did you mean createClient({ requestParams: { temperature } })?'],
    ["run", { id: "c1" }, 'run options: unknown option "id"; did you mean ask(prompt, { id }) (run never uses the store)?'],
    ["ask", { tools: [lookup] }, 'ask options: unknown option "tools"; did you mean { toolkit: createToolkit({ tools }) }?'],
    ["stream", { onText: () => {} }, 'stream options: unknown option "onText"; did you mean ask(prompt, { onText }) (stream(prompt) gives every event)?'],
  ];
  for (const [method, options, message] of rows) {
    await fails(async () => {
      const r = client[method]("price of a mug?", options);
      if (method === "stream") for await (const _ of r);
      else await r;
    }, "bad_input", message);
  }
  assert.equal(m.calls, 0, "refused before any provider call");
  // The same run with a toolkit offers the tool (and `undefined` values are no keys).
  const r = await client.run("price of a mug?", { toolkit: createToolkit({ tools: [lookup] }), signal: undefined });
  assert.equal(r.text, "lookup_price: $12.50");
});

test("resume, translate, discard and createToolkit options are checked too", async () => {
  const client = createClient(opts(scripted(DONE)));
  const answer = { id: "p", ok: true };
  await fails(() => client.runWithAnswer({ state: {}, answer, id: "c1" }), "bad_input",
    'runWithAnswer options: unknown option "id"; did you mean askWithAnswer({ id, answer }) (runWithAnswer never uses the store)?');
  await fails(() => client.askWithAnswer({ id: "c1", answer, state: {} }), "bad_input",
    'askWithAnswer options: unknown option "state"; did you mean runWithAnswer({ state, answer }) (askWithAnswer reads the conversation from the store)?');
  await fails(() => client.translate({ messages: [{ role: "user", content: "hi" }], model: "gpt-4o" }), "bad_input",
    'translate request: unknown option "model"; did you mean createClient({ model })?');
  await fails(() => client.discard("c1", { keephistory: true }), "bad_input", 'discard options: unknown option "keephistory"; did you mean keepHistory?');
  await fails(() => createToolkit({ tools: [lookup], toolChoice: "auto" }), "bad_input", 'createToolkit options: unknown option "toolChoice" (see createToolkit)');
});

test("tool objects: other libraries' keys are refused with this package's", async () => {
  await fails(() => defineTool({ name: "t", description: "d", parameters: { type: "object" }, run: () => "" }), "bad_input",
    'defineTool: unknown key "parameters"; did you mean inputSchema?');
  await fails(() => defineTool({ name: "t", description: "d", execute: () => "" }), "bad_input", 'defineTool: unknown key "execute"; did you mean run?');
  await fails(() => createToolkit([{ type: "function", function: { name: "t" } }]), "bad_input",
    'tools[0]: unknown key "type"; did you mean defineTool({ name, description, inputSchema, run }) (this is the provider\'s wire format)?');
});

test('a tool name the provider would reject is refused with the rule, not renamed (was: silently "look_up_price")', async () => {
  const rule = 'tool name "look up price" is refused: a tool name is 1 to 64 letters, digits, _ or - ([a-zA-Z0-9_-]{1,64}), the names every provider accepts; try "look_up_price"';
  await fails(() => defineTool({ name: "look up price", description: "d", run: () => "" }), "bad_input", rule);
  await fails(() => relayTool("look up price"), "bad_input", rule);
  await fails(() => createToolkit([{ name: "look up price", source: "relay" }]), "bad_input", rule);
  // A relay host matches calls on the name it declared: it is the name the model calls.
  assert.equal(relayTool("page_title").name, "page_title");
});

test("needsApproval: only a boolean or a function; never on a relay tool", async () => {
  await fails(() => defineTool({ name: "rm", description: "d", needsApproval: "true", run: () => "" }), "bad_input",
    'defineTool.needsApproval must be true, false or a function of the arguments, not "true": write needsApproval: true');
  await fails(() => createToolkit([{ ...relayTool("click"), needsApproval: true }]), "bad_input",
    "tools[0]: needsApproval has no effect on relay tool click: its calls go to the host, which asks before it runs them; remove it");
  await fails(() => createToolkit([{ ...relayTool("click"), needsApproval: () => true }]), "bad_input",
    "tools[0]: needsApproval has no effect on relay tool click: its calls go to the host, which asks before it runs them; remove it");
});

test("baseUrl: a default per style; no scheme, or the endpoint path, is refused at createClient", async () => {
  const urls = {};
  for (const style of ["openai", "responses", "anthropic", "gemini"]) {
    const fetch = throwing(() => new TypeError("offline"));
    await fails(() => createClient({ style, model: "m", apiKey: "k", fetch, retries: 0 }).run("hi"), "transport", "fetch failed: offline");
    urls[style] = fetch.urls[0];
  }
  assert.deepEqual(urls, {
    openai: "https://api.openai.com/v1/chat/completions",
    responses: "https://api.openai.com/v1/responses",
    anthropic: "https://api.anthropic.com/v1/messages",
    gemini: "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent",
  });
  assert.throws(() => createClient({ baseUrl: "https://api.openai.com/v1/chat/completions", style: "openai", model: "m" }), {
    code: "bad_input",
    message: 'createClient options.baseUrl ends with the endpoint path "/chat/completions", which the client adds itself: write "https://api.openai.com/v1"',
  });
  assert.throws(() => createClient({ baseUrl: "api.openai.com/v1", style: "openai", model: "m" }), {
    code: "bad_input",
    message: 'createClient options.baseUrl "api.openai.com/v1" has no scheme: write "https://api.openai.com/v1" (e.g. https://api.openai.com/v1)',
  });
});

test("401 and 403 say what to check, and whether a key was given; the body stays withheld", async () => {
  const body = { error: { message: "Incorrect API key provided: sk-test-key" } };
  const e = await fails(() => createClient(opts({ fetch: answering(401, body) })).run("hi"), "provider_http", `LLM 401: check apiKey: the provider did not accept it${WITHHELD}`);
  assert.equal(e.status, 401);
  await fails(() => createClient(opts({ fetch: answering(401, body) }, { apiKey: undefined })).run("hi"), "provider_http",
    `LLM 401: no apiKey was given: set createClient({ apiKey }), or the auth header in headers${WITHHELD}`);
  await fails(() => createClient(opts({ fetch: answering(403, body) })).run("hi"), "provider_http",
    `LLM 403: check apiKey: the provider accepted it but refused this request (the model, project or region it may use)${WITHHELD}`);
  // Ollama (and LM Studio) from an extension: a keyless 403 is the server refusing the origin.
  await fails(() => createClient(opts({ fetch: answering(403, "Forbidden") }, { baseUrl: "http://localhost:11434/v1", apiKey: undefined })).run("hi"), "provider_http",
    `LLM 403: no apiKey was given; a local server refuses an origin it was not told to allow: OLLAMA_ORIGINS=chrome-extension://* (Ollama), CORS on (LM Studio)${WITHHELD}`);
});

test("retried failures say how many attempts ran; the provider's words are kept", async () => {
  const fetch = answering(503, { error: { message: "The server is overloaded or not ready yet." } });
  await fails(() => createClient(opts({ fetch }, { retries: 2, retryBaseMs: 1 })).run("hi"), "provider_http",
    "LLM 503: The server is overloaded or not ready yet. (after 3 attempts)");
  assert.equal(fetch.calls, 3);
  const down = throwing(() => new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8599"), { code: "ECONNREFUSED" }) }));
  await fails(() => createClient(opts({ fetch: down }, { retries: 2, retryBaseMs: 1 })).run("hi"), "transport",
    "fetch failed (connect ECONNREFUSED 127.0.0.1:8599) (after 3 attempts)");
  assert.equal(down.urls.length, 3, "Node's failure with a cause keeps its retries");
  await fails(() => createClient(opts({ fetch: answering(404, { error: { message: "The model `gpt-nope` does not exist or you do not have access to it." } }) })).run("hi"),
    "provider_http", "LLM 404: The model `gpt-nope` does not exist or you do not have access to it.");
});

test("a browser's opaque fetch failure names CORS, host_permissions and offline, and is not retried", async () => {
  for (const text of ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"]) {
    const fetch = throwing(() => new TypeError(text));
    await fails(() => createClient(opts({ fetch }, { retries: 2, retryBaseMs: 1 })).run("hi"), "transport", `fetch failed: ${text}${BROWSER}`);
    assert.equal(fetch.urls.length, 1, text);
  }
});

test("answers: a wrong id, or results that match no call, are answer_mismatch and lose nothing", async () => {
  const kit = createToolkit([relayTool("page_title")]);
  const m = scripted([["page_title", {}]], DONE);
  const client = createClient(opts(m));
  const halted = await client.ask("title?", { id: "c1", toolkit: kit });
  assert.equal(halted.status, "pending");
  const id = halted.pending.id, call = halted.pending.data.calls[0].id;
  // Kept right: the call id given for the request id.
  await fails(() => client.runWithAnswer({ state: halted, toolkit: kit, answer: relayAnswer(call, [{ id: call, output: "Blue Mug Shop" }]) }), "answer_mismatch",
    `toolnexus: cannot resume — answer id "${call}" does not echo the pending request id "${id}"`);
  // Was: done, the model told "no result supplied on resume for page_title".
  const typo = relayAnswer(id, [{ id: "call_1_9", output: "Blue Mug Shop" }]);
  const stray = `toolnexus: cannot resume — answer result id "call_1_9" matches no outstanding call of request "${id}" (outstanding: ${call})`;
  await fails(() => client.runWithAnswer({ state: halted, toolkit: kit, answer: typo }), "answer_mismatch", stray);
  await fails(() => client.askWithAnswer({ id: "c1", toolkit: kit, answer: typo }), "answer_mismatch", stray);
  assert.equal(m.calls, 1, "refused before any provider call");
  // The stored conversation is still halted on the same request, and the right answer ends it.
  assert.equal((await client.conversationStore().get("c1")).pending.id, id);
  const done = await client.askWithAnswer({ id: "c1", toolkit: kit, answer: relayAnswer(id, [{ id: call, output: "Blue Mug Shop" }]) });
  assert.equal(done.text, "page_title: Blue Mug Shop");
});

test("waitFor: its answer is checked as a resume's is (was: not compared at all)", async () => {
  const kit = createToolkit([relayTool("page_title")]);
  const run = async (answer) => {
    let asked;
    const waitFor = (r) => ((asked = r), answer(r));
    const e = await createClient(opts(scripted([["page_title", {}]], DONE), { waitFor })).run("title?", { toolkit: kit }).catch((err) => err);
    return [e.code, e.message.replaceAll(asked.id, "<request>").replaceAll(asked.data.calls[0].id, "<call>")];
  };
  assert.deepEqual(await run((r) => relayAnswer(r.id, [{ id: "nope", output: "t" }])),
    ["answer_mismatch", 'waitFor: answer result id "nope" matches no outstanding call of request "<request>" (outstanding: <call>)']);
  assert.deepEqual(await run((r) => relayAnswer(r.data.calls[0].id, [{ id: r.data.calls[0].id, output: "t" }])),
    ["answer_mismatch", 'waitFor: answer id "<call>" does not echo the pending request id "<request>"']);
  // Kept right, with the fix named: the results array instead of an answer.
  assert.deepEqual(await run(() => [{ id: "x", output: "t" }]),
    ["host_callback", "waitFor must resolve to an Answer { id, ok, data? } (for relay calls: relayAnswer(request.id, results)): the answer from waitFor must be an object"]);
});

test("relayAnswer given the suspension instead of its id names the fix", async () => {
  await fails(() => relayAnswer({ id: "pnd-1" }, []), "bad_input", "relayAnswer: requestId must be a string (the suspension's id: relayAnswer(pending.id, results))");
});
