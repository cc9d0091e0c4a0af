// A Worker using the package's workerd entry (CompiledWasm import + initSync, no nodejs_compat).
//   POST /start   runs until the relay call halts; answers with the pending RunResult (the state)
//   POST /resume  { state, results } resumes it (possibly in another isolate)
//   POST /live    the same run with waitFor resolved in-process
// With a STATE_SECRET binding the states are signed (stateSecret), WebCrypto in workerd.
import { createClient, createToolkit, defineTool, relayTool, relayCallsOf, relayAnswer } from "./pkg/workerd.js";

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$3 for ${item}` }),
  relayTool("click", "click in the tab", { type: "object", properties: { selector: { type: "string" } } }),
] });

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    const base = { baseUrl: env.MODEL_URL, style: env.STYLE, model: "scripted", apiKey: env.API_KEY, ...(env.STATE_SECRET && { stateSecret: env.STATE_SECRET }) };
    try {
      if (path === "/start") return Response.json(await createClient(base).run("#mixed", { toolkit: toolkit() }));
      if (path === "/resume") {
        const { state, results } = await request.json();
        const answer = relayAnswer(state.pending.id, results);
        return Response.json(await createClient(base).runWithAnswer({ toolkit: toolkit(), state, answer }));
      }
      if (path === "/live") {
        const waitFor = (req) => new Promise((resolve) => setTimeout(() => resolve(relayAnswer(req.id, relayCallsOf(req).map((c) => ({ id: c.id, output: `live ${c.input.selector}` })))), 5));
        return Response.json(await createClient({ ...base, waitFor }).run("#mixed", { toolkit: toolkit() }));
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: e.message, code: e.code }, { status: 500 });
    }
  },
};
