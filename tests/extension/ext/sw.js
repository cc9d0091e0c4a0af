// The test extension's service worker: the package's browser entry, conversations in
// chrome.storage.local. The test drives it through these globals.
import { init, createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, chromeStorageStore } from "./pkg/index.js";

const ready = init(); // no top-level await in service workers
const bootId = crypto.randomUUID(); // changes when Chrome restarts the worker
const store = chromeStorageStore();
const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$4 for ${item}` }),
  relayTool("click", "click in the tab", { type: "object", properties: { selector: { type: "string" } } }),
] });
const client = (cfg, extra = {}) => createClient({ baseUrl: cfg.baseUrl, style: cfg.style, model: "scripted", apiKey: "ext-secret", store, ...extra });

self.bootId = () => bootId;

/** Starts an ask whose relay call is parked (as if waiting for a content script). Resolves
 * once waitFor has been called, i.e. after the state was saved; the ask itself never ends. */
self.startParked = async (cfg) => {
  await ready;
  return new Promise((parked) => {
    const waitFor = (request) => { parked({ requestId: request.id, bootId }); return new Promise(() => {}); };
    client(cfg, { waitFor }).ask("#mixed", { toolkit: toolkit(), id: cfg.id }).catch(() => {});
  });
};

/** After a restart: answer the parked call from what chrome.storage.local holds. */
self.resumeParked = async (cfg) => {
  await ready;
  const state = await store.get(cfg.id);
  const results = relayCallsOf(state.pending).map((c) => ({ id: c.id, output: `clicked ${c.input.selector} after restart` }));
  const r = await client(cfg).askWithAnswer({ toolkit: toolkit(), id: cfg.id, answer: relayAnswer(state.pending.id, results) });
  return { status: r.status, text: r.text, bootId, stored: await store.get(cfg.id) };
};

/** Streams a follow-up in the same conversation. */
self.streamNext = async (cfg) => {
  await ready;
  let text = "";
  let status;
  for await (const e of client(cfg).stream("#hello", { toolkit: toolkit(), id: cfg.id })) {
    if (e.type === "text") text += e.delta;
    if (e.type === "done") status = e.result.status;
  }
  return { text, status };
};

/** Halts durably (no waitFor) on a relay call. */
self.startHalted = async (cfg) => {
  await ready;
  const r = await client(cfg).ask("#mixed", { toolkit: toolkit(), id: cfg.id });
  return { status: r.status };
};

/** Resumes the halted conversation from the worker; a lost race reports its error code. */
self.resumeFromWorker = async (cfg) => {
  await ready;
  // Both racers answer the request they saw halted (cfg.pending), read before either resumes.
  const answer = relayAnswer(cfg.pending.id, relayCallsOf(cfg.pending).map((c) => ({ id: c.id, output: "clicked by the worker" })));
  try {
    const r = await client(cfg).askWithAnswer({ toolkit: toolkit(), id: cfg.id, answer });
    return { status: r.status };
  } catch (e) {
    return { error: e.code };
  }
};

self.discard = async (cfg) => {
  await ready;
  await client(cfg).discard(cfg.id);
  return (await store.get(cfg.id)) ?? null;
};

// Extension pages drive the worker by message: { cmd, cfg } calls self[cmd](cfg). A message is
// also what makes Chrome start a stopped worker again.
chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  if (!msg.cmd) {
    reply({ bootId });
    return false;
  }
  Promise.resolve(self[msg.cmd](msg.cfg)).then((value) => reply({ value }), (e) => reply({ error: `${e.code ?? ""} ${e.message}` }));
  return true; // the reply comes later
});
