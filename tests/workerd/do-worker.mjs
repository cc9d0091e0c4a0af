// A Worker keeping conversations in Durable Objects (durableObjectStore + ConversationObject).
//   POST /ask { id, prompt }   POST /answer { id, pending, who }   GET /state?id=
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, durableObjectStore, ConversationObject } from "./pkg/workerd.js";
import { scriptedFetch } from "./scripted-logic.mjs";

export { ConversationObject };

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", run: async () => "$5" }),
  relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } }),
] });

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const store = durableObjectStore(env.CONVERSATIONS);
    // The model answers after 50 ms, so two resumes started together both load the halted state
    // before either saves: a real race.
    const slow = async (u, i) => { await new Promise((r) => setTimeout(r, 50)); return scriptedFetch()(u, i); };
    const client = createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "offline", fetch: slow, store });
    try {
      if (url.pathname === "/state") return Response.json((await store.get(url.searchParams.get("id"))) ?? null);
      const body = await request.json();
      if (url.pathname === "/ask") return Response.json(await client.ask(body.prompt, { toolkit: toolkit(), id: body.id }));
      if (url.pathname === "/answer") {
        const { pending } = body; // as the host read it before answering
        const answer = relayAnswer(pending.id, relayCallsOf(pending).map((c) => ({ id: c.id, output: `clicked by ${body.who}` })));
        return Response.json(await client.askWithAnswer({ toolkit: toolkit(), id: body.id, answer }));
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: { code: e.code, message: e.message } }, { status: e.code === "conflict" ? 409 : 500 });
    }
  },
};
