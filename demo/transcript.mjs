// A stored conversation as display lines, shared by the www page (www/app.js, which imports it
// from here) and the example extension's side panel (examples/extension/panel.js, beside which
// scripts/copy-pkg.sh copies it, as it does scripted-logic.mjs): each shows the conversation
// again after a reload. A stored state's `messages` are in its client's style, so every dialect
// is read: OpenAI chat (`tool_calls`, `tool` messages), Anthropic content blocks and Gemini parts
// (a Responses style's call items are not shown yet).

/**
 * The lines of `messages`, each `[cls, text]` (cls "user", "assistant" or "tool"); a tool's
 * result is shown as `result(name, output, isError)` says, the way the page shows one live.
 */
export function* messageLines(messages, result) {
  const names = new Map(); // call id → tool name, for the results that name only the call
  const out = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  for (const m of messages) {
    const role = m.role === "user" ? "user" : "assistant";
    if (m.role === "tool") { yield ["tool", result(names.get(m.tool_call_id) ?? "tool", out(m.content), false)]; continue; }
    for (const c of m.tool_calls ?? []) { names.set(c.id, c.function.name); yield ["tool", `→ ${c.function.name}(${c.function.arguments})`]; }
    const parts = typeof m.content === "string" ? [{ text: m.content }] : Array.isArray(m.content) ? m.content : m.parts ?? [];
    for (const b of parts) {
      if (typeof b.text === "string" && b.text && b.type !== "tool_result") yield [role, b.text];
      if (b.type === "tool_use") { names.set(b.id, b.name); yield ["tool", `→ ${b.name}(${JSON.stringify(b.input)})`]; }
      if (b.type === "tool_result") yield ["tool", result(names.get(b.tool_use_id) ?? "tool", out(b.content), b.is_error === true)];
      if (b.functionCall) yield ["tool", `→ ${b.functionCall.name}(${JSON.stringify(b.functionCall.args)})`];
      if (b.functionResponse) yield ["tool", result(b.functionResponse.name, out(b.functionResponse.response?.output ?? b.functionResponse.response?.error), false)];
    }
  }
}

/**
 * The lines of a stored `state` with each turn's usage line (`usage`: prompt number → its line,
 * kept by the page) before the next prompt, and the last turn's at the end unless it is halted
 * (its usage line comes when it finishes).
 */
export function* restoredLines(state, usage, result) {
  let n = 0; // prompts so far
  for (const [cls, text] of messageLines(state.messages, result)) {
    if (cls === "user" && usage[n]) yield ["usage", usage[n]];
    if (cls === "user") n += 1;
    yield [cls, text];
  }
  if (!state.pending && usage[n]) yield ["usage", usage[n]];
}
