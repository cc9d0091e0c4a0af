// Compiled with `tsc --noEmit` against the built package: `toolnexus-wasm/workflows` typed as a
// Workflow's `run(event, step)` uses it (the @ts-expect-error lines must stay errors).
import { defineTool, relayTool } from "toolnexus-wasm";
import { answerEvent, eventType, runInWorkflow } from "toolnexus-wasm/workflows";
import type { WorkflowStepLike, WorkflowSuspension } from "toolnexus-wasm/workflows";

export async function agentRun(step: WorkflowStepLike, apiKey: string, open: Map<string, WorkflowSuspension>): Promise<string> {
  const lookup = defineTool({ name: "lookup", description: "d", run: async (_args, ctx) => `call ${ctx.toolCallId}` });
  const out = await runInWorkflow(step, {
    client: { style: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-5", apiKey },
    tools: [lookup, relayTool("click", "Click")],
    prompt: "Buy the mug",
    waitTimeout: "2 days",
    modelStep: { retries: { limit: 3, delay: "5 seconds", backoff: "exponential" }, timeout: "2 minutes" },
    onSuspend: (s) => void open.set(s.event, s),
    onResolve: (s, a) => void (a.ok && open.delete(s.event)),
  });
  // @ts-expect-error the transcript is left out of a Workflow's output unless asked for
  out.messages.length;
  return out.text;
}

export function answer(s: WorkflowSuspension): { type: string } {
  const e = answerEvent(s, { ok: true, data: { output: "clicked" } });
  // @ts-expect-error an answer says ok or not
  answerEvent(s, { data: {} });
  return { type: e.type + eventType("call_1", 2) };
}
