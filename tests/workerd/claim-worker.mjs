// Two resumes of one halted conversation, served by one isolate (docs/decisions/resume-claim.md):
// the store is kvStore or durableObjectStore, the suspension an approval, a relay halt, a
// `pending()` tool or an MCP server's question. What the tools ran is counted here.
//   POST /halt { store, kind, id }   POST /answer { store, kind, id, method, pending }   POST /state { store, id }   GET /runs (the tools' runs, the model calls)
import { createClient, createToolkit, defineTool, pending, relayTool, relayAnswer, relayCallsOf, kvStore, durableObjectStore, ConversationObject } from "./pkg/workerd.js";
import { mcpTools } from "./pkg/mcp/workerd.js";

export { ConversationObject };

const runs = [];
let modelCalls = 0;
// Tools and the model take 30 ms: a turn is saved late enough for a second resume to load it halted.
const later = () => new Promise((r) => setTimeout(r, 30));

async function tools(kind, env) {
  if (kind === "approval") return [defineTool({ name: "pay", description: "pay", needsApproval: true, run: async () => (runs.push("pay"), await later(), "paid") })];
  if (kind === "relay") return [relayTool("click", "click", { type: "object" })];
  if (kind === "pending") {
    return [defineTool({ name: "confirm", description: "asks, then acts", run: async (_a, ctx) => (ctx.answer ? (runs.push("confirm"), await later(), "confirmed") : pending({ kind: "question", prompt: "Sure?" })) })];
  }
  return mcpTools({ server: "s", url: env.MCP_URL });
}
const CALL = { approval: ["pay", {}], relay: ["click", {}], pending: ["confirm", {}], mcp: ["s_greet", { greeting: "Hi" }] };

// The model: the kind's call, then a reply quoting the tool results.
const model = (kind) => async (_url, init) => {
  modelCalls++;
  await later();
  const { messages, stream } = JSON.parse(init.body);
  const results = messages.filter((m) => m.role === "tool").map((m) => m.content);
  const [name, args] = CALL[kind];
  const message = results.length
    ? { role: "assistant", content: "done: " + results.join("; ") }
    : { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } }] };
  const finish_reason = results.length ? "stop" : "tool_calls";
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if (!stream) return Response.json({ id: "x", object: "chat.completion", model: "m", choices: [{ index: 0, message, finish_reason }], usage });
  const delta = message.tool_calls ? { role: "assistant", tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) } : { role: "assistant", content: message.content };
  const chunks = [{ choices: [{ index: 0, delta }] }, { choices: [{ index: 0, delta: {}, finish_reason }] }, { choices: [], usage }];
  const text = chunks.map((c) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "m", ...c })}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
};

function answerTo(kind, p) {
  if (kind === "relay") return relayAnswer(p.id, relayCallsOf(p).map((c) => ({ id: c.id, output: "clicked" })));
  if (kind === "mcp") return { id: p.id, ok: true, data: { inputResponses: { who: { action: "accept", content: { name: "Ann" } } } } };
  return { id: p.id, ok: true };
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/runs") return Response.json({ runs, modelCalls });
    const body = await request.json();
    const store = body.store === "kv" ? kvStore(env.KV) : durableObjectStore(env.DO);
    const client = createClient({ baseUrl: "https://model.invalid/v1", style: "openai", model: "m", apiKey: "offline", fetch: model(body.kind), store });
    const toolkit = createToolkit({ tools: await tools(body.kind, env) });
    try {
      if (url.pathname === "/halt") return Response.json(await client.ask("go", { toolkit, id: body.id }));
      if (url.pathname === "/state") return Response.json((await store.get(body.id)) ?? null);
      const answer = answerTo(body.kind, body.pending); // as the host read it before answering
      if (body.method === "askWithAnswer") return Response.json(await client.askWithAnswer({ toolkit, id: body.id, answer }));
      let done;
      for await (const e of client.streamWithAnswer({ toolkit, id: body.id, answer })) if (e.type === "done") done = e.result;
      return Response.json(done);
    } catch (e) {
      return Response.json({ error: { code: e.code, message: e.message } }, { status: e.code === "conflict" ? 409 : 500 });
    } finally {
      client.free();
    }
  },
};
