// @ts-check
// `mcpTools`: an MCP server's tools as ordinary tools for `createToolkit` (any entry of the
// package). The protocol runs in this entry's own wasm (McpSession); a tool's `run` is one
// `tools/call`, and what it resolves to is a plain tool result — or, when the server asks for
// authorization, the same suspension data `authRequired()` makes, which the loop waits on or
// halts with like any other.
// Every error it throws or rejects with is a ToolnexusError, the class `toolnexus-wasm` exports:
// both wasm modules construct it from one module of the package (the default entry's host.js,
// which scripts/build.sh points this import at), so `instanceof` holds across entries.

import { A2aAgent, Builtins, HttpTool, McpSession, SkillSet } from "./toolnexus_mcp.js";
import { ToolnexusError } from "../host.js";

export { ToolnexusError };

/**
 * `await mcpTools({ server, url, headers?, env?, timeoutMs?, fetch?, token?, tools? })`: the
 * server's tools, named `<server>_<tool>`. The array also has `source` (the server entry as
 * JSON data, listing included: pass it back to `mcpTools` after a restart to rebuild the tools
 * without listing them again) and `close()` (ends the session).
 */
export async function mcpTools(options) {
  const session = new McpSession(options);
  let listed;
  try {
    listed = await session.list();
  } catch (e) {
    session.free();
    throw e;
  }
  const need = approval(options);
  const tools = listed.tools.map((decl, i) => {
    const name = listed.source.tools[i].name;
    return { ...decl, ...need, run: (args, ctx) => session.call(name, args, ctx?.signal, ctx?.answer) };
  });
  Object.defineProperty(tools, "source", { value: need?.needsApproval === true ? { ...listed.source, ...need } : listed.source });
  Object.defineProperty(tools, "close", { value: () => session.close() });
  return tools;
}

/**
 * `httpTool({ name, url, description?, method?, headers?, env?, query?, body?, inputSchema?,
 * timeoutMs?, resultMode?, fetch? })`: an HTTP endpoint as a tool (source "http"), with the
 * reference's semantics. `definition` is the tool as JSON data (without `env`), to save and
 * rebuild from.
 */
export function httpTool(definition) {
  const t = new HttpTool(definition);
  const need = approval(definition);
  const tool = { ...t.declaration(), ...need, run: (args, ctx) => t.call(args, ctx?.signal) };
  Object.defineProperty(tool, "definition", { value: need?.needsApproval === true ? { ...t.definition(), ...need } : t.definition() });
  return tool;
}

// `needsApproval` of a source's options, put on each of its tools for the toolkit to apply
// (the default entry's `gate`: `createToolkit`, `defineTool`, a run's tool list). `true` is
// data and stays in `source` / `definition`, so tools rebuilt from them still ask; a function
// must be passed again with them.
function approval(options) {
  let need;
  try {
    need = options.needsApproval;
  } catch {}
  return need == null ? undefined : { needsApproval: need };
}

/**
 * `builtinTools(names?, { fetch?, maxBytes? })`: the builtins that work over fetch, opt-in —
 * `webfetch` (its body read capped at `maxBytes`, default 512 KiB), `question` (suspends with
 * `kind: "question"`; the answer's `data` is the result) and `todowrite`. Names default to all
 * three; the other reference builtins need a filesystem or a process and are refused.
 */
export function builtinTools(names, options) {
  const b = new Builtins(names, options);
  return b.declarations().map((decl) => ({ ...decl, run: (args, ctx) => b.call(decl.name, args, ctx?.signal, ctx?.answer) }));
}

/**
 * `skillTool(skills, { filter?, sampleLimit? })`: skills as data (`{ name, description?, body,
 * resources?, base? }`) behind one `skill` tool that loads a skill on demand; `tool.prompt` is
 * the catalog to put in the system prompt.
 */
export function skillTool(skills, options) {
  const set = new SkillSet(skills, options);
  const tool = { ...set.declaration(), run: (args) => set.run(args) };
  Object.defineProperty(tool, "prompt", { value: set.prompt() });
  return tool;
}

/**
 * `await a2aTools({ card, headers?, env?, timeoutMs?, pollEvery?, fetch? })`: a remote A2A
 * agent's skills (from its Agent Card) as tools named `<agent>_<skill>` with one `task` argument;
 * a call sends the task (`SendMessage`) and polls `GetTask` every `pollEvery` ms (default 1000)
 * until it ends or `timeoutMs` (default 300000) passes.
 */
export async function a2aTools(options) {
  const agent = new A2aAgent(options);
  const decls = await agent.connect();
  return decls.map((decl, i) => ({ ...decl, run: (args, ctx) => agent.call(i, args, ctx?.signal) }));
}
