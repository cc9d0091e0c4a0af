import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
import { fromUIMessages, toUIMessageStreamResponse } from "toolnexus-wasm/ui";
// A tool of the user's tab: useChat's onToolCall runs it and answers with addToolOutput.
const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab",
  { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] })]);

export default {
  /** @param {Request} request @param {{ OPENAI_API_KEY?: string, OPENAI_BASE_URL?: string }} env */
  async fetch(request, env) {
    const client = createClient({ baseUrl: env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      style: "openai", model: "gpt-4o-mini", apiKey: env.OPENAI_API_KEY });
    const next = fromUIMessages((await request.json()).messages);
    if ("waiting" in next) return new Response(null, { status: 204 }); // more outputs to come
    if ("resume" in next) return toUIMessageStreamResponse(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown });
    return toUIMessageStreamResponse(client.stream(next.prompt, { toolkit, history: next.history }));
  },
};
