// The demo page: the package's browser entry, the scripted model as an in-page fetch (or a real
// provider), streamed text, relay calls as cards you allow or decline, and a durable halt whose
// saved JSON you can read, edit and resume from.
import { init, createClient, createToolkit, relayTool, relayCallsOf, relayAnswer } from "../pkg/index.js";
import { init as initMcp, mcpTools } from "../pkg/mcp/index.js";
import { scriptedFetch, SCENARIOS } from "../demo/scripted-logic.mjs";

const $ = (id) => document.getElementById(id);
const chat = $("chat");
const value = (id) => $(id).value.trim();

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

function client(extra = {}) {
  const style = $("style").value;
  const real = value("apiKey");
  $("badge").textContent = real ? `${style} · ${value("model") || "?"}` : `scripted ${style} model · offline`;
  if (real) return createClient({ baseUrl: value("baseUrl"), style, model: value("model"), apiKey: real, ...extra });
  const baseUrl = style === "openai" ? "https://scripted.invalid/v1" : "https://scripted.invalid";
  // "#docs" asks the echo tool of an MCP server named "docs".
  const scenarios = { ...SCENARIOS, docs: [{ calls: [["docs_echo", { text: "from the page" }]] }, { text: "The MCP server says: {{results}}" }] };
  return createClient({ baseUrl, style, model: `scripted-${style}`, apiKey: "offline", fetch: scriptedFetch(scenarios), ...extra });
}

function add(cls, text) {
  const el = document.createElement("div");
  el.className = `msg ${cls}`;
  el.textContent = text;
  chat.append(el);
  chat.scrollTop = chat.scrollHeight;
  return el;
}

/** Performs one relay call in the sandbox, visibly. */
async function act(call) {
  const el = document.querySelector(`#sandbox ${call.input.selector}`);
  if (!el) return { id: call.id, output: `no element matches ${call.input.selector}`, isError: true };
  el.classList.add("acting");
  await new Promise((r) => setTimeout(r, 350));
  el.classList.remove("acting");
  if (call.name === "type") { el.value = call.input.text; return { id: call.id, output: `typed "${call.input.text}"` }; }
  if (call.name === "click") { el.click(); return { id: call.id, output: `clicked ${call.input.selector}` }; }
  return { id: call.id, output: el.innerText.trim().replace(/\n+/g, "; ") };
}

/** A card with the calls; resolves to the person's decision. */
function askPerson(calls) {
  return new Promise((resolve) => {
    const card = document.createElement("div");
    card.className = "card";
    card.innerHTML = `<b>The agent wants to act in the sandbox</b><div class="calls"></div>`;
    card.querySelector(".calls").textContent = calls.map((c) => `${c.name}(${c.arguments})`).join("\n");
    for (const [label, ok] of [["Allow", true], ["Decline", false]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.className = ok ? "allow" : "decline";
      b.onclick = () => { card.remove(); resolve(ok); };
      card.append(b);
    }
    chat.append(card);
    chat.scrollTop = chat.scrollHeight;
    document.body.dataset.status = "waiting";
  });
}

async function answerFor(request) {
  const calls = relayCallsOf(request);
  if (!(await askPerson(calls))) {
    add("tool", "you declined");
    return { id: request.id, ok: false, reason: "declined" };
  }
  const results = [];
  for (const c of calls) {
    const r = await act(c);
    results.push(r);
    add("tool", `✓ ${c.name}: ${r.output}`);
  }
  return relayAnswer(request.id, results);
}

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

async function send(prompt) {
  add("user", prompt);
  document.body.dataset.status = "running";
  try {
    if ($("mode").value === "wait") {
      const r = await show(client({ waitFor: answerFor }).stream(prompt, { toolkit: toolkit() }));
      finish(r);
    } else {
      const r = await show(client().stream(prompt, { toolkit: toolkit() }));
      if (r.status === "pending") halted(r); else finish(r);
    }
  } catch (e) {
    add("error", `${e.code ?? "error"}: ${e.message}`);
    document.body.dataset.status = "error";
  }
}

function halted(r) {
  $("state").value = JSON.stringify(r, null, 2);
  $("saved").hidden = false;
  $("saved").open = true;
  add("tool", `halted: status "pending", ${JSON.stringify(r).length} bytes of JSON saved below`);
  document.body.dataset.status = "halted";
}

function finish(r) {
  $("saved").hidden = true;
  document.body.dataset.status = r.status;
  document.body.dataset.answer = r.text;
}

$("resume").onclick = async () => {
  let state;
  try { state = JSON.parse($("state").value); } catch { return add("error", "the saved run is not valid JSON"); }
  document.body.dataset.status = "running";
  try {
    const answer = await answerFor(state.pending);
    const r = await show(client().streamWithAnswer({ toolkit: toolkit(), state, answer }));
    if (r.status === "pending") halted(r); else finish(r);
  } catch (e) {
    add("error", `${e.code ?? "error"}: ${e.message}`);
  }
};

$("todo-add").onclick = () => {
  const text = $("todo-input").value.trim();
  if (!text) return;
  const li = document.createElement("li");
  li.textContent = text;
  li.className = "new";
  $("todo-list").append(li);
  $("todo-input").value = "";
};
$("ask").onsubmit = (ev) => { ev.preventDefault(); const p = value("prompt"); if (p) { $("prompt").value = ""; send(p); } };
document.querySelector(".suggest").onclick = () => send("Add “Buy milk” to my list");

await init();
document.body.dataset.ready = "yes";
