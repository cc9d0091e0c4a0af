// @ts-check
// Stateless stand-ins for three current model APIs that check follow-up requests as the real
// ones do where reasoning state is concerned, and answer 400 with the real APIs' wording when
// it is missing or foreign:
// - Gemini 3: every function-calling model turn carries back the `thoughtSignature` it was sent,
//   on the first functionCall part ("Function call is missing a thought_signature"); a signature
//   another model made is refused; the documented dummy is taken for a transferred history.
// - Anthropic with thinking on: an assistant turn with tool_use starts with its thinking block,
//   thinking text and signature unchanged ("Expected `thinking` or `redacted_thinking`").
// - OpenAI Responses, stateless: each function_call comes after its reasoning item with the
//   encrypted content it was sent ("was provided without its required 'reasoning' item").
// A signature names the model that made it (`sig:<model>:<turn>`), so a foreign one is caught.
// Being stateless (the step is the number of tool-result turns in the request), a fresh process
// can resume against it. Each model turn: step 0 calls `lookup_price` (a JS tool), step 1 calls
// `click` (a relay tool: the run halts), step 2 answers with the results it was given.

const DUMMY = "skip_thought_signature_validator";
const THOUGHT = (k) => `Thinking about step ${k}.`;

/** @param {number} status @param {unknown} body */
const reply = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
/** @param {string} message */
const bad = (message) => reply(400, { error: { type: "invalid_request_error", code: 400, message } });

/** @param {number} k @param {string} model */
const sig = (model, k) => `sig:${model}:${k}`;
/** @param {number} k */
const call = (k) => (k === 0 ? { name: "lookup_price", args: { item: "mug" } } : { name: "click", args: { selector: "#buy" } });

/** The model named in the request, for each API. @param {string} url @param {any} body */
function modelOf(url, body) {
  const m = /models\/([^/:]+):/.exec(url);
  return m ? decodeURIComponent(m[1]) : body.model;
}

/** @param {string} model @param {any} body */
function gemini(model, body) {
  const turns = body.contents.filter((/** @type {any} */ c) => c.role === "model");
  for (const [k, t] of turns.entries()) {
    const calls = t.parts.filter((/** @type {any} */ p) => p.functionCall);
    if (!calls.length) continue;
    const s = calls[0].thoughtSignature;
    if (s === undefined) return bad(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`default_api:${calls[0].functionCall.name}\`, position ${k + 2}.`);
    if (s !== DUMMY && s !== sig(model, k)) return bad("Corrupted thought signature.");
    if (t.reasoningOrigin !== undefined) return bad('Invalid JSON payload received. Unknown name "reasoningOrigin"');
  }
  const k = turns.length;
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 22 };
  if (k < 2) {
    const c = call(k);
    const parts = [{ text: THOUGHT(k), thought: true }, { functionCall: { name: c.name, args: c.args }, thoughtSignature: sig(model, k) }];
    return reply(200, { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: model });
  }
  const outputs = body.contents.flatMap((/** @type {any} */ c) => c.parts.filter((/** @type {any} */ p) => p.functionResponse).map((/** @type {any} */ p) => JSON.stringify(p.functionResponse.response)));
  const parts = [{ text: THOUGHT(k), thought: true }, { text: `Bought. ${outputs.join(" ")}`, thoughtSignature: sig(model, k) }];
  return reply(200, { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: model });
}

/** @param {string} model @param {any} body */
function anthropic(model, body) {
  const turns = body.messages.filter((/** @type {any} */ m) => m.role === "assistant");
  for (const [k, t] of turns.entries()) {
    const blocks = Array.isArray(t.content) ? t.content : [];
    if (t.reasoningOrigin !== undefined) return bad("messages.1.reasoningOrigin: Extra inputs are not permitted");
    // Only a request with thinking on needs its thinking back.
    if (!body.thinking || !blocks.some((/** @type {any} */ b) => b.type === "tool_use")) continue;
    const first = blocks[0];
    if (first?.type !== "thinking") return bad(`messages.${2 * k + 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`);
    if (first.signature !== sig(model, k) || first.thinking !== THOUGHT(k)) return bad(`messages.${2 * k + 1}.content.0: Invalid \`signature\` in \`thinking\` block`);
  }
  const k = turns.length;
  const usage = { input_tokens: 10, output_tokens: 5 };
  const thinking = { type: "thinking", thinking: THOUGHT(k), signature: sig(model, k) };
  if (k < 2) {
    const c = call(k);
    return reply(200, { id: `msg_${k}`, type: "message", role: "assistant", model, content: [thinking, { type: "tool_use", id: `toolu_${k}`, name: c.name, input: c.args }], stop_reason: "tool_use", usage });
  }
  const outputs = body.messages.flatMap((/** @type {any} */ m) => (Array.isArray(m.content) ? m.content : []).filter((/** @type {any} */ b) => b.type === "tool_result").map((/** @type {any} */ b) => JSON.stringify(b.content)));
  return reply(200, { id: `msg_${k}`, type: "message", role: "assistant", model, content: [thinking, { type: "text", text: `Bought. ${outputs.join(" ")}` }], stop_reason: "end_turn", usage });
}

/** @param {string} model @param {any} body */
function responses(model, body) {
  if (body.store !== false || !body.include?.includes("reasoning.encrypted_content")) return bad("stateless use needs store: false and include reasoning.encrypted_content");
  const input = body.input;
  const calls = input.filter((/** @type {any} */ i) => i.type === "function_call");
  for (const [k, c] of calls.entries()) {
    const before = input[input.indexOf(c) - 1];
    if (before?.type !== "reasoning") return bad(`Item 'fc_${k}' of type 'function_call' was provided without its required 'reasoning' item: 'rs_${k}'.`);
    if (before.encrypted_content !== sig(model, k) || before.id !== `rs_${k}`) return bad("The encrypted content for item rs_" + k + " could not be verified.");
    if (c.call_id !== `call_${k}`) return bad(`No tool call found for function call output with call_id ${c.call_id}.`);
  }
  if (input.some((/** @type {any} */ i) => i.reasoningOrigin !== undefined)) return bad("Unknown parameter: 'input[1].reasoningOrigin'.");
  const k = calls.length;
  const reasoning = { type: "reasoning", id: `rs_${k}`, summary: [{ type: "summary_text", text: THOUGHT(k) }], encrypted_content: sig(model, k) };
  const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, output_tokens_details: { reasoning_tokens: 3 } };
  if (k < 2) {
    const c = call(k);
    const fc = { type: "function_call", id: `fc_${k}`, call_id: `call_${k}`, name: c.name, arguments: JSON.stringify(c.args), status: "completed" };
    return reply(200, { id: `resp_${k}`, object: "response", status: "completed", model, output: [reasoning, fc], usage });
  }
  const outputs = input.filter((/** @type {any} */ i) => i.type === "function_call_output").map((/** @type {any} */ i) => JSON.stringify(i.output));
  const message = { type: "message", id: `msg_${k}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: `Bought. ${outputs.join(" ")}`, annotations: [] }] };
  return reply(200, { id: `resp_${k}`, object: "response", status: "completed", model, output: [reasoning, message], usage });
}

/**
 * A fetch for `createClient({ fetch })` that answers as the named API; `seen` collects each
 * request body.
 * @param {"gemini" | "anthropic" | "responses"} api
 * @param {any[]} [seen]
 */
export function strictFetch(api, seen = []) {
  return async (/** @type {string} */ url, /** @type {{ body: string }} */ init) => {
    const body = JSON.parse(init.body);
    seen.push(body);
    const model = modelOf(url, body);
    if (api === "gemini") return gemini(model, body);
    if (api === "anthropic") return anthropic(model, body);
    return responses(model, body);
  };
}

export const MODELS = { gemini: "gemini-3-pro-preview", anthropic: "claude-sonnet-4-5", responses: "gpt-5-codex" };
export { THOUGHT, sig, DUMMY };
