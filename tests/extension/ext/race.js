// An extension page that resumes the same halted conversation as the service worker, to race it.
import { init, createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, chromeStorageStore } from "./pkg/index.js";

const store = chromeStorageStore();
const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$4 for ${item}` }),
  relayTool("click", "click in the tab", { type: "object", properties: { selector: { type: "string" } } }),
] });

window.resumeFromPage = async (cfg) => {
  await init();
  // Both racers answer the request they saw halted (cfg.pending), read before either resumes.
  const answer = relayAnswer(cfg.pending.id, relayCallsOf(cfg.pending).map((c) => ({ id: c.id, output: "clicked by the page" })));
  try {
    const r = await createClient({ baseUrl: cfg.baseUrl, style: cfg.style, model: "scripted", apiKey: "ext-secret", store }).askWithAnswer({ toolkit: toolkit(), id: cfg.id, answer });
    return { status: r.status };
  } catch (e) {
    return { error: e.code };
  }
};
document.title = "race ready";
