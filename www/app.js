// The demo page: the package's browser entry, the scripted model as an in-page fetch (or a real
// provider with your key), streamed text, relay calls as cards you allow or decline, and a
// durable halt whose saved JSON you can read, edit and resume from. The conversation is kept by
// the library in `localStorage` (`localStorageStore`), so the model remembers earlier messages
// and a reload shows the conversation again; Stop aborts the running turn through `signal`.
import { init, createClient, createToolkit, relayTool, relayCallsOf, relayAnswer } from "../pkg/index.js";
import { localStorageStore } from "../pkg/web-storage.js";
import { init as initMcp, mcpTools } from "../pkg/mcp/index.js";
import { scriptedFetch, SCENARIOS } from "../demo/scripted-logic.mjs";
import { messageLines, restoredLines } from "../demo/transcript.mjs";

const $ = (id) => document.getElementById(id);
const chat = $("chat");
const value = (id) => $(id).value.trim();
const CONVERSATION = "www-demo";
const store = localStorageStore({ prefix: "toolnexus-www:" });
const SETTINGS = "toolnexus-www:settings"; // style, mode, base URL and model; never the key
const USAGE = "toolnexus-www:usage"; // prompt number → the usage line of its turn, shown again after a reload
const DEFAULTS = {
  openai: ["https://api.openai.com/v1", "gpt-4o-mini"],
  responses: ["https://api.openai.com/v1", "gpt-5-mini"],
  anthropic: ["https://api.anthropic.com", "claude-3-5-haiku-latest"],
  gemini: ["https://generativelanguage.googleapis.com", "gemini-2.0-flash"],
};

// Tools of the MCP servers connected on this page (`toolnexus-wasm/mcp`, loaded on first use).
const servers = new Map(); // name → tools
$("mcpAdd").onclick = async () => {
  const server = value("mcpName") || "docs";
  $("mcpStatus").textContent = "connecting…";
  try {
    await initMcp();
    await servers.get(server)?.close();
    const tools = await mcpTools({ server, url: value("mcpUrl") });
    servers.set(server, tools);
    $("mcpStatus").textContent = `${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`;
  } catch (e) {
    $("mcpStatus").textContent = `${e.code ?? "error"}: ${e.message}`;
  }
};

const toolkit = () => createToolkit({ tools: [
  ...[...servers.values()].flat(),
  relayTool("type", "Type text into the sandbox input matching a CSS selector", { type: "object", properties: { selector: { type: "string" }, text: { type: "string" } }, required: ["selector", "text"] }),
  relayTool("click", "Click the sandbox element matching a CSS selector", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
  relayTool("read_text", "Read the text of the sandbox element matching a CSS selector", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
] });

const SYSTEM = "You are the assistant of a demo page. The page has a sandbox with a to-do list: an input #todo-input, " +
  "an Add button #todo-add and the list #todo-list. Use the type, click and read_text tools to act in it when asked. Be brief.";

function client(extra = {}) {
  const style = $("style").value;
  const key = value("apiKey");
  if (key) {
    const [baseUrl, model] = DEFAULTS[style];
    // Anthropic refuses a call from a browser page unless it opts in with this header: the key
    // is visible to whoever uses the page. A demo with the person's own key is that case.
    const headers = style === "anthropic" ? { "anthropic-dangerous-direct-browser-access": "true" } : undefined;
    return createClient({ baseUrl: value("baseUrl") || baseUrl, style, model: value("model") || model, apiKey: key, headers, systemPrompt: SYSTEM, store, ...extra });
  }
  const baseUrl = style === "openai" || style === "responses" ? "https://scripted.invalid/v1" : "https://scripted.invalid";
  // "#docs" asks the echo tool of an MCP server named "docs".
  const scenarios = { ...SCENARIOS, docs: [{ calls: [["docs_echo", { text: "from the page" }]] }, { text: "The MCP server says: {{results}}" }] };
  return createClient({ baseUrl, style, model: `scripted-${style}`, apiKey: "offline", fetch: scriptedFetch(scenarios, { delayMs: 18 }), store, ...extra });
}

function badge() {
  const style = $("style").value;
  $("badge").textContent = value("apiKey") ? `${style} · ${value("model") || DEFAULTS[style][1]}` : `scripted ${style} model · offline`;
  $("baseUrl").placeholder = DEFAULTS[style][0];
  $("model").placeholder = DEFAULTS[style][1];
}

function add(cls, text) {
  $("empty").hidden = true;
  const el = document.createElement("div");
  el.className = `msg ${cls}`;
  el.textContent = text;
  chat.insertBefore(el, $("busy"));
  chat.scrollTop = chat.scrollHeight;
  return el;
}

// ---- busy indicator and Stop -------------------------------------------------------------

let running = null; // the running turn's AbortController

function busy(label) {
  $("busy").hidden = !label;
  $("busy-label").textContent = label ?? "";
  $("send").hidden = Boolean(running);
  $("stop").hidden = !running;
  $("prompt").disabled = Boolean(running);
  chat.scrollTop = chat.scrollHeight;
}

function begin() {
  running = new AbortController();
  document.body.dataset.status = "running";
  busy("Thinking");
  return running.signal;
}

function end(status) {
  running = null;
  busy(null);
  document.body.dataset.status = status;
  $("prompt").focus();
}

$("stop").onclick = () => running?.abort(new DOMException("Stopped by you", "AbortError"));

// ---- relay calls: a card, then the action in the sandbox ----------------------------------

/** Performs one relay call in the sandbox, visibly. */
async function act(call) {
  let el = null;
  try { el = document.querySelector(`#sandbox ${call.input.selector}`); } catch {}
  if (!el) return { id: call.id, output: `no element matches ${call.input.selector}`, isError: true };
  el.classList.add("acting");
  await new Promise((r) => setTimeout(r, 350));
  el.classList.remove("acting");
  if (call.name === "type") { el.value = call.input.text; return { id: call.id, output: `typed "${call.input.text}"` }; }
  if (call.name === "click") { el.click(); return { id: call.id, output: `clicked ${call.input.selector}` }; }
  return { id: call.id, output: el.innerText.trim().replace(/\n+/g, "; ") };
}

/** A card with the calls; resolves to the person's decision, rejects when the run is stopped. */
function askPerson(calls, signal) {
  return new Promise((resolve, reject) => {
    const card = document.createElement("div");
    card.className = "card";
    card.innerHTML = `<b>The agent wants to act in the sandbox</b><div class="calls"></div>`;
    card.querySelector(".calls").textContent = calls.map((c) => `${c.name}(${c.arguments})`).join("\n");
    const done = (ok) => { card.remove(); signal?.removeEventListener("abort", stop); resolve(ok); };
    const stop = () => { card.remove(); reject(signal.reason); };
    signal?.addEventListener("abort", stop, { once: true });
    for (const [label, ok] of [["Allow", true], ["Decline", false]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.className = ok ? "allow" : "decline";
      b.onclick = () => done(ok);
      card.append(b);
    }
    chat.insertBefore(card, $("busy"));
    busy("Waiting for you");
    document.body.dataset.status = "waiting";
    if (signal?.aborted) stop();
  });
}

async function answerFor(request, signal) {
  const calls = relayCallsOf(request);
  if (!(await askPerson(calls, signal))) {
    add("tool", "✗ you declined");
    busy("Thinking");
    return { id: request.id, ok: false, reason: "declined" };
  }
  busy("Acting in the sandbox");
  const results = [];
  for (const c of calls) {
    const r = await act(c);
    results.push(r);
    add("tool", `✓ ${c.name}: ${r.output}`);
  }
  busy("Thinking");
  return relayAnswer(request.id, results);
}

// ---- a turn ----------------------------------------------------------------------------------

/** Streams a run's events into the chat; resolves to the result. */
async function show(events) {
  let bubble = null;
  let result;
  for await (const e of events) {
    if (e.type === "text") (bubble ??= add("assistant", "")).textContent += e.delta;
    if (e.type === "tool_call") { bubble = null; add("tool", `→ ${e.name}(${JSON.stringify(e.args)})`); }
    if (e.type === "done") result = e.result;
  }
  return result;
}

function usageLine(r) {
  const u = r.usage;
  return `${r.turns} model call${r.turns === 1 ? "" : "s"} · ${u.totalTokens} tokens (${u.promptTokens} in, ${u.completionTokens} out)`;
}

async function finish(r) {
  $("saved").hidden = true;
  // The stored conversation is what a resume continues from: show that (what a reload shows too).
  if (r.status === "pending") return store.get(CONVERSATION).then(halted);
  const line = usageLine(r);
  add("usage", line);
  // Kept under the number of the prompt it answered (a stopped prompt has none).
  const n = [...messageLines(r.messages, resultLine)].filter(([cls]) => cls === "user").length;
  localStorage.setItem(USAGE, JSON.stringify({ ...JSON.parse(localStorage.getItem(USAGE) ?? "{}"), [n]: line }));
  document.body.dataset.answer = r.text;
  end(r.status);
}

async function failed(e, signal) {
  if (signal?.aborted) {
    // The run stopped where it was. The store keeps the last completed turn (or the halted one,
    // when it waited for you): close a halted turn as declined so the next message continues.
    const state = await store.get(CONVERSATION);
    if (state?.pending) await client().discard(CONVERSATION, { keepHistory: true });
    add("notice", "Stopped. The conversation keeps every completed step; send another message to go on.");
    return end("stopped");
  }
  // A refused key's body is dropped from the error (it may echo the key): say what it means.
  const why = e.status === 401 || e.status === 403 ? " · The provider refused the API key: check it, or clear it to use the offline model." : "";
  add("error", `${e.code ?? "error"}: ${e.message}${why}`);
  end("error");
}

async function send(prompt) {
  add("user", typeof prompt === "string" ? prompt : prompt.map((p) => p.text ?? `[image ${p.mediaType ?? ""}]`).join(" "));
  const signal = begin();
  try {
    const wait = $("mode").value === "wait";
    // waitFor gets the run's signal: a card it shows goes when the run is stopped.
    const c = client(wait ? { waitFor: (request, ctx) => answerFor(request, ctx.signal) } : {});
    await finish(await show(c.stream(prompt, { toolkit: toolkit(), id: CONVERSATION, signal })));
  } catch (e) {
    await failed(e, signal);
  }
}

// ---- the durable halt ----------------------------------------------------------------------

function halted(state) {
  $("state").value = JSON.stringify(state, null, 2);
  $("saved").hidden = false;
  $("saved").open = true;
  add("tool", `halted: the conversation waits for an answer; its ${JSON.stringify(state).length} bytes of JSON, as stored in localStorage, are below`);
  end("halted");
}

$("resume").onclick = async () => {
  let edited;
  try { edited = JSON.parse($("state").value); } catch { return add("error", "the saved run is not valid JSON"); }
  $("saved").hidden = true;
  const signal = begin();
  try {
    // What you edited becomes the stored conversation (the next revision), then it resumes from
    // the store: the pending request is the stored one.
    const stored = await store.get(CONVERSATION);
    if (stored && JSON.stringify(edited) !== JSON.stringify(stored)) {
      await store.save(CONVERSATION, { ...stored, ...edited, revision: stored.revision + 1 });
    }
    const state = await store.get(CONVERSATION);
    if (!state?.pending) throw Object.assign(new Error("the conversation is not waiting for an answer"), { code: "bad_state" });
    const answer = await answerFor(state.pending, signal);
    await finish(await show(client().streamWithAnswer({ toolkit: toolkit(), id: CONVERSATION, answer, signal })));
  } catch (e) {
    await failed(e, signal);
  }
};

// ---- the conversation from the store, after a reload -----------------------------------------

/** A stored tool result as the page shows it (demo/transcript.mjs reads the dialects). */
const resultLine = (name, output, isError) => `${isError ? "✗" : "✓"} ${name}: ${output}`;

async function restore() {
  const state = await store.get(CONVERSATION);
  if (!state) return;
  const usage = JSON.parse(localStorage.getItem(USAGE) ?? "{}");
  for (const [cls, text] of restoredLines(state, usage, resultLine)) add(cls, text);
  add("notice", `Restored ${state.messages.length} messages from localStorage: the agent remembers this conversation.`);
  if (state.pending) halted(state);
}

$("reset").onclick = async () => {
  running?.abort();
  await client().discard(CONVERSATION);
  localStorage.removeItem(USAGE);
  localStorage.removeItem(TODO);
  todo(["Water the plants"]);
  chat.querySelectorAll(".msg, .card").forEach((el) => el.remove());
  $("empty").hidden = false;
  $("saved").hidden = true;
  delete document.body.dataset.status;
};

// ---- settings, the sandbox, the form -----------------------------------------------------------

const settings = JSON.parse(localStorage.getItem(SETTINGS) ?? "{}");
for (const id of ["style", "mode", "baseUrl", "model"]) if (settings[id]) $(id).value = settings[id];
for (const id of ["style", "mode", "baseUrl", "model", "apiKey"]) {
  $(id).addEventListener("change", () => {
    localStorage.setItem(SETTINGS, JSON.stringify({ style: $("style").value, mode: $("mode").value, baseUrl: value("baseUrl"), model: value("model") }));
    badge();
  });
}
badge();

// The sandbox is the "page" the agent acts in; its list is kept too, so that after a reload it
// still shows what the restored conversation says it did.
const TODO = "toolnexus-www:todo";
function todo(items) {
  $("todo-list").textContent = "";
  for (const text of items) {
    const li = document.createElement("li");
    li.textContent = text;
    $("todo-list").append(li);
  }
}
todo(JSON.parse(localStorage.getItem(TODO) ?? '["Water the plants"]'));
$("todo-add").onclick = () => {
  const text = $("todo-input").value.trim();
  if (!text) return;
  todo([...document.querySelectorAll("#todo-list li")].map((li) => li.textContent).concat(text));
  $("todo-list").lastElementChild.className = "new";
  localStorage.setItem(TODO, JSON.stringify([...document.querySelectorAll("#todo-list li")].map((li) => li.textContent)));
  $("todo-input").value = "";
};
/** The attached image as a prompt part (base64 data), or nothing. */
async function attached() {
  const file = $("image").files[0];
  if (!file) return [];
  $("image").value = "";
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return [{ type: "image", data: btoa(bin), mediaType: file.type }];
}
$("image").onchange = () => $("ask").classList.toggle("with-image", $("image").files.length > 0);
$("ask").onsubmit = async (ev) => {
  ev.preventDefault();
  if (running) return;
  const p = value("prompt");
  const image = await attached();
  $("ask").classList.remove("with-image");
  if (!p && !image.length) return;
  $("prompt").value = "";
  // A prompt with an image is an array of parts; the core reads either shape.
  send(image.length ? [...(p ? [{ type: "text", text: p }] : []), ...image] : p);
};
for (const b of document.querySelectorAll(".suggest")) b.onclick = () => { if (!running) send(b.textContent); };

await init();
await restore();
document.body.dataset.ready = "yes";
