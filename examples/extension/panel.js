// The side panel: sends prompts to the service worker, streams its events, and asks the person
// to approve each relay call before the content script performs it in the tab, and to answer an
// MCP server's questions (input-form.js). The conversation itself is read from
// chrome.storage.local (where the worker's store keeps it), so closing the panel or a worker
// restart loses nothing; Stop asks the worker to abort the run. With a Workflow backend set on
// the options page, the agent runs there instead (backend.js) and the panel answers its calls.
import { inputCard } from "./input-form.js";
import { RUN, follow, start, stop } from "./backend.js";
import { restoredLines } from "./transcript.mjs"; // demo/transcript.mjs, copied in beside pkg/ (scripts/copy-pkg.sh)

const $ = (id) => document.getElementById(id);
const chat = $("chat");
const CONVERSATION_KEY = "toolnexus:panel"; // chromeStorageStore's key for the conversation "panel"
const USAGE = "panel:usage";
// The tab the agent acts in: ?tab=<id> (tests), else the active tab of this window.
const fixedTab = Number(new URLSearchParams(location.search).get("tab")) || null;
async function targetTab() {
  if (fixedTab) return fixedTab;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id;
}

function add(cls, text) {
  $("empty").hidden = true;
  const div = document.createElement("div");
  div.className = `msg ${cls}`;
  div.textContent = text;
  chat.append(div);
  chat.scrollTop = chat.scrollHeight;
  return div;
}

/** The busy indicator: a label ("Thinking", "Waiting for you", …) and Stop, or nothing. */
function busy(label) {
  $("busy").hidden = !label;
  $("busy-label").textContent = label ?? "";
  $("prompt").disabled = Boolean(label);
  $("send").disabled = Boolean(label);
}

let port = null;
let streaming = null; // the assistant bubble being streamed into
// Messages sent while the worker was gone (an answer given just as Chrome stopped it), sent
// again once the next worker has been greeted.
const outbox = [];
function post(msg) {
  try {
    if (!port) throw new Error("not connected");
    port.postMessage(msg);
  } catch {
    outbox.push(msg);
  }
}
function connect() {
  const p = chrome.runtime.connect({ name: "panel" });
  p.onMessage.addListener(onMessage);
  // The worker may be stopped by Chrome at any time; reconnecting wakes a new one.
  p.onDisconnect.addListener(() => { port = null; setTimeout(connect, 200); });
  targetTab().then((tabId) => {
    p.postMessage({ type: "hello", tabId });
    port = p;
    for (const msg of outbox.splice(0)) post(msg);
  });
}

/** A tool's result as the panel shows it, live and in a restored conversation. */
const resultLine = (name, output, isError) => `← ${name}: ${output}${isError ? " (error)" : ""}`;

function onMessage(msg) {
  if (msg.type === "event") {
    const e = msg.event;
    if (e.type === "text") {
      // A child agent's text (`e.agent`, its path) is a bubble of its own, named by the agent
      // (panel.css): it is the child's report to its parent, not the answer.
      if (!streaming || streaming.dataset.agent !== e.agent) {
        streaming = add("assistant", "");
        if (e.agent) streaming.dataset.agent = e.agent;
      }
      streaming.textContent += e.delta;
    }
    if (e.type === "tool_call") { streaming = null; add("tool", `→ ${e.name}(${JSON.stringify(e.args)})`); }
    if (e.type === "tool_result") add("tool", resultLine(e.name, e.output, e.isError));
    if (e.type === "done") { streaming = null; document.body.dataset.status = e.result.status; if (e.result.status === "done") document.body.dataset.answer = e.result.text; }
  }
  if (msg.type === "busy" && !remote) busy(msg.label); // the worker is idle while a backend runs the agent
  if (msg.type === "usage") add("usage", msg.line);
  if (msg.type === "resuming") add("tool", "Resuming the run that was waiting for you…");
  if (msg.type === "approve") approval(msg.request, msg.calls);
  if (msg.type === "input") question(msg.request);
  if (msg.type === "answered") document.querySelectorAll(`.card[data-request="${CSS.escape(msg.requestId)}"]`).forEach((c) => c.remove());
  if (msg.type === "relay-result") {
    // What the browser action did, and the screenshot when one was taken.
    const line = add("tool", `✓ ${msg.call.name}: ${msg.result?.output ?? ""}${msg.result?.isError ? " (error)" : ""}`);
    for (const part of msg.result?.parts ?? []) {
      const src = part.url ?? (part.data && `data:${part.mediaType};base64,${part.data}`);
      if (part.type !== "image" || !/^data:image\/(png|jpeg);/.test(src ?? "")) continue;
      const img = document.createElement("img");
      img.src = src;
      img.alt = "the screenshot the agent took";
      img.className = "shot";
      line.append(img);
    }
  }
  if (msg.type === "error") {
    // A refused key's body is not in the error (it may echo the key): say what it means.
    const why = msg.code === "provider_http" && /\bLLM 40[13]\b/.test(msg.message) ? " · The provider refused the API key: check it in Settings." : "";
    add("error", `${msg.code ?? "error"}: ${msg.message}${why}`);
    document.body.dataset.status = "error";
  }
  if (msg.type === "stopped") {
    streaming = null;
    document.querySelectorAll(".card").forEach((c) => c.remove());
    add("notice", "Stopped. Every completed step is kept; send another message to go on.");
    document.body.dataset.status = "stopped";
  }
  if (msg.type === "reset") {
    chat.querySelectorAll(".msg, .card").forEach((el) => el.remove());
    $("empty").hidden = false;
    delete document.body.dataset.status;
  }
}

const asking = (calls) => `Allow the agent to ${calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join(", ")} in this tab? `;

/** A card that asks `text` with Allow and Decline; `decide(approved)` gets the choice. */
function card(id, text, decide) {
  document.querySelectorAll(`.card[data-request="${CSS.escape(id)}"]`).forEach((c) => c.remove());
  const div = document.createElement("div");
  div.className = "card";
  div.dataset.request = id;
  div.textContent = text;
  for (const [label, approved] of [["Allow", true], ["Decline", false]]) {
    const b = document.createElement("button");
    b.textContent = label;
    b.className = approved ? "allow" : "decline";
    b.onclick = () => { div.remove(); decide(approved); };
    div.append(b);
  }
  chat.append(div);
  chat.scrollTop = chat.scrollHeight;
  document.body.dataset.status = "waiting";
  return div;
}

function approval(request, calls) {
  // A child agent's calls name it (`path`, from the root down): the person sees who asks.
  const who = request.path?.length ? `(the ${request.path.map((s) => s.agent).join(" → ")} agent) ` : "";
  card(request.id, who + asking(calls), (approved) => post({ type: "decision", requestId: request.id, approved }));
}

/** An MCP server's question. A card already shown for it stays as it is, with whatever the
 * person has typed, when a new worker (after a restart) asks again. */
function question(request) {
  document.body.dataset.status = "waiting";
  if (document.querySelector(`.card[data-request="${CSS.escape(request.id)}"]`)) return;
  const card = inputCard(request, (answer) => post({ type: "answer", requestId: request.id, answer }));
  chat.append(card);
  chat.scrollTop = chat.scrollHeight;
  card.querySelector("input, select, a")?.focus();
}

/** The conversation as stored, shown when the panel opens: it outlives the panel and the worker. */
async function restore() {
  const { [CONVERSATION_KEY]: state, [USAGE]: usage = {} } = await chrome.storage.local.get([CONVERSATION_KEY, USAGE]);
  if (!state?.messages?.length) return;
  add("notice", "Earlier in this conversation");
  for (const [cls, text] of restoredLines(state, usage, resultLine)) add(cls, text);
}

// Backend mode: the agent is a Workflow instance on the backend; the panel follows it, asks the
// person about each waiting call and performs the allowed relay calls in the tab (backend.js).
let remote = null; // the AbortController of the instance being followed
const ui = {
  busy,
  ask: (s, signal) => new Promise((resolve) => {
    const text = s.kind === "tool_call" ? asking(s.data.calls)
      : s.kind === "approval" ? `Allow the agent to run ${s.data.name} ${JSON.stringify(s.data.arguments)}? ` : `${s.prompt}. Allow? `;
    const div = card(s.event, text, resolve);
    signal.addEventListener("abort", () => { div.remove(); resolve(false); }, { once: true });
  }),
  done: (call, r) => add("tool", `✓ ${call.name}: ${r.output}${r.isError ? " (error)" : ""}`),
};

async function followRemote(backend, run) {
  remote = new AbortController();
  document.body.dataset.status = "running";
  try {
    const s = await follow(backend, run.id, run.tabId, ui, remote.signal);
    if (!s) return;
    await chrome.storage.local.remove(RUN);
    if (s.status === "complete") {
      add("assistant", s.output?.text ?? "");
      document.body.dataset.answer = s.output?.text ?? "";
      document.body.dataset.status = "done";
    } else {
      add("error", `The agent ${s.status}: ${s.error?.message ?? s.error ?? "no reason given"}`);
      document.body.dataset.status = "error";
    }
  } catch (e) {
    add("error", `backend: ${e.message}`);
    document.body.dataset.status = "error";
  } finally {
    remote = null;
    busy(null);
  }
}

async function startRemote(backend, prompt, tabId) {
  try {
    const run = { id: await start(backend, prompt), tabId };
    await chrome.storage.local.set({ [RUN]: run });
    add("notice", `Started agent ${run.id} on the backend.`);
    await followRemote(backend, run);
  } catch (e) {
    add("error", `backend: ${e.message}`);
    document.body.dataset.status = "error";
    busy(null);
  }
}

$("ask").onsubmit = async (ev) => {
  ev.preventDefault();
  const prompt = $("prompt").value.trim();
  if (!prompt) return;
  $("prompt").value = "";
  add("user", prompt);
  streaming = null;
  document.body.dataset.status = "running";
  busy("Thinking");
  const { backend } = await chrome.storage.local.get("backend");
  if (backend?.url) return startRemote(backend, prompt, await targetTab());
  post({ type: "prompt", prompt, tabId: await targetTab() });
};
$("stop").onclick = async () => {
  if (!remote) return post({ type: "stop" });
  remote.abort();
  const { [RUN]: run, backend } = await chrome.storage.local.get([RUN, "backend"]);
  await chrome.storage.local.remove(RUN);
  try {
    // The instance ends on the backend too: nothing is left waiting for an answer.
    const s = run && backend?.url ? await stop(backend, run.id) : null;
    add("notice", `Stopped: the agent ${run?.id ?? ""} on the backend is ${s?.status ?? "no longer followed"}.`);
  } catch (e) {
    add("error", `backend: ${e.message} (the agent waits there until its calls expire)`);
  }
  document.body.dataset.status = "stopped";
};
$("reset").onclick = () => { remote?.abort(); chrome.storage.local.remove(RUN); post({ type: "reset" }); };
$("settings").onclick = () => chrome.runtime.openOptionsPage();
const showProvider = ({ provider, backend }) => {
  $("provider").textContent = backend?.url ? `Workflow backend · ${new URL(backend.url).host}`
    : provider?.apiKey ? `${provider.style} · ${provider.model}` : "scripted model (offline)";
};
const settings = () => chrome.storage.local.get(["provider", "backend"]);
settings().then(showProvider);
chrome.storage.onChanged.addListener((changes) => { if (changes.provider || changes.backend) settings().then(showProvider); });
await restore();
connect();
// An instance this panel (or an earlier one) started and did not see end: follow it again.
const { backend, [RUN]: run } = await chrome.storage.local.get(["backend", RUN]);
if (backend?.url && run) {
  add("notice", `Following agent ${run.id} on the backend…`);
  followRemote(backend, { ...run, tabId: fixedTab ?? run.tabId });
}
