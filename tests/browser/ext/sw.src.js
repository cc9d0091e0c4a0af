// The test extension's service worker (bundled by tests/browser/kit.test.mjs with esbuild, the
// package imported by name): the scripted model drives toolnexus-wasm/browser in a tab. Runs
// halt durably in chrome.storage.local (no waitFor); each relay request is answered by the kit,
// whose approvals follow the test's policy: "allow", "decline", or "hold" (wait for a decision
// that may never come in this worker: the test stops it meanwhile).
import { createClient, createToolkit, chromeStorageStore, ToolnexusError } from "toolnexus-wasm";
import { browserTools } from "toolnexus-wasm/browser";
import { scriptedFetch, SCENARIOS } from "./scripted-logic.mjs";

const bootId = crypto.randomUUID();
const store = chromeStorageStore();
let made;
const client = () => (made ??= createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "offline", fetch: scriptedFetch(SCENARIOS), store }));
const held = [];

const kitFor = (cfg) => browserTools({ tabId: cfg.tabId }, { origins: cfg.origins ?? ["http://127.0.0.1:*"], ...(cfg.kit ?? {}) });
// The page's tools are listed again at every turn boundary (each ask / askWithAnswer).
const toolkit = async (kit) => createToolkit([...kit.tools, ...(await kit.pageTools())]);

async function drive(r, cfg, kit, asked) {
  while (r.status === "pending") {
    const answer = await kit.answerBrowserCall(r.pending, {
      approve: async (asks) => {
        asked.push(...asks.map((a) => ({ name: a.name, element: a.element, origin: a.origin, input: a.input })));
        if (cfg.policy === "hold") return new Promise((resolve) => held.push({ asks, resolve }));
        return cfg.policy === "allow" || (cfg.policy === "allow-page" && asks.every((a) => a.pageTool));
      },
    });
    r = await client().askWithAnswer({ toolkit: await toolkit(kit), id: cfg.id, answer });
  }
  const state = await store.get(cfg.id);
  const results = (state?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
  return { status: r.status, text: r.text, asked, results, bootId };
}

const commands = {
  wake: async () => ({ bootId }),
  async run(cfg) {
    const kit = kitFor(cfg);
    await store.delete(cfg.id).catch(() => {});
    const asked = [];
    const r = await client().ask(cfg.prompt, { toolkit: await toolkit(kit), id: cfg.id });
    const done = drive(r, cfg, kit, asked);
    if (!cfg.background) return done;
    done.catch(() => {});
    return { started: true, bootId };
  },
  /** A new worker goes on with a halted run from the store. */
  async resume(cfg) {
    const state = await store.get(cfg.id);
    if (!state?.pending) return { status: "not halted", bootId };
    return drive({ status: "pending", pending: state.pending }, cfg, kitFor(cfg), []);
  },
  held: async () => held.map((h) => h.asks.map((a) => a.name)),
  /** One call outside a run: its result, or the ToolnexusError's code and message. */
  async call(cfg) {
    try {
      return { ok: true, ...(await kitFor(cfg).run(cfg.name, cfg.input)) };
    } catch (e) {
      return { ok: false, isToolnexusError: e instanceof ToolnexusError, code: e.code, message: e.message };
    }
  },
  async tools(cfg) {
    const kit = kitFor(cfg);
    return { tools: kit.tools.map((t) => t.name), pageTools: (await kit.pageTools()).map((t) => ({ name: t.name, description: t.description })) };
  },
};

chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  const f = commands[msg?.cmd];
  if (!f) return false;
  f(msg.cfg ?? {}).then((value) => reply({ value }), (e) => reply({ error: `${e?.message ?? String(e)}`, code: e?.code }));
  return true;
});
