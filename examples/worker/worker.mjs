// A Cloudflare Worker that runs the toolnexus loop and keeps each run in Workers KV, so a run can
// halt on a relay call in one request and resume in the next, in any isolate.
//
//   POST   /runs                 { prompt, style? }   start a run (add ?stream=1 for SSE events)
//   POST   /runs/:id/answer      { results } | { answer }   resume a halted run
//   DELETE /runs/:id                                   discard a run
//   GET    /runs/:id                                   the stored state
//
// Bindings: RUNS (a KV namespace), or RUNS_DO (a Durable Object namespace of the exported
// ConversationObject class) for runs that several clients may answer at once. With API_KEY (and
// BASE_URL, STYLE, MODEL) it calls a real provider; without one it uses the embedded scripted
// model, offline.
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, kvStore, durableObjectStore, ConversationObject } from "./pkg/workerd.js";
import { scriptedFetch } from "./scripted-logic.mjs";

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "Look up the price of an item",
    inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    run: async ({ item }) => ({ "blue mug": "$12.50", "red mug": "$9.90" })[item] ?? `no price for ${item}` }),
  relayTool("click", "Click an element in the user's browser (done by the caller)",
    { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] }),
] });

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const problem = (status, code, message) => json(status, { error: { code, message } });

export { ConversationObject };

/** Durable Objects when bound (atomic revision checks), else KV. */
const storeOf = (env) => (env.RUNS_DO ? durableObjectStore(env.RUNS_DO) : kvStore(env.RUNS, { prefix: "run:" }));

function client(env, style) {
  const store = storeOf(env);
  if (env.API_KEY) {
    return createClient({ baseUrl: env.BASE_URL, style: env.STYLE ?? "openai", model: env.MODEL ?? "gpt-4o-mini", apiKey: env.API_KEY, store });
  }
  const s = style ?? "openai";
  return createClient({ baseUrl: s === "openai" ? "https://scripted.invalid/v1" : "https://scripted.invalid", style: s, model: `scripted-${s}`, apiKey: "offline", fetch: scriptedFetch(), store });
}

/** A run's result as the API shows it. */
const view = (id, r) => ({ id, status: r.status, text: r.text, pending: r.pending, toolCalls: r.toolCalls, usage: r.usage });

function sse(events) {
  const enc = new TextEncoder();
  return new Response(new ReadableStream({
    async start(controller) {
      try {
        for await (const e of events) controller.enqueue(enc.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
      } catch (e) {
        controller.enqueue(enc.encode(`event: error\ndata: ${JSON.stringify({ code: e.code, message: e.message })}\n\n`));
      }
      controller.close();
    },
  }), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

async function body(request) {
  try { return await request.json(); } catch { return undefined; }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const [, root, id, action] = url.pathname.split("/");
    if (root !== "runs") return problem(404, "not_found", `no route for ${url.pathname}`);
    try {
      if (request.method === "POST" && !id) {
        const b = await body(request);
        if (typeof b?.prompt !== "string" || !b.prompt) return problem(400, "bad_request", "send { prompt }");
        const runId = crypto.randomUUID();
        const c = client(env, b.style);
        if (url.searchParams.get("stream") === "1") {
          const events = c.stream(b.prompt, { toolkit: toolkit(), id: runId });
          const res = sse(events);
          res.headers.set("x-run-id", runId);
          return res;
        }
        const r = await c.ask(b.prompt, { toolkit: toolkit(), id: runId });
        return json(r.status === "pending" ? 202 : 200, view(runId, r));
      }
      if (!id) return problem(405, "method_not_allowed", `${request.method} /runs`);
      const store = storeOf(env);
      const state = await store.get(id);
      if (!state) return problem(404, "not_found", `no run ${id}`);
      if (request.method === "GET" && !action) return json(200, { id, ...state });
      if (request.method === "DELETE" && !action) {
        await client(env, state.style).discard(id);
        return new Response(null, { status: 204 });
      }
      if (request.method === "POST" && action === "answer") {
        if (!state.pending) return problem(409, "not_halted", `run ${id} is not waiting for an answer`);
        const b = await body(request);
        if (!b || (!Array.isArray(b.results) && typeof b.answer !== "object")) return problem(400, "bad_request", "send { results: [{ id, output, isError? }] } or { answer }");
        const answer = b.answer ?? relayAnswer(state.pending.id, b.results);
        const r = await client(env, state.style).askWithAnswer({ toolkit: toolkit(), id, answer });
        return json(r.status === "pending" ? 202 : 200, view(id, r));
      }
      return problem(405, "method_not_allowed", `${request.method} ${url.pathname}`);
    } catch (e) {
      const status = { bad_input: 400, answer_mismatch: 409, bad_state: 409, conversation_halted: 409, conflict: 409, provider_http: 502 }[e.code] ?? 500;
      return problem(status, e.code ?? "internal", e.message);
    }
  },
};
