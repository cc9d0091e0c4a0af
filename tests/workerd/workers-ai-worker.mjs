// A Worker whose model is Workers AI through toolnexus-wasm/workers-ai, for
// tests/workerd/workers-ai.test.mjs. `env.AI` is a stand-in that replays answers recorded for
// one model family (fixtures.mjs, a copy of workers-ai-fixtures.mjs); it keeps no state between
// calls (the turn is read from the messages), as a fresh isolate would see the real binding.
//   POST /loop   { family, stream }           a three-turn run, both tools in the Worker
//   POST /ask    { family, stream, id }       the same with `click` a relay tool: halts, kept in KV
//   POST /answer { family, id, output }       the halted run resumed from KV
//   POST /start  { family, id }               an agent Workflow instance (parks on `click`)
//   GET  /open?id=…, POST /send?id=…, GET /status?id=…   its suspension, its answer, its status
import { WorkflowEntrypoint } from "cloudflare:workers";
import { createClient, createToolkit, defineTool, relayTool, relayAnswer, kvStore } from "./pkg/workerd.js";
import { runInWorkflow, answerEvent } from "./pkg/workflows/workerd.js";
import { workersAI } from "./pkg/workers-ai.js";
import { families, recordedAI } from "./fixtures.mjs";

const runs = [];
const weather = defineTool({ name: "get_weather", description: "Weather in a city", inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, run: async ({ location }) => { runs.push(`get_weather ${location}`); return `18°C in ${location}`; } });
const click = defineTool({ name: "click", description: "Click an element", inputSchema: { type: "object", properties: { selector: { type: "string" } } }, run: async ({ selector }) => { runs.push(`click ${selector}`); return `clicked ${selector}`; } });
const relayClick = relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } } });
const model = (ai, family) => workersAI(ai, { model: families[family].model, gateway: { id: "test-gateway" } });

export class Agent extends WorkflowEntrypoint {
  async run(event, step) {
    const ai = recordedAI(event.payload.family);
    return runInWorkflow(step, {
      client: { ...model(ai, event.payload.family), systemPrompt: "Be brief." },
      tools: [weather, relayClick],
      prompt: "Weather in London, then buy.",
      waitTimeout: "1 hour",
      onSuspend: (s) => this.env.OPEN.put(`${event.instanceId}/${s.event}`, JSON.stringify(s)),
      onResolve: (s) => this.env.OPEN.delete(`${event.instanceId}/${s.event}`),
    });
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const id = url.searchParams.get("id");
    if (url.pathname === "/open") {
      const { keys } = await env.OPEN.list({ prefix: `${id}/` });
      return Response.json(await Promise.all(keys.map(async (k) => JSON.parse(await env.OPEN.get(k.name)))));
    }
    if (url.pathname === "/status") {
      const s = await (await env.AGENT.get(id)).status();
      return Response.json({ status: s.status, output: s.output, error: s.error });
    }
    const body = await request.json();
    if (url.pathname === "/start") return Response.json({ id: (await env.AGENT.create({ id: body.id, params: { family: body.family } })).id });
    if (url.pathname === "/send") {
      await (await env.AGENT.get(id)).sendEvent(answerEvent(body.suspension, { ok: true, data: { output: body.output } }));
      return Response.json({ sent: true });
    }
    const ai = recordedAI(body.family);
    const store = kvStore(env.CONVERSATIONS, { prefix: "chat:" });
    const client = createClient({ ...model(ai, body.family), systemPrompt: "Be brief.", store });
    runs.length = 0;
    const go = async (f) => {
      if (!body.stream) return f((o) => client.ask(body.prompt ?? "Weather in London, then buy.", o), (o) => client.askWithAnswer(o));
      const last = async (it) => { let text = "", end; for await (const e of it) { if (e.type === "text") text += e.delta; end = e; } return { ...(end.result ?? end), streamedText: text }; };
      return f((o) => last(client.stream("Weather in London, then buy.", o)), (o) => client.askWithAnswer(o));
    };
    let result;
    if (url.pathname === "/loop") result = await go((ask) => ask({ toolkit: createToolkit([weather, click]), id: `loop-${body.family}-${body.stream}` }));
    else if (url.pathname === "/ask") result = await go((ask) => ask({ toolkit: createToolkit([weather, relayClick]), id: body.id }));
    else if (url.pathname === "/answer") {
      const { pending } = await store.get(body.id);
      const answer = relayAnswer(pending.id, pending.data.calls.map((c) => ({ id: c.id, output: body.output })));
      result = await client.askWithAnswer({ toolkit: createToolkit([weather, relayClick]), id: body.id, answer });
    } else return new Response("not found", { status: 404 });
    return Response.json({ result, runs, seen: ai.seen.map((s) => ({ gateway: s.options?.gateway?.id, stream: s.inputs.stream === true, ids: s.inputs.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)) })) });
  },
};
