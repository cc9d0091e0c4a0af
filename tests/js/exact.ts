// Compiled by tsconfig.json only, which sets `exactOptionalPropertyTypes`: an optional option
// takes `undefined` too, as a project reading `process.env` passes it (the @ts-expect-error
// lines must stay errors).
import { createClient, ToolnexusError } from "toolnexus-wasm";
import { runInWorkflow, type WorkflowStepLike } from "toolnexus-wasm/workflows";
import { mcpTools } from "toolnexus-wasm/mcp";

// Optional options take `undefined` too (`exactOptionalPropertyTypes`, tsconfig.json), except
// `stateSecret`, which refuses it at run time.
export async function fromEnv(env: { [name: string]: string | undefined }, signal?: AbortSignal): Promise<void> {
  const client = createClient({ baseUrl: "u", style: "openai", model: "m", apiKey: env.OPENAI_API_KEY, systemPrompt: env.SYSTEM, maxTurns: undefined, store: undefined });
  await client.run("x", { signal, history: undefined, toolkit: undefined });
  await client.ask("x", { id: env.ID, signal });
  client.stream("x", { id: env.ID, signal });
  // @ts-expect-error an undefined stateSecret is refused (`bad_input`), not read as none
  createClient({ baseUrl: "u", style: "openai", model: "m", stateSecret: env.SECRET });
  // @ts-expect-error a required option is still required
  createClient({ baseUrl: "u", style: "openai", model: env.MODEL });
}

export async function workflow(step: WorkflowStepLike, env: { [name: string]: string | undefined }): Promise<string> {
  const out = await runInWorkflow(step, { client: { style: "openai", baseUrl: "u", model: "m", apiKey: env.KEY }, prompt: "p", waitTimeout: env.WAIT });
  // @ts-expect-error a Workflow answers its suspensions itself: never "pending"
  if (out.status === "pending") return "";
  return out.status === "incomplete" ? out.limit : out.text;
}

export function rethrow(e: unknown): never {
  if (ToolnexusError.is(e)) throw new ToolnexusError("again", e.code, { status: e.status, cause: e });
  throw e;
}

export async function mcp(env: { [name: string]: string | undefined }): Promise<number> {
  const tools = await mcpTools({ server: "docs", url: "https://mcp.example/mcp", timeoutMs: env.TIMEOUT ? Number(env.TIMEOUT) : undefined, token: async () => env.TOKEN });
  return tools.length;
}
