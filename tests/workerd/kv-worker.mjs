// A Worker that keeps conversations in Workers KV through kvStore (workerd entry, no
// nodejs_compat). Each request is a fresh client, as in production.
//   POST /ask     { id, prompt }          ask (halts on the relay call: no waitFor)
//   POST /answer  { id, results }         askWithAnswer, pending read from KV
//   POST /stream  { id, prompt }          stream with the conversation in KV; answers the events
//   POST /discard { id }                  drops the conversation
//   GET  /state?id=…                      the stored ConversationState
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, kvStore } from "./pkg/workerd.js";

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$3 for ${item}` }),
  relayTool("click", "click in the tab", { type: "object", properties: { selector: { type: "string" } } }),
] });

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const store = kvStore(env.CONVERSATIONS, { prefix: "chat:" });
    const client = createClient({ baseUrl: env.MODEL_URL, style: env.STYLE, model: "scripted", apiKey: env.API_KEY, store });
    try {
      if (url.pathname === "/state") return Response.json((await store.get(url.searchParams.get("id"))) ?? null);
      const body = await request.json();
      if (url.pathname === "/ask") return Response.json(await client.ask(body.prompt, { toolkit: toolkit(), id: body.id }));
      if (url.pathname === "/answer") {
        const { pending } = await store.get(body.id);
        return Response.json(await client.askWithAnswer({ toolkit: toolkit(), id: body.id, answer: relayAnswer(pending.id, body.results) }));
      }
      if (url.pathname === "/discard") {
        await client.discard(body.id);
        return Response.json({ discarded: body.id });
      }
      if (url.pathname === "/stream") {
        const events = [];
        for await (const e of client.stream(body.prompt, { toolkit: toolkit(), id: body.id })) events.push(e.type === "done" ? { type: "done", status: e.result.status } : e);
        return Response.json(events);
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: e.message, code: e.code }, { status: 500 });
    }
  },
};
