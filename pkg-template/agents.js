// @ts-check
// `agentTool`: an agent as a tool. Plain data the core reads when a toolkit binds it; the child's
// loop runs in the core (src/driver/agent.rs), over the parent client's provider settings unless
// the agent names others. Its own tools are gated here as a toolkit's are, so a child tool with
// `needsApproval` asks (and its approval reaches the root like any of the child's suspensions).
import { gate } from "./host.js";

/** `agentTool({ name, description, systemPrompt, tools | toolkit, ... })`: see index.d.ts. */
export function agentTool(options) {
  const { name, description, inputSchema, systemPrompt, tools, toolkit, model, style, baseUrl, maxTurns, ...rest } = options ?? {};
  const stray = Object.keys(rest).find((k) => rest[k] !== undefined);
  if (stray !== undefined) {
    throw new TypeError(`agentTool: unknown option "${stray}" (see AgentToolOptions: name, description, inputSchema, systemPrompt, tools | toolkit, model, style, baseUrl, maxTurns)`);
  }
  const list = tools ?? toolkit?.tools ?? [];
  if (!Array.isArray(list)) throw new TypeError("agentTool: tools must be an array of tools (or pass toolkit: createToolkit(...))");
  return {
    name,
    description: description ?? "",
    inputSchema,
    source: "agent",
    agent: { systemPrompt: systemPrompt ?? "", tools: list.map(gate), model, style, baseUrl, maxTurns },
  };
}
