// A scripted model served on 127.0.0.1 in the real OpenAI chat-completions and Anthropic
// messages wire formats: the offline default for the demo and the tests. It is deterministic and
// strict: it checks auth headers and rejects (400) any transcript in which a tool call has no
// result, exactly the mistake a real provider refuses.
//
//   node demo/scripted-model.mjs [port]          # serve until killed
//   import { startScriptedModel } from "./scripted-model.mjs"
//
// The script is chosen by the first line of the conversation's latest user prompt: a prompt
// starting with "#three-clicks" plays that scenario; anything else plays "default".
import http from "node:http";

/** Each scenario lists the replies per model turn after the prompt; the last one repeats. */
export const SCENARIOS = {
  default: [
    { calls: [["lookup_price", { item: "blue mug" }], ["click", { selector: "#add-to-cart" }]] },
    { text: "Done. {{results}}" },
  ],
  hello: [{ text: "Hello from the scripted model." }],
  "three-clicks": [
    { calls: [["click", { selector: "#a" }], ["click", { selector: "#b" }], ["click", { selector: "#c" }]] },
    { text: "Clicked: {{results}}" },
  ],
  mixed: [
    { calls: [["lookup_price", { item: "red mug" }], ["click", { selector: "#buy" }]] },
    { text: "Summary: {{results}}" },
  ],
  loop: [{ calls: [["lookup_price", { item: "anything" }]] }],
};

const cors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-allow-private-network": "true",
};

/** Neutral view of a request: the prompt, the tool results since it, and balance problems. */
function readOpenAI(body) {
  const msgs = body.messages ?? [];
  let promptIdx = -1;
  msgs.forEach((m, i) => { if (m.role === "user") promptIdx = i; });
  const open = new Map();
  const problems = [];
  for (const m of msgs) {
    if (m.role === "assistant") {
      if (open.size) problems.push(`tool calls without results: ${[...open.keys()].join(", ")}`);
      open.clear();
      for (const c of m.tool_calls ?? []) open.set(c.id, c.function?.name);
    } else if (m.role === "tool") {
      if (!open.has(m.tool_call_id)) problems.push(`tool result for unknown call ${m.tool_call_id}`);
      open.delete(m.tool_call_id);
    } else if (open.size) {
      problems.push(`tool calls without results: ${[...open.keys()].join(", ")}`);
      open.clear();
    }
  }
  const results = [];
  let names = new Map();
  msgs.slice(promptIdx + 1).forEach((m) => {
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name);
    if (m.role === "tool") results.push(`${names.get(m.tool_call_id)} → ${m.content}`);
  });
  const turn = msgs.slice(promptIdx + 1).filter((m) => m.role === "assistant").length;
  return { prompt: String(msgs[promptIdx]?.content ?? ""), turn, results, problems, tools: (body.tools ?? []).map((t) => t.function?.name) };
}

function readAnthropic(body) {
  const msgs = body.messages ?? [];
  const isResults = (m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result");
  let promptIdx = -1;
  msgs.forEach((m, i) => { if (m.role === "user" && !isResults(m)) promptIdx = i; });
  const problems = [];
  msgs.forEach((m, i) => {
    const uses = m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_use") : [];
    if (!uses.length) return;
    const next = msgs[i + 1];
    const answered = new Set((next && isResults(next) ? next.content : []).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
    const missing = uses.filter((u) => !answered.has(u.id)).map((u) => u.id);
    if (missing.length) problems.push(`tool_use ids without tool_result blocks immediately after: ${missing.join(", ")}`);
  });
  const names = new Map();
  const results = [];
  msgs.slice(promptIdx + 1).forEach((m) => {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === "tool_use") names.set(b.id, b.name);
      if (b.type === "tool_result") results.push(`${names.get(b.tool_use_id)} → ${b.content}${b.is_error ? " (error)" : ""}`);
    }
  });
  const turn = msgs.slice(promptIdx + 1).filter((m) => m.role === "assistant").length;
  const first = msgs[promptIdx]?.content;
  return { prompt: typeof first === "string" ? first : "", turn, results, problems, tools: (body.tools ?? []).map((t) => t.name) };
}

function pickReply(view, scenarios) {
  const key = view.prompt.startsWith("#") ? view.prompt.slice(1).split(/\s/)[0] : "default";
  const script = scenarios[key] ?? scenarios.default;
  const step = script[Math.min(view.turn, script.length - 1)];
  if (step.text !== undefined) return { text: step.text.replace("{{results}}", view.results.join("; ") || "no tools ran") };
  return { calls: step.calls.filter(([name]) => view.tools.includes(name)) };
}

const tokens = (s) => Math.max(1, Math.ceil(String(s).length / 4));

function openAIReply(reply, body, turn) {
  const calls = (reply.calls ?? []).map(([name, args], i) => ({
    id: `call_${turn}_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) },
  }));
  const message = calls.length ? { role: "assistant", content: null, tool_calls: calls } : { role: "assistant", content: reply.text ?? "" };
  const p = tokens(JSON.stringify(body.messages)), c = tokens(JSON.stringify(message));
  return {
    id: `chatcmpl-scripted-${turn}`, object: "chat.completion", created: 1767225600, model: body.model,
    choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
  };
}

function anthropicReply(reply, body, turn) {
  const content = reply.calls?.length
    ? reply.calls.map(([name, input], i) => ({ type: "tool_use", id: `toolu_${turn}_${i}`, name, input }))
    : [{ type: "text", text: reply.text ?? "" }];
  return {
    id: `msg_scripted_${turn}`, type: "message", role: "assistant", model: body.model, content,
    stop_reason: reply.calls?.length ? "tool_use" : "end_turn", stop_sequence: null,
    usage: { input_tokens: tokens(JSON.stringify(body.messages)), output_tokens: tokens(JSON.stringify(content)) },
  };
}

/** Starts the server. `port: 0` picks a free port. Resolves to { url, port, requests, close }. */
export function startScriptedModel({ port = 0, scenarios = SCENARIOS } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const send = (status, obj) => {
      res.writeHead(status, { "content-type": "application/json", ...cors });
      res.end(JSON.stringify(obj));
    };
    if (req.method === "OPTIONS") { res.writeHead(204, cors); return res.end(); }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body;
      try { body = JSON.parse(raw); } catch { return send(400, { error: { message: "body is not JSON" } }); }
      requests.push({ path: req.url, headers: req.headers, body });
      const anthropic = req.url.endsWith("/messages");
      const openai = req.url.endsWith("/chat/completions");
      if (!anthropic && !openai) return send(404, { error: { message: `no route ${req.url}` } });
      if (openai && !/^Bearer \S+/.test(req.headers.authorization ?? "")) return send(401, { error: { message: "missing bearer token" } });
      if (anthropic && (!req.headers["x-api-key"] || req.headers["anthropic-version"] !== "2023-06-01"))
        return send(401, { type: "error", error: { type: "authentication_error", message: "missing x-api-key or anthropic-version" } });
      if (!body.model) return send(400, { error: { message: "model is required" } });
      const view = anthropic ? readAnthropic(body) : readOpenAI(body);
      if (view.problems.length) {
        const message = `invalid transcript: ${view.problems.join("; ")}`;
        return send(400, anthropic ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error" } });
      }
      const reply = pickReply(view, scenarios);
      send(200, anthropic ? anthropicReply(reply, body, view.turn) : openAIReply(reply, body, view.turn));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const p = server.address().port;
      resolve({ url: `http://127.0.0.1:${p}`, port: p, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const m = await startScriptedModel({ port: Number(process.argv[2] ?? 0) });
  console.log(`scripted model listening on ${m.url}`);
}
