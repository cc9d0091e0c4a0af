// The Worker the browser test's useChat page talks to (tests/ui/browser.test.mjs): the scripted
// model in the Worker (demo/scripted-logic.mjs, copied beside it), a relay tool `click` the page
// answers, and `delete_file`, which needs the person's approval. A request whose body says
// `store: true` keeps the conversation in KV under the chat id (`sendState: false`): its halt is
// resumed from the Worker's store, not from the message.
import { createClient, createToolkit, defineTool, kvStore, relayTool } from "./pkg/workerd.js";
import { fromUIMessages, toUIMessageStreamResponse } from "./pkg/ui.js";
import { SCENARIOS, scriptedFetch } from "./scripted-logic.mjs";

const scenarios = {
  ...SCENARIOS,
  one: [{ calls: [["click", { selector: "#buy" }]] }, { text: "Done. {{results}}" }],
  approve: [{ calls: [["delete_file", { path: "/tmp/a" }]] }, { text: "Done. {{results}}" }],
};

export default {
  /** @param {Request} request @param {{ KV: any }} env */
  async fetch(request, env) {
    const deleted = [];
    const toolkit = createToolkit([
      relayTool("click", "Click an element in the user's tab", { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
      defineTool({ name: "delete_file", description: "Deletes a file", inputSchema: { type: "object", properties: { path: { type: "string" } } },
        needsApproval: true, run: async ({ path }) => {
          // Counted in KV: the test checks the tool ran once.
          await env.KV.put("deleted", String(Number((await env.KV.get("deleted")) ?? 0) + 1));
          deleted.push(path);
          return `deleted ${path}`;
        } }),
    ]);
    const { id, messages, store } = await request.json();
    const client = createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "k", retries: 0,
      fetch: scriptedFetch(scenarios), ...(store ? { store: kvStore(env.KV) } : {}) });
    const next = fromUIMessages(messages);
    if ("waiting" in next) return new Response(null, { status: 204 });
    if ("resume" in next) {
      const run = store ? client.streamWithAnswer({ toolkit, id, answer: next.resume.answer }) : client.streamWithAnswer({ toolkit, ...next.resume });
      return toUIMessageStreamResponse(run, { shown: next.shown, sendState: !store });
    }
    const run = store ? client.stream(next.prompt, { toolkit, id }) : client.stream(next.prompt, { toolkit, history: next.history });
    return toUIMessageStreamResponse(run, { sendState: !store });
  },
};
