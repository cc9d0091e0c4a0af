// Answers of the Workers AI binding, replayed by a stand-in for `env.AI` (shared by the workerd
// tests and the Node unit tests of toolnexus-wasm/workers-ai). Each family has three turns of one
// conversation (call get_weather, call click, answer), each whole (`json`) and streamed (`sse`:
// the `data:` events the binding's ReadableStream carries).
//
// Source of every answer: the test suite of the binding's own provider package, cloudflare/ai
// at commit 917c02430090e7d511abf138091a2c17135515b2, packages/workers-ai-provider/test/
// (stream-text.test.ts "ST" and text-generation.test.ts "TG", line numbers below), where its
// authors reproduce what the binding returned for each model family and quirk they work around.
// Only the tool names, arguments and texts were changed to fit one conversation; every field,
// nesting, null and id format is theirs. No answer here was captured by this project.

const calls = { weather: { location: "London" }, click: { selector: "#buy" } };

export const families = {
  // The older "traditional" function calling: flat `{ response, tool_calls: [{ name, arguments }] }`.
  "llama-3.3": {
    model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
    json: [
      // TG:466-471: `response: null`, arguments as JSON text.
      { response: null, tool_calls: [{ name: "get_weather", arguments: JSON.stringify(calls.weather) }], usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 } },
      // The binding's typings (AiTextGenerationOutput): arguments as an object.
      { response: null, tool_calls: [{ name: "click", arguments: calls.click }] },
      // TG:343: a plain answer.
      { response: "Hello", usage: { prompt_tokens: 160, completion_tokens: 2, total_tokens: 162 } },
    ],
    sse: [
      // ST:164-165: native stream, a whole call with an id the binding made, finish on its own event.
      [{ tool_calls: [{ id: "call123", type: "function", index: 0, function: { name: "get_weather", arguments: JSON.stringify(calls.weather) } }] }, { finish_reason: "tool_calls" }],
      // ST:2262-2290: the null-finalization chunk after a call (no index, every field null).
      [{ tool_calls: [{ id: "call_1", type: "function", index: 0, function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, { tool_calls: [{ id: null, type: null, function: { name: null, arguments: "" } }] }, { finish_reason: "tool_calls" }],
      // ST:69-70: native text chunks, with an empty tool_calls and the `p` padding field.
      [{ response: "Hello chunk1" }, { tool_calls: [], p: "abdefgh" }, { response: "Hello chunk2" }],
    ],
    text: { json: "Hello", sse: "Hello chunk1Hello chunk2" },
  },

  // Chat-completions models (GLM 4.7 flash, Kimi K2): `choices[].message`, `choices[].delta`.
  "glm-kimi": {
    model: "@cf/zai-org/glm-4.7-flash",
    json: [
      // ST:1998-2020: non-streamed OpenAI shape with tool calls, content "".
      { choices: [{ message: { content: "", tool_calls: [{ id: "call_abc", type: "function", function: { name: "get_weather", arguments: JSON.stringify(calls.weather) } }] }, finish_reason: "tool_calls" }] },
      // ST:693-712: Kimi-style ids ("functions.<name>:<index>", numbered afresh every turn).
      { choices: [{ message: { content: "", tool_calls: [{ id: "functions.click:0", type: "function", function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, finish_reason: "tool_calls" }] },
      // ST:2050-2070: an answer with reasoning_content beside the content.
      { choices: [{ message: { content: "Hello", reasoning_content: "Think" }, finish_reason: "stop" }], usage: { prompt_tokens: 13, completion_tokens: 4, total_tokens: 17 } },
    ],
    sse: [
      // ST:785-820: reasoning deltas, then a call in a delta, then finish_reason.
      [{ choices: [{ delta: { reasoning_content: "Let me check the weather." }, finish_reason: null }] }, { choices: [{ delta: { tool_calls: [{ id: "chatcmpl-tool-abc", type: "function", index: 0, function: { name: "get_weather", arguments: JSON.stringify(calls.weather) } }] }, finish_reason: null }] }, { choices: [{ delta: {}, finish_reason: "tool_calls" }] }],
      // ST:693-712: a Kimi-style id as top-level tool_calls in the stream.
      [{ tool_calls: [{ id: "functions.click:0", type: "function", index: 0, function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, { finish_reason: "tool_calls" }],
      // ST:452-457: role chunk, reasoning deltas, content, an empty stop delta, an empty choices[].
      [
        { id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1751570976, choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] },
        { id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1751570976, choices: [{ index: 0, delta: { reasoning: "Think" }, logprobs: null, finish_reason: null }] },
        { id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1751570976, choices: [{ index: 0, delta: { content: "Hello" }, logprobs: null, finish_reason: null }] },
        { id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1751570976, choices: [{ index: 0, delta: { content: "" }, logprobs: null, finish_reason: "stop" }] },
        { id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1751570976, choices: [] },
      ],
    ],
    text: { json: "Hello", sse: "Hello" },
  },

  // gpt-oss (harmony): forced calls leak into content; a stream request answered with JSON.
  "gpt-oss": {
    model: "@cf/openai/gpt-oss-120b",
    json: [
      // ST:215-230, whole: the call written as the content, finish "stop".
      { choices: [{ message: { content: JSON.stringify({ name: "get_weather", ...calls.weather }), tool_calls: [] }, finish_reason: "stop" }] },
      { choices: [{ message: { content: "", tool_calls: [{ id: "call_abc", type: "function", function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, finish_reason: "tool_calls" }] },
      { choices: [{ message: { content: "Hello world" }, finish_reason: "stop" }] },
    ],
    sse: [
      // ST:225-227: the forced call streamed as content deltas in pieces.
      [{ choices: [{ delta: { content: '{"name":"get_weather",' }, finish_reason: null }] }, { choices: [{ delta: { content: '"location":"London"}' }, finish_reason: null }] }, { choices: [{ delta: {}, finish_reason: "stop" }] }],
      // ST:1968-1985 (cloudflare/ai#396): a stream request answered with one JSON object.
      { json: { response: null, tool_calls: [{ name: "click", arguments: JSON.stringify(calls.click) }], usage: { prompt_tokens: 10, completion_tokens: 5 } } },
      // ST:1381-1382: content deltas, finish on the last one.
      [{ choices: [{ delta: { content: "Hello" }, finish_reason: null }] }, { choices: [{ delta: { content: " world" }, finish_reason: "stop" }] }],
    ],
    text: { json: "Hello world", sse: "Hello world" },
  },

  // Gemma 4: chat-completions, calls over several chunks and a null finalization between them.
  "gemma-4": {
    model: "@cf/google/gemma-4-26b-a4b-it",
    json: [
      { choices: [{ message: { content: "", tool_calls: [{ id: "call_abc", type: "function", function: { name: "get_weather", arguments: JSON.stringify(calls.weather) } }] }, finish_reason: "tool_calls" }] },
      { choices: [{ message: { content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, finish_reason: "tool_calls" }] },
      // ST:1654-1655 shape, whole: a length-limited answer is still an answer.
      { choices: [{ message: { content: "Hello world" }, finish_reason: "stop" }], usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 } },
    ],
    sse: [
      // ST:2631-2680: a call, a null finalization chunk, and the call's index kept.
      [{ tool_calls: [{ id: "call_1", type: "function", index: 0, function: { name: "get_weather", arguments: '{"location":' } }] }, { tool_calls: [{ index: 0, function: { arguments: '"London"}' } }] }, { tool_calls: [{ id: null, type: null, function: { name: null, arguments: "" } }] }, { finish_reason: "tool_calls" }],
      [{ choices: [{ delta: { tool_calls: [{ id: "call_2", type: "function", index: 0, function: { name: "click", arguments: JSON.stringify(calls.click) } }] }, finish_reason: null }] }, { choices: [{ delta: {}, finish_reason: "tool_calls" }] }],
      // ST:1576-1577: text deltas with no finish reason at all.
      [{ choices: [{ delta: { content: "Hello" }, finish_reason: null }] }, { choices: [{ delta: { content: " world" }, finish_reason: null }] }],
    ],
    text: { json: "Hello world", sse: "Hello world" },
  },
};

export const expectedCalls = calls;

/** The events as the binding streams them: `data: {...}\n\n` each, then `data: [DONE]`. */
export function sseStream(events) {
  const lines = [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), "data: [DONE]\n\n"];
  const bytes = new TextEncoder().encode(lines.join(""));
  // Cut at odd places, as the network does: the reader must join lines across chunks.
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 37) pieces.push(bytes.slice(i, i + 37));
  return new ReadableStream({ pull(c) { const p = pieces.shift(); if (p) c.enqueue(p); else c.close(); } });
}

/**
 * A stand-in for `env.AI`: replays `family`'s turns in order (chosen by the turn's number, so a
 * resumed run in a fresh process gets the right one), refusing what the real binding refuses
 * (tool-call ids not of nine letters or digits, `content: null`) and recording each call.
 */
export function recordedAI(family, { failFirst } = {}) {
  const f = families[family];
  const seen = [];
  let failures = failFirst ?? 0;
  return {
    seen,
    async run(model, inputs, options) {
      seen.push({ model, inputs: structuredClone(inputs), options });
      if (failures-- > 0) throw new Error("3040: Capacity temporarily exceeded, please try again.");
      if (model !== f.model) throw new Error(`5007: No such model ${model}`);
      for (const m of inputs.messages) {
        if (m.content === null) throw new Error("5006: Type mismatch of '/messages/1/content', 'string' not in 'null'");
        for (const c of m.tool_calls ?? []) if (!/^[a-zA-Z0-9]{9}$/.test(c.id)) throw new Error(`5006: tool call id ${c.id} must be 9 alphanumeric characters`);
        if (m.role === "tool" && !/^[a-zA-Z0-9]{9}$/.test(m.tool_call_id)) throw new Error(`5006: tool_call_id ${m.tool_call_id} must be 9 alphanumeric characters`);
      }
      const turn = inputs.messages.filter((m) => m.role === "assistant").length;
      if (inputs.stream) {
        const answer = f.sse[turn];
        return Array.isArray(answer) ? sseStream(answer) : answer.json;
      }
      return f.json[turn];
    },
  };
}
