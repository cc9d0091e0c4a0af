// The extension's service worker runs the loop. Relay tools (click, type, read_text, navigate) are
// executed by the content script in the target tab after the person approves them in the side
// panel. Conversations live in chrome.storage.local and are saved before every wait, so when
// Chrome stops this worker mid-run, the next worker picks the run up from storage.
import { init, createClient, createToolkit, relayTool, relayCallsOf, relayAnswer, chromeStorageStore } from "./pkg/index.js";
import { init as initMcp, mcpTools } from "./pkg/mcp/index.js";
import { scriptedFetch, SCENARIOS } from "./scripted-logic.mjs";

const ready = Promise.all([init(), initMcp()]); // no top-level await in service workers
const store = chromeStorageStore();
const CONVERSATION = "panel";

chrome.runtime.onInstalled.addListener(() => chrome.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: true }).catch(() => {}));
// Firefox has a sidebar instead of a side panel: the toolbar button toggles it (Chrome opens its
// panel itself, by the behaviour set above, and has no `browser`).
chrome.action.onClicked.addListener(() => globalThis.browser?.sidebarAction?.toggle());

/**
 * Tools of the MCP servers added on the options page (`mcpServers`: `{ server, url }` entries in
 * chrome.storage.local). Each server's listing is kept there too (`mcpSources`, plain data), so a
 * new worker rebuilds the tools without connecting; the session opens at the first call. A
 * server that cannot be reached is skipped (the panel is told).
 */
async function serverTools() {
  const { mcpServers = [], mcpSources = {} } = await chrome.storage.local.get(["mcpServers", "mcpSources"]);
  const all = [];
  for (const { server, url } of mcpServers) {
    try {
      const kept = mcpSources[server];
      const tools = await mcpTools(kept?.url === url ? kept : { server, url });
      if (kept?.url !== url) await chrome.storage.local.set({ mcpSources: { ...mcpSources, [server]: tools.source } });
      all.push(...tools);
    } catch (e) {
      send({ type: "error", code: e.code, message: `MCP server ${server}: ${e.message}` });
    }
  }
  return all;
}

const toolkit = async () => createToolkit({ tools: [
  ...(await serverTools()),
  relayTool("click", "Click the element matching a CSS selector in the user's tab", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
  relayTool("type", "Type text into the input matching a CSS selector", { type: "object", properties: { selector: { type: "string" }, text: { type: "string" } }, required: ["selector", "text"] }),
  // not "read": that name belongs to a builtin, and the collision guard refuses relay tools named after one
  relayTool("read_text", "Read the text of the element matching a CSS selector", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
  relayTool("navigate", "Open a URL in the user's tab", { type: "object", properties: { url: { type: "string" } }, required: ["url"] }),
] });

/** The provider: a key from the options page, or the embedded scripted model (offline). */
async function client() {
  const { provider } = await chrome.storage.local.get("provider"); // set by options.html; never in run state
  if (provider?.apiKey) return createClient({ baseUrl: provider.baseUrl, style: provider.style, model: provider.model, apiKey: provider.apiKey, store });
  // "#docs" asks the first tool of an MCP server named "docs" (added on the options page).
  const scenarios = { ...SCENARIOS, docs: [{ calls: [["docs_echo", { text: "from the extension" }]] }, { text: "The MCP server says: {{results}}" }] };
  return createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "offline", fetch: scriptedFetch(scenarios), store });
}

// The open panels' ports: Firefox has a sidebar per window, and the panel may be open in a tab too.
// They show the one conversation, so each of them sees every message.
const panels = new Set();
const approvals = new Map(); // request id → resolve

function send(msg) {
  for (const port of panels) {
    try { port.postMessage(msg); } catch { panels.delete(port); }
  }
}

const waiting = new Map(); // request id → the calls shown for approval (this worker's parked relays)
// Relay requests this worker has taken up, parked or being answered: the stored run still shows
// one as pending until its answer is saved, and a panel saying hello then must not resume it again.
const taken = new Set();

/** Runs each call of a relay request in the tab, after the person approved it in the panel. */
async function relay(request, tabId) {
  taken.add(request.id);
  waiting.set(request.id, relayCallsOf(request));
  send({ type: "approve", request, calls: relayCallsOf(request) });
  const approved = await new Promise((resolve) => approvals.set(request.id, resolve));
  waiting.delete(request.id);
  if (!approved) return { id: request.id, ok: false, reason: "declined" };
  const results = [];
  for (const call of relayCallsOf(request)) {
    let r;
    try {
      r = await chrome.tabs.sendMessage(tabId, { type: "relay-call", call });
    } catch (e) {
      r = { output: `the tab did not answer: ${e.message}`, isError: true };
    }
    results.push({ id: call.id, output: r?.output ?? "", isError: r?.isError === true });
    send({ type: "relay-result", call, result: r });
  }
  return relayAnswer(request.id, results);
}

/** Forwards a stream's events to the panel; resolves to the request it halted on, if any. The
 * halted state is in chrome.storage.local by the time `done` arrives. */
async function forward(events) {
  let halted = null;
  for await (const e of events) {
    send({ type: "event", event: e });
    if (e.type === "done" && e.result.status === "pending") halted = e.result.pending;
  }
  return halted;
}

/** Relay round trips until the run is done (or declined, or an error). */
async function continueFrom(c, halted, tabId) {
  while (halted) {
    const answer = await relay(halted, tabId);
    halted = await forward(c.streamWithAnswer({ toolkit: await toolkit(), id: CONVERSATION, answer }));
  }
}

async function run(prompt, tabId) {
  await ready;
  try {
    const c = await client();
    await continueFrom(c, await forward(c.stream(prompt, { toolkit: await toolkit(), id: CONVERSATION })), tabId);
  } catch (e) {
    send({ type: "error", code: e.code, message: e.message });
  }
}

/** A worker that starts while a run is halted continues it (Chrome stopped the previous one). */
async function resumeIfHalted(tabId) {
  await ready;
  const state = await store.get(CONVERSATION);
  if (!state?.pending) return;
  if (waiting.has(state.pending.id)) {
    send({ type: "approve", request: state.pending, calls: waiting.get(state.pending.id) }); // already parked here
    return;
  }
  if (taken.has(state.pending.id)) return; // approved, its answer on the way
  // Taken before the next await: every open panel says hello to a new worker (Firefox: a sidebar
  // per window), and one halted run must be resumed once.
  taken.add(state.pending.id);
  send({ type: "resuming", request: state.pending });
  try {
    await continueFrom(await client(), state.pending, tabId);
  } catch (e) {
    send({ type: "error", code: e.code, message: e.message });
  }
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== "panel") return;
  panels.add(port);
  port.onDisconnect.addListener(() => panels.delete(port));
  port.onMessage.addListener((msg) => {
    if (msg.type === "prompt") run(msg.prompt, msg.tabId);
    if (msg.type === "decision") approvals.get(msg.requestId)?.(msg.approved);
    if (msg.type === "hello") resumeIfHalted(msg.tabId);
    if (msg.type === "reset") store.delete(CONVERSATION).then(() => send({ type: "reset" }));
  });
});
