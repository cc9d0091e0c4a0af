// A Cloudflare Worker that runs the toolnexus loop and keeps each run in Workers KV, so a run can
// halt on a relay call, or on an MCP server's question, in one request and resume in the next, in
// any isolate.
//
//   POST   /runs                 { prompt, style? }   start a run (add ?stream=1 for SSE events)
//   POST   /runs/:id/answer      { results } | { inputResponses } | { answer }   resume a halted run
//   DELETE /runs/:id                                   discard a run
//   GET    /runs/:id                                   the stored state
//
// Bindings: RUNS (a KV namespace), or RUNS_DO (a Durable Object namespace of the exported
// ConversationObject class) for runs that several clients may answer at once. With API_KEY (and
// BASE_URL, STYLE, MODEL) it calls a real provider; without one it uses the embedded scripted
// model, offline. With MCP_URL (and MCP_SERVER, the name, "mcp" by default) the tools of that
// MCP server join the run's.
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, kvStore, durableObjectStore, ConversationObject } from "toolnexus-wasm";
import { mcpTools } from "toolnexus-wasm/mcp";
import { scriptedFetch, SCENARIOS } from "../../demo/scripted-logic.mjs"; // the offline stand-in: drop it in your project

/**
 * The MCP server's tools (`<server>_<tool>`), or none without MCP_URL. The listing is kept in KV
 * (`mcp:<server>`, plain data), so the request that resumes a run — in another isolate, maybe
 * days later — rebuilds the tools without connecting: its only request to the server is the
 * call that carries the user's answer.
 */
async function mcp(env) {
  if (!env.MCP_URL) return [];
  const server = env.MCP_SERVER ?? "mcp";
  const kept = await env.RUNS?.get(`mcp:${server}`, "json");
  if (kept?.url === env.MCP_URL) return mcpTools(kept);
  const tools = await mcpTools({ server, url: env.MCP_URL });
  await env.RUNS?.put(`mcp:${server}`, JSON.stringify(tools.source));
  return tools;
}

const toolkit = async (env) => createToolkit({ tools: [
  ...(await mcp(env)),
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
  // "#greet" and "#survey" call tools of the MCP server that ask the user once and twice (the
  // 2026-07-28 test server in tests/mcp has them).
  const says = { text: "The MCP server says: {{results}}" };
  const scenarios = { ...SCENARIOS, greet: [{ calls: [["mcp_greet", { greeting: "Hello" }]] }, says], survey: [{ calls: [["mcp_survey", {}]] }, says] };
  return createClient({ baseUrl: s === "openai" ? "https://scripted.invalid/v1" : "https://scripted.invalid", style: s, model: `scripted-${s}`, apiKey: "offline", fetch: scriptedFetch(scenarios), store });
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
          const events = c.stream(b.prompt, { toolkit: await toolkit(env), id: runId });
          const res = sse(events);
          res.headers.set("x-run-id", runId);
          return res;
        }
        const r = await c.ask(b.prompt, { toolkit: await toolkit(env), id: runId });
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
        if (!b || (!Array.isArray(b.results) && typeof b.inputResponses !== "object" && typeof b.answer !== "object")) {
          return problem(400, "bad_request", "send { results: [{ id, output, isError? }] }, { inputResponses } or { answer }");
        }
        const input = state.pending.kind === "input";
        if (!b.answer && (input ? !b.inputResponses : !Array.isArray(b.results))) {
          return problem(409, "answer_mismatch", `run ${id} waits for ${input ? "{ inputResponses } (a question)" : "{ results } (relay calls)"}`);
        }
        // An MCP question (kind "input") is answered with the server's `inputResponses`; the
        // pending request's id carries what the server needs to go on, so it is echoed as stored.
        const answer = b.answer
          ?? (input ? { id: state.pending.id, ok: true, data: { inputResponses: b.inputResponses } } : relayAnswer(state.pending.id, b.results));
        const r = await client(env, state.style).askWithAnswer({ toolkit: await toolkit(env), id, answer });
        return json(r.status === "pending" ? 202 : 200, view(id, r));
      }
      return problem(405, "method_not_allowed", `${request.method} ${url.pathname}`);
    } catch (e) {
      const status = { bad_input: 400, answer_mismatch: 409, bad_state: 409, conversation_halted: 409, conflict: 409, provider_http: 502 }[e.code] ?? 500;
      return problem(status, e.code ?? "internal", e.message);
    }
  },
};
