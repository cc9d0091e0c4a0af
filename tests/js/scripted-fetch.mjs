// A model for tests that need to say exactly which calls each turn makes: an OpenAI chat
// completions `fetch` that answers each request with the next step of a script, and counts the
// requests (a refusal "before any provider call" leaves the count where it was).
//   const m = scripted([["delete_file", { path: "/a" }], ["click", { selector: "#b" }]], DONE);
// A step is a list of tool calls ([name, args]) or a function of the request body giving the
// reply text. DONE answers with the tool results of the transcript, one per line.

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
/** The reply as JSON, or as SSE chunks when the request asked for a stream. */
function reply(message, stream) {
  const finish_reason = message.tool_calls ? "tool_calls" : "stop";
  if (!stream) return new Response(JSON.stringify({ id: "x", object: "chat.completion", model: "m", choices: [{ index: 0, message, finish_reason }], usage }));
  const delta = message.tool_calls
    ? { role: "assistant", tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
    : { role: "assistant", content: message.content };
  const chunks = [{ choices: [{ index: 0, delta }] }, { choices: [{ index: 0, delta: {}, finish_reason }] }, { choices: [], usage }];
  const text = chunks.map((c) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "m", ...c })}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** The results the model has seen, in order: `name: content` per tool message. */
export const DONE = (body) => {
  const names = new Map(body.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => [c.id, c.function.name])));
  return body.messages.filter((m) => m.role === "tool").map((m) => `${names.get(m.tool_call_id)}: ${m.content}`).join("\n");
};

export function scripted(...steps) {
  const bodies = [];
  let turn = 0;
  const fetch = async (_url, init) => {
    const body = JSON.parse(init.body);
    bodies.push(body);
    const step = steps[Math.min(turn++, steps.length - 1)];
    if (typeof step === "function") return reply({ role: "assistant", content: step(body) }, body.stream);
    const tool_calls = step.map(([name, args], i) => ({ id: `call_${turn}_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } }));
    return reply({ role: "assistant", content: null, tool_calls }, body.stream);
  };
  return { fetch, bodies, get calls() { return bodies.length; } };
}

/** Client options for the scripted model. */
export const opts = (m, extra = {}) => ({ baseUrl: "http://model.test/v1", style: "openai", model: "m", apiKey: "sk-test-key", fetch: m.fetch, retries: 0, ...extra });
