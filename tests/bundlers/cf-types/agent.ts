// A Worker with an agent Workflow, typed by @cloudflare/workers-types: `WorkflowStep` from
// "cloudflare:workers" is accepted by runInWorkflow, and a suspension read back from KV answers
// through answerEvent into `instance.sendEvent`.
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { defineTool } from "toolnexus-wasm";
import { answerEvent, runInWorkflow, type WorkflowSuspension } from "toolnexus-wasm/workflows";

interface Env { AGENT: Workflow; OPEN: KVNamespace; KEY: string }

export class Agent extends WorkflowEntrypoint<Env, { prompt: string }> {
  async run(event: WorkflowEvent<{ prompt: string }>, step: WorkflowStep) {
    const out = await runInWorkflow(step, {
      client: { style: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-5-mini", apiKey: this.env.KEY },
      tools: [defineTool({ name: "t", description: "d", run: async () => "x" })],
      prompt: event.payload.prompt,
      onSuspend: async (s) => { await this.env.OPEN.put(s.event, JSON.stringify(s)); },
    });
    return out.text;
  }
}

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const s = JSON.parse((await env.OPEN.get("x"))!) as WorkflowSuspension;
    await (await env.AGENT.get("id")).sendEvent(answerEvent(s, { ok: true }));
    return new Response("ok");
  },
} satisfies ExportedHandler<Env>;
