// The extension's service worker runs the loop. The tab's tools come from toolnexus-wasm/browser
// (a snapshot with refs, click, type, read, navigate, screenshot, the page's own WebMCP tools):
// the kit runs their calls in the target tab, after the person approves those that act (and
// reads) in the side panel; an MCP server's question (a `kind: "input"` suspension) is answered there in a form.
// Conversations live in chrome.storage.local and are saved before every wait, so when
// Chrome stops this worker mid-run, the next worker picks the run up from storage. The panel's
// Stop aborts the run in progress (its `signal`); the panel reads the conversation from storage
// itself, so it shows it again after being closed or after a worker restart.
import { init, createClient, createToolkit, relayCallsOf, chromeStorageStore } from "./pkg/index.js";
import { init as initMcp, mcpTools } from "./pkg/mcp/index.js";
import { agentTool } from "./pkg/agents.js";
import { browserTools } from "./pkg/browser.js";
import { chromeStorageBlobs, withBlobs } from "./pkg/blobs.js";
import { scriptedFetch, SCENARIOS } from "./scripted-logic.mjs";

const ready = Promise.all([init(), initMcp()]); // no top-level await in service workers
// Screenshots and other large values are kept once each, as blobs beside the conversation, so
// the conversation a worker reads and writes at every step stays small.
const store = withBlobs(chromeStorageStore(), chromeStorageBlobs());
const CONVERSATION = "panel";
const USAGE = "panel:usage"; // prompt number → the usage line of its turn, for the panel to show again

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

// The tab's tools (toolnexus-wasm/browser), for the agent itself and for the browsing agent it may
// delegate to. Acting tools ask by the kit's defaults; reading the page's text asks too here, as
// this panel always has (the snapshot does not: it is how the model finds what to act on).
const browserKit = (tabId) => browserTools(tabId ? { tabId } : { activeTab: true }, { approval: { read_text: true } });
const tabTools = () => browserKit().tools;

// A delegating agent: the model may hand a task to `browser`, a child agent with its own prompt,
// the tab's tools and the MCP servers' tools (`mcp`). Its suspensions reach this worker as the
// run's own (with `pending.path` naming the agent): its relay calls are approved in the panel and
// act in the tab, an MCP server's question to it is a form there. The child's transcript is kept
// in the halted run, so a new worker resumes the child where it stopped.
const browser = (mcp) => agentTool({
  name: "browser",
  description: "Hand a task in the user's tab to the browsing agent, which types, clicks and reads there, uses the MCP servers' tools and reports back",
  systemPrompt: "You operate the user's browser tab with your tools and report what you did and saw.",
  tools: [...mcp, ...tabTools()],
});

// The servers' tools are made once per toolkit, for the agent and its child alike.
// The page's own tools are listed again at each turn boundary (every toolkit a run step is given).
async function toolkit(tabId) {
  const mcp = await serverTools();
  const page = tabId ? await browserKit(tabId).pageTools().catch(() => []) : [];
  return createToolkit({ tools: [...mcp, ...tabTools(), ...page, browser(mcp)] });
}

/** The provider: a key from the options page, or the embedded scripted model (offline). */
async function client() {
  const { provider } = await chrome.storage.local.get("provider"); // set by options.html; never in run state
  if (provider?.apiKey) {
    // Anthropic refuses a call that carries an Origin (an extension's does) unless it opts in
    // with this header; the key is the person's own, kept in this extension.
    const headers = provider.style === "anthropic" ? { "anthropic-dangerous-direct-browser-access": "true" } : undefined;
    return createClient({ baseUrl: provider.baseUrl, style: provider.style, model: provider.model, apiKey: provider.apiKey, headers, store });
  }
  // Paced like a model typing, so the panel's busy indicator and Stop have something to show.
  // "#docs", "#book" and "#link" call tools of an MCP server named "docs" (added on the options
  // page): an echo, one that asks with a form, one that asks the person to visit a page.
  const says = { text: "The MCP server says: {{results}}" };
  // "#form" and "#screenshot" play the browser kit's scenarios (a snapshot, then acts by ref).
  const scenarios = { ...SCENARIOS, form: SCENARIOS["browser-form"], screenshot: SCENARIOS["browser-screenshot"], docs: [{ calls: [["docs_echo", { text: "from the extension" }]] }, says],
    book: [{ calls: [["docs_book", {}]] }, says], link: [{ calls: [["docs_connect", {}]] }, says],
    // The delegating agent: the browsing child plays "#form" in the tab and reports back; with
    // "#delegate-book" it plays "#book", and the MCP server's question is the child's.
    delegate: [{ calls: [["browser", { prompt: "#form" }]] }, { text: "The browser agent reports: {{last}}" }],
    "delegate-book": [{ calls: [["browser", { prompt: "#book" }]] }, { text: "The browser agent reports: {{last}}" }] };
  return createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "offline", fetch: scriptedFetch(scenarios, { delayMs: 15 }), store });
}

// The open panels' ports: Firefox has a sidebar per window, and the panel may be open in a tab too.
// They show the one conversation, so each of them sees every message.
const panels = new Set();
const approvals = new Map(); // request id → resolve
// Decisions that came before this worker parked their request: a panel whose answer was given
// as Chrome stopped the last worker sends it to the next one, which may still be reading the
// halted run from storage.
const early = new Map(); // request id → the decision
function decide(requestId, value) {
  if (approvals.has(requestId)) approvals.get(requestId)(value);
  else if (typeof requestId === "string") early.set(requestId, value);
}

function send(msg) {
  for (const port of panels) {
    try { port.postMessage(msg); } catch { panels.delete(port); }
  }
}

const waiting = new Map(); // request id → the message that shows it in a panel (this worker's parked requests)
// Requests this worker has taken up, parked or being answered: the stored run still shows
// one as pending until its answer is saved, and a panel saying hello then must not resume it again.
const taken = new Set();

// The run in progress (one conversation, one run at a time): its AbortController, which Stop
// aborts, and what the panel's busy indicator says.
let current = null;
let busyLabel = null;
function busy(label) {
  busyLabel = label;
  send({ type: "busy", label });
}

/** Shows `request` in the panels (`shown`, the message that draws it) and waits for the person's
 * decision; throws if the run is stopped meanwhile. */
async function park(request, shown, signal) {
  taken.add(request.id);
  let value;
  if (early.has(request.id)) {
    value = early.get(request.id);
    early.delete(request.id);
  } else {
    waiting.set(request.id, shown);
    send(shown);
    busy("Waiting for you");
    value = await new Promise((resolve) => {
      approvals.set(request.id, resolve);
      signal.addEventListener("abort", () => resolve(null), { once: true });
    });
    approvals.delete(request.id);
    waiting.delete(request.id);
  }
  signal.throwIfAborted();
  send({ type: "answered", requestId: request.id }); // every other open panel drops its card
  return value;
}

/** Runs the calls of a relay request in the tab (the browser kit), after the person approved
 * those that ask in the panel. A new worker answering the same request asks only about calls
 * not decided yet and never runs one twice (the kit's journal). */
async function relay(request, tabId, signal) {
  busy("Acting in the tab");
  const answer = await browserKit(tabId).answerBrowserCall(request, {
    signal,
    approve: async (asks) => {
      const approved = await park(request, { type: "approve", request, calls: asks.map((a) => a.call) }, signal);
      busy(approved ? "Acting in the tab" : "Thinking");
      return approved === true;
    },
  });
  const results = answer.data?.results ?? [];
  for (const call of relayCallsOf(request)) send({ type: "relay-result", call, result: results.find((r) => r.id === call.id) });
  busy("Thinking");
  return answer;
}

/**
 * An MCP server's question (`kind: "input"`): the panel shows it as a form (or a link, in URL
 * mode) and sends `{ ok, data?, reason? }`; the answer goes back under the request's own id,
 * which carries what the server needs to go on. The run is halted in storage meanwhile, so a
 * new worker asks again after a restart and the panel keeps the form it shows.
 */
async function answerInput(request, signal) {
  const a = await park(request, { type: "input", request }, signal);
  busy("Thinking");
  const responses = a?.data?.inputResponses;
  if (a?.ok === true && responses && typeof responses === "object") return { id: request.id, ok: true, data: { inputResponses: responses } };
  return { id: request.id, ok: false, reason: a?.reason === "cancelled" ? "cancelled" : "declined" };
}

/** Forwards a stream's events to the panel; resolves to its result. The halted state is in
 * chrome.storage.local by the time `done` arrives. */
async function forward(events, total) {
  let result = null;
  for await (const e of events) {
    send({ type: "event", event: e });
    if (e.type === "done") result = e.result;
  }
  total.turns += result.turns;
  for (const k of ["promptTokens", "completionTokens", "totalTokens"]) total[k] += result.usage[k];
  return result;
}

/** How many prompts of the person's a stored transcript holds, in any dialect. */
const prompts = (messages) => messages.filter((m) => m.role === "user" &&
  (typeof m.content === "string" || (Array.isArray(m.content) && m.content.some((b) => b.type === "text")) || m.parts?.some((p) => p.text))).length;

/** Relay round trips and questions until the run is done (or declined, or stopped). */
async function continueFrom(c, result, tabId, signal, total) {
  while (result.status === "pending") {
    const p = result.pending;
    const answer = p.kind === "input" ? await answerInput(p, signal) : await relay(p, tabId, signal);
    result = await forward(c.streamWithAnswer({ toolkit: await toolkit(tabId), id: CONVERSATION, answer, signal }), total);
  }
  const line = `${total.turns} model call${total.turns === 1 ? "" : "s"} · ${total.totalTokens} tokens (${total.promptTokens} in, ${total.completionTokens} out)`;
  // Kept under the number of the prompt it answered (a stopped prompt has none).
  const n = prompts((await store.get(CONVERSATION))?.messages ?? []);
  const { [USAGE]: usage = {} } = await chrome.storage.local.get(USAGE);
  await chrome.storage.local.set({ [USAGE]: { ...usage, [n]: line } });
  send({ type: "usage", line });
}

/** One run in progress at a time: `work(client, signal, total)` under a fresh AbortController. A
 * stopped run leaves the conversation at its last saved step; a turn halted on a relay call is
 * closed as declined, so the next prompt continues from it. */
async function guarded(work) {
  await ready;
  if (current) return send({ type: "error", code: "busy", message: "the agent is still working on the previous message" });
  const controller = (current = new AbortController());
  busy("Thinking");
  let c;
  try {
    c = await client();
    await work(c, controller.signal, { turns: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  } catch (e) {
    if (!controller.signal.aborted) send({ type: "error", code: e.code, message: e.message });
  } finally {
    current = null;
    busy(null);
  }
  if (controller.signal.aborted) {
    try {
      if ((await store.get(CONVERSATION))?.pending) await c?.discard(CONVERSATION, { keepHistory: true });
    } catch {}
    send({ type: "stopped" });
  }
}

function run(prompt, tabId) {
  return guarded(async (c, signal, total) => {
    const first = await forward(c.stream(prompt, { toolkit: await toolkit(tabId), id: CONVERSATION, signal }), total);
    await continueFrom(c, first, tabId, signal, total);
  });
}

/** A worker that starts while a run is halted continues it (Chrome stopped the previous one). */
async function resumeIfHalted(tabId) {
  await ready;
  send({ type: "busy", label: busyLabel }); // what a panel that just opened should show
  const state = await store.get(CONVERSATION);
  if (!state?.pending) return;
  if (waiting.has(state.pending.id)) {
    send(waiting.get(state.pending.id)); // already parked here
    return;
  }
  if (taken.has(state.pending.id)) return; // approved, its answer on the way
  // Taken before the next await: every open panel says hello to a new worker (Firefox: a sidebar
  // per window), and one halted run must be resumed once.
  taken.add(state.pending.id);
  send({ type: "resuming", request: state.pending });
  await guarded((c, signal, total) => continueFrom(c, { status: "pending", pending: state.pending }, tabId, signal, total));
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== "panel") return;
  panels.add(port);
  port.onDisconnect.addListener(() => panels.delete(port));
  port.onMessage.addListener((msg) => {
    if (msg.type === "prompt") run(msg.prompt, msg.tabId);
    if (msg.type === "decision") decide(msg.requestId, msg.approved);
    if (msg.type === "answer") decide(msg.requestId, msg.answer);
    if (msg.type === "hello") resumeIfHalted(msg.tabId);
    if (msg.type === "stop") current?.abort(new DOMException("Stopped by you", "AbortError"));
    if (msg.type === "reset") {
      current?.abort();
      Promise.all([store.delete(CONVERSATION), chrome.storage.local.remove(USAGE)]).then(() => send({ type: "reset" }));
    }
  });
});
