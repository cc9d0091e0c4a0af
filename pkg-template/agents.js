// @ts-check
// `agentTool`: an agent as a tool. Plain data the core reads when a toolkit binds it; the child's
// loop runs in the core (src/driver/agent.rs), over the parent client's provider settings unless
// the agent names others. The options are checked here, where each mistake can name its fix
// (the core reads what this returns). The child's tools are gated here as a toolkit's are, so a
// child tool with `needsApproval` asks, and that approval reaches the root like any of the
// child's suspensions; their functions travel in `runs` under the names the core's executor asks
// for (`tool`, `agent/tool` agents down).
import { fail as error, gate } from "./host.js";

const STYLES = ["openai", "responses", "anthropic", "gemini"];
const KNOWN = "name, description, inputSchema, systemPrompt, tools | toolkit, model, style, baseUrl, maxTurns, maxDepth";
// The core refuses deeper nesting whatever `maxDepth` says: a hand-made declaration that holds
// itself (a cycle) ends there (src/agent.rs, MAX_DEPTH).
const DEPTH_CAP = 32;

/** `agentTool({ name, description, systemPrompt, tools | toolkit, ... })`: see index.d.ts. */
export function agentTool(options) {
  const { name, description, inputSchema, systemPrompt, tools, toolkit, model, style, baseUrl, maxTurns, maxDepth = 8, ...rest } = options ?? {};
  const fail = (/** @type {string} */ m) => {
    throw error("bad_input", `agentTool${typeof name == "string" ? " " + name : ""}: ${m}`);
  };
  const stray = Object.keys(rest).find((k) => rest[k] !== undefined);
  if (stray !== undefined) fail(`unknown option "${stray}" (see AgentToolOptions: ${KNOWN})`);
  if (typeof name != "string" || !name) fail("name is required (a non-empty string)");
  for (const [k, v] of Object.entries({ description, systemPrompt, model, baseUrl })) {
    if (v !== undefined && typeof v != "string") fail(`${k} must be a string`);
  }
  if (style !== undefined && !STYLES.includes(style)) fail(`style must be one of ${STYLES.join(", ")}`);
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) fail("maxTurns must be a whole number of at least 1");
  if (!(Number.isInteger(maxDepth) && maxDepth >= 1 && maxDepth <= DEPTH_CAP)) fail(`maxDepth must be a whole number from 1 to ${DEPTH_CAP}`);
  const list = tools ?? toolkit?.tools ?? [];
  if (!Array.isArray(list)) fail("tools must be an array of tools (or pass toolkit: createToolkit(...))");
  const gated = list.map(gate);
  /** @type {[string, Function][]} */
  const runs = [];
  for (const t of gated) {
    const { name: n, source, run, agent } = t ?? {};
    if (typeof run == "function") runs.push([n, run]);
    else if (source != "relay" && source != "agent") fail(`tool ${n} has no run function; use relayTool() for a declaration-only tool`);
    for (const [inner, f] of agent?.runs ?? []) runs.push([`${n}/${inner}`, f]);
  }
  // This agent's level and the deepest chain of agents below it.
  const depth = 1 + Math.max(0, ...gated.map((t) => t?.agent?.depth ?? 0));
  if (depth > maxDepth) fail(`agents nest ${depth} deep here, more than maxDepth (${maxDepth}): raise maxDepth, or let fewer agents delegate`);
  return {
    name,
    description: description ?? "",
    inputSchema: inputSchema ?? {
      type: "object",
      properties: { prompt: { type: "string", description: `the task for the ${name} agent, in full` } },
      required: ["prompt"],
      additionalProperties: false,
    },
    source: "agent",
    agent: { systemPrompt: systemPrompt ?? "", tools: gated, model, style, baseUrl, maxTurns, runs, depth },
  };
}
