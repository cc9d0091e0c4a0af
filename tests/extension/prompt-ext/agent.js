// What the page and the service worker both run: the scripted LanguageModel installed for a
// scenario (as a fresh worker would find Chrome's), promptApi, and an ask on "click #a, #b and #c"
// that halts durably on three parallel relay calls, or is answered in place by waitFor.
import { init, createClient, createToolkit, relayTool, relayAnswer, relayCallsOf, chromeStorageStore } from "./pkg/index.js";
import { promptApi } from "./pkg/prompt-api.js";
import { installFakeLanguageModel } from "./fake-language-model.mjs";

const ready = init();
export const bootId = crypto.randomUUID();
const store = chromeStorageStore();
const PROMPT = "#three-clicks click #a, #b and #c"; // the fake's regex and the scripted server's scenario
const toolkit = () => createToolkit([relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] })]);
let log;

/** "native": tool use on; "constrained": LanguageModel without tool use; "fallback": no
 * LanguageModel; "real": Chrome's own (the manual recipe in docs/decisions/prompt-api.md). */
function install(scenario) {
  if (scenario == "real") return;
  for (const k of ["LanguageModel", "LanguageModelToolCall", "LanguageModelToolSuccess", "LanguageModelToolError"]) delete globalThis[k];
  log = scenario == "fallback" ? undefined : installFakeLanguageModel({ toolUse: scenario == "native" });
}

async function client(cfg, extra = {}) {
  await ready;
  install(cfg.scenario);
  const model = await promptApi({ mode: cfg.scenario == "fallback" || cfg.scenario == "real" ? "auto" : cfg.scenario, fallback: { style: "openai", baseUrl: cfg.fallbackUrl, model: "scripted", apiKey: "ext-secret" } });
  return { mode: model.mode, client: createClient({ ...model, store, systemPrompt: "You operate the tab.", ...extra }) };
}

const answer = (req, by) => relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: `clicked ${c.input.selector} ${by}` })));

export const commands = {
  bootId: async () => bootId,
  /** Answered in place: waitFor gets the three calls at once. */
  async inPlace(cfg) {
    const { mode, client: c } = await client(cfg, { waitFor: async (req) => answer(req, "in place") });
    const r = await c.run(PROMPT, { toolkit: toolkit() });
    return { mode, status: r.status, text: r.text, prompts: log?.prompts.length };
  },
  /** Halts durably; the state is in chrome.storage.local. */
  async halt(cfg) {
    const { mode, client: c } = await client(cfg);
    const r = await c.ask(PROMPT, { toolkit: toolkit(), id: cfg.id });
    return { mode, status: r.status, selectors: relayCallsOf(r.pending).map((x) => x.input.selector), bootId };
  },
  /** In a (fresh) worker: the session rebuilt from the stored transcript. */
  async resume(cfg) {
    const { mode, client: c } = await client(cfg);
    const state = await store.get(cfg.id);
    const r = await c.askWithAnswer({ toolkit: toolkit(), id: cfg.id, answer: answer(state.pending, "after restart") });
    return { mode, status: r.status, text: r.text, bootId, initialPrompts: log?.creates[0]?.initialPrompts.length };
  },
};
