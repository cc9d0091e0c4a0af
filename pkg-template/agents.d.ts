// `toolnexus-wasm/agents`: an agent as a tool (agents.js). Its own subpath: the default entry's
// core runs the child, and only an app that makes agents loads this file.
/**
 * Agents made of agents: `agentTool` makes an agent an ordinary tool of a toolkit, whose child
 * loop runs in the client that calls it, its suspensions the root's.
 * @module toolnexus-wasm/agents
 */
import type { JsonSchema, Style, Tool } from "./index.js";

/** What `agentTool` takes. */
export interface AgentToolOptions {
  /** The tool's name, as the parent's model calls it (`[a-zA-Z0-9_-]{1,64}`). */
  name: string;
  description: string;
  /** Default: `{ prompt: string }`, the child's prompt; any other input reaches the child as its JSON text. */
  inputSchema?: JsonSchema;
  /** The child's system prompt; it never sees the parent's history, only the call's input. */
  systemPrompt: string;
  /** The child's own tools (relay tools, approvals, MCP tools and agent tools included). */
  tools?: Tool[];
  /** Or a toolkit's tools. */
  toolkit?: { tools: Tool[] };
  /** Default: the parent client's model. */
  model?: string;
  /** Default: the parent client's style (its API key goes with it: name a `baseUrl` the key is for). */
  style?: Style;
  baseUrl?: string;
  /** Default: the parent client's `maxTurns`. */
  maxTurns?: number;
  /** How many levels of agents this one may head, itself included (default 8, at most 32): deeper is refused (`bad_input`). */
  maxDepth?: number;
}

/**
 * An agent as a tool: a call runs a child loop over its own tools, from a fresh transcript whose
 * prompt is the call's input, and its final text is the call's result. The child's suspensions
 * (relay calls, approvals, MCP questions) are the parent's: they reach `waitFor`, or halt the
 * root durably with `pending.path` naming the agents, and a resume continues the child that
 * asked from its checkpoint. Its usage counts in the root's `usage` and, per agent, `agentUsage`.
 * @example
 * ```ts
 * import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
 * import { agentTool } from "toolnexus-wasm/agents";
 * const browser = agentTool({
 *   name: "browser", description: "Reads and clicks in the user's tab",
 *   systemPrompt: "You operate the user's browser tab.",
 *   tools: [relayTool("click", "Click an element"), relayTool("read_page", "The page's text")],
 * });
 * const client = createClient({ style: "openai", baseUrl: "https://api.openai.com/v1", apiKey: "sk-...", model: "gpt-5-mini" });
 * const result = await client.run("Find the price on this page", { toolkit: createToolkit([browser]) });
 * if (result.status === "pending") console.log(result.pending.path); // [{ agent: "browser", callId: "..." }]
 * ```
 */
export declare function agentTool(options: AgentToolOptions): Tool;
