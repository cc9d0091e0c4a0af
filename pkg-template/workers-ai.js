// @ts-check
// `toolnexus-wasm/workers-ai`: the Workers AI binding (`env.AI`) as the loop's model, built on
// `toolnexus-wasm/in-process`. Each model call becomes one `env.AI.run(model, inputs, options)`;
// its answer, in whichever of the binding's shapes the model family speaks (the older models'
// `{ response, tool_calls: [{ name, arguments }] }`, the OpenAI chat-completions `choices[]`,
// streamed as server-sent events of either), is read back into one assistant turn. The quirks
// the binding has are absorbed here, so the loop sees a well-behaved provider. JS only, so the
// default entry does not grow. Decisions: docs/decisions/workers-ai.md.

import { fail } from "./host.js";
import { inProcessModel } from "./in-process.js";

// Models of the older, "traditional" function-calling family: flat tools in the request.
// Every other model is sent the OpenAI tool shape (both answer shapes are read for any model).
const FLAT_TOOLS = /^@(cf|hf)\/(meta|meta-llama|mistral|mistralai|nousresearch|fblgit|thebloke)\//i;
// The binding's tool-call ids must match this; others are mapped (see `wireId`).
const WIRE_ID = /^[a-zA-Z0-9]{9}$/;
// Error codes the binding puts at the head of its messages ("AiError: 3040: ...").
const OUT_OF_CAPACITY = 3040, RATE_LIMITED = 3036, JSON_SCHEMA_STREAM = 5023;

/**
 * Client options (spread them into `createClient`) whose model calls run on the Workers AI
 * binding. `retries` defaults to 2: an out-of-capacity answer (3040) is retried as a 429.
 * @param {any} ai the binding (`env.AI`)
 * @param {{ model: string, gateway?: { [key: string]: unknown }, retries?: number }} options
 */
export function workersAI(ai, options) {
  if (typeof ai?.run != "function") {
    throw fail("bad_input", "workersAI: the first argument must be the Workers AI binding (env.AI); add `\"ai\": { \"binding\": \"AI\" }` to wrangler.jsonc and pass env.AI");
  }
  const model = options?.model;
  if (typeof model != "string" || !model) {
    throw fail("bad_input", "workersAI: `model` must name a Workers AI text model, e.g. workersAI(env.AI, { model: \"@cf/meta/llama-3.3-70b-instruct-fp8-fast\" })");
  }
  const runOptions = options.gateway ? { gateway: options.gateway } : {};
  const flat = FLAT_TOOLS.test(model);
  /** @param {any} request */
  const generate = async (request) => {
    const inputs = inputsOf(request, flat);
    let out;
    try {
      out = await ai.run(model, inputs, runOptions);
    } catch (e) {
      // A model that cannot stream under a JSON schema (5023) is asked again whole; the seam
      // serves the whole turn as the stream the loop asked for.
      if (!(inputs.stream && codeOf(e) == JSON_SCHEMA_STREAM)) throw errorOf(e);
      out = await ai.run(model, { ...inputs, stream: false }, runOptions).catch((e2) => { throw errorOf(e2); });
    }
    const turn = turnIndex(request.messages);
    // Some models answer a stream request with one JSON object: read as a whole turn.
    if (isStream(out)) return deltasOf(out, request.tools, turn);
    return turnOf(out, request.tools, turn);
  };
  return inProcessModel({ generate, model, retries: options.retries ?? 2 });
}

// ---- the request the binding is given ----

/** The binding's inputs for a request: messages with valid ids and no `null` content, tools in the family's shape. */
export function inputsOf(request, flat) {
  /** @type {Record<string, any>} */
  const inputs = { messages: request.messages.map(messageOf) };
  if (request.tools.length) {
    inputs.tools = request.tools.map((t) => (flat ? { name: t.name, description: t.description, parameters: t.parameters } : { type: "function", function: t }));
    const c = request.toolChoice;
    if (c !== undefined && !flat) inputs.tool_choice = typeof c == "string" ? c : { type: "function", function: { name: c.name } };
  }
  if (request.stream) inputs.stream = true;
  for (const [k, v] of Object.entries(request.params)) if (k != "parallel_tool_calls") inputs[k] = v;
  return inputs;
}

function messageOf(m) {
  switch (m.role) {
    case "assistant": {
      // The binding refuses `content: null`: an assistant turn that only called tools has "".
      /** @type {Record<string, any>} */
      const out = { role: "assistant", content: m.content ?? "" };
      if (m.toolCalls?.length) out.tool_calls = m.toolCalls.map((c) => ({ id: wireId(c.id), type: "function", function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } }));
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: wireId(m.toolCallId), name: m.toolName, content: m.content ?? "" };
    default:
      return { role: m.role, content: typeof m.content == "string" ? m.content : m.content.map(partOf) };
  }
}

function partOf(p) {
  if (p.type == "image") return { type: "image_url", image_url: { url: p.url ?? `data:${p.mediaType};base64,${p.data}` } };
  return p.type == "text" ? { type: "text", text: p.text } : p;
}

/**
 * A tool-call id the binding accepts (nine ASCII letters or digits). An id already of that form
 * is kept; another (a model's own "functions.read_page:0", one made by the seam) is mapped by
 * a hash, so the same transcript maps the same way in any process: a halted run resumed
 * elsewhere sends the ids it sent before, with no table kept in state.
 */
export function wireId(id) {
  const s = String(id ?? "");
  if (WIRE_ID.test(s)) return s;
  // Two 32-bit FNV-1a hashes (different offsets) give 9 base-62 digits with room to spare.
  let a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 0x2f) >>> 0;
  }
  const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let n = BigInt(a) * 4294967296n + BigInt(b), out = "";
  for (let i = 0; i < 9; i++, n /= 62n) out += digits[Number(n % 62n)];
  return out;
}

// The ordinal of the turn being asked for: part of each new call's id, since some models
// number their calls afresh each turn ("functions.x:0" again and again).
function turnIndex(messages) {
  return messages.filter((m) => m.role == "assistant").length;
}

// ---- errors ----

function codeOf(e) {
  const m = /(?:^|\b)(\d{4})(?::|\b)/.exec(String(e?.message ?? e ?? ""));
  return m ? Number(m[1]) : undefined;
}

/** The binding's error as the seam reads it: out of capacity and rate limits as 429 (retried). */
function errorOf(e) {
  if (e?.name == "AbortError") return e;
  const code = codeOf(e);
  const message = `Workers AI: ${e?.message ?? String(e)}`;
  const err = Object.assign(new Error(code == JSON_SCHEMA_STREAM ? `${message} (asked again without streaming, and that failed too)` : message), { code });
  if (code == OUT_OF_CAPACITY || code == RATE_LIMITED) return Object.assign(err, { status: 429 });
  if (Number.isInteger(e?.status)) return Object.assign(err, { status: e.status });
  return err;
}

// ---- the answer, whole ----

/** One whole answer (either family's shape) as the seam's turn. */
export function turnOf(out, tools, turn) {
  if (out === null || typeof out != "object") throw Object.assign(new Error(`Workers AI answered ${out === null ? "null" : typeof out}, not an object`), { status: 502 });
  const choice = out.choices?.[0];
  const message = choice?.message ?? {};
  let text = choice ? message.content ?? "" : out.response ?? "";
  // JSON mode on the older models answers `response` as the object itself.
  if (typeof text != "string") text = JSON.stringify(text);
  const raw = choice ? message.tool_calls : out.tool_calls;
  let toolCalls = (Array.isArray(raw) ? raw : []).map((c, i) => callOf(c, turn, i)).filter((c) => c.name);
  if (!toolCalls.length && tools.length) {
    const leaked = leakedCalls(text, tools, turn);
    if (leaked) (toolCalls = leaked), (text = "");
  }
  /** @type {Record<string, any>} */
  const result = { text, toolCalls };
  const usage = usageOf(out.usage);
  if (usage) result.usage = usage;
  const finish = finishOf(choice?.finish_reason ?? out.finish_reason, toolCalls.length > 0);
  if (finish) result.finishReason = finish;
  return result;
}

// A call in either shape: `{ name, arguments }` (arguments an object or its JSON) or
// `{ id, type: "function", function: { name, arguments } }`.
function callOf(c, turn, i) {
  const f = c?.function ?? c;
  const id = c?.id ? wireId(`${turn}:${i}:${c.id}`) : wireId(`${turn}:${i}:`);
  const args = f?.arguments ?? f?.parameters;
  return { id, name: typeof f?.name == "string" ? f.name : "", args: args == null || args === "" ? {} : args };
}

/**
 * Tool calls a model wrote as its text instead of as `tool_calls` (gpt-oss streams a forced
 * call that way; Hermes-style models wrap them in `<tool_call>` tags): read only when the whole
 * text is such a call (or a list of them) naming a declared tool, so an answer that merely
 * quotes JSON stays an answer.
 */
export function leakedCalls(text, tools, turn) {
  let s = text.trim();
  if (!s) return undefined;
  const tagged = [...s.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)];
  if (tagged.length && !s.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, "").trim()) s = `[${tagged.map((m) => m[1]).join(",")}]`;
  if (!/^[[{]/.test(s)) return undefined;
  let v;
  try {
    v = JSON.parse(s);
  } catch {
    return undefined;
  }
  const names = new Set(tools.map((t) => t.name));
  const calls = [];
  for (const item of Array.isArray(v) ? v : [v]) {
    const f = item?.type == "function" && item.function ? item.function : item;
    if (!f || typeof f != "object" || !names.has(f.name)) return undefined;
    let args = f.arguments ?? f.parameters;
    if (args === undefined) {
      // A forced call written flat: `{ "name": "get_weather", "location": "London" }`.
      const { name: _n, type: _t, ...rest } = f;
      args = rest;
    }
    if (typeof args == "string") {
      try {
        args = JSON.parse(args);
      } catch {
        return undefined;
      }
    }
    if (args === null || typeof args != "object" || Array.isArray(args)) return undefined;
    calls.push({ id: wireId(`${turn}:${calls.length}:`), name: f.name, args });
  }
  return calls.length ? calls : undefined;
}

function usageOf(u) {
  if (!u || typeof u != "object") return undefined;
  /** @type {Record<string, number>} */
  const out = { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0, totalTokens: u.total_tokens ?? 0 };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (cached) out.cacheReadTokens = cached;
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  if (reasoning) out.reasoningTokens = reasoning;
  return out;
}

// The binding's finish reason as the seam's, or undefined to let the seam decide from the calls.
function finishOf(reason, called) {
  if (called) return "tool_calls";
  if (reason == "length" || reason == "model_length") return "length";
  if (reason == "content_filter") return "content_filter";
  return reason == "stop" ? "stop" : undefined;
}

// ---- the answer, streamed ----

function isStream(x) {
  return x != null && typeof x.getReader == "function";
}

/**
 * The binding's server-sent events as the seam's deltas. Text goes on as it comes, unless the
 * model may be writing a tool call as text (tools declared and the text opens with `{`, `[` or
 * `<tool_call>`): that text is held to the end and read as calls or let through whole. Tool
 * calls are put together by index (their arguments come in pieces; a last chunk of nulls
 * closes them) and given whole at the end.
 * @returns {AsyncGenerator<any>}
 */
export async function* deltasOf(stream, tools, turn) {
  const calls = [];
  let usage, reason, held = "", holding = undefined;
  for await (const chunk of events(stream)) {
    const choice = chunk.choices?.[0];
    const delta = choice ? choice.delta ?? {} : chunk;
    let text = choice ? delta.content : chunk.response;
    if (text != null && typeof text != "string") text = JSON.stringify(text);
    if (text) {
      held += text;
      // Undecided while only whitespace has come; without tools there is nothing to hold for.
      if (holding === undefined && held.trim()) holding = tools.length > 0 && /^[[{<]/.test(held.trimStart());
      if (holding === false) (yield { type: "text", delta: held }), (held = "");
    }
    for (const c of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) gather(calls, c);
    if (chunk.usage) usage = chunk.usage;
    reason = choice?.finish_reason ?? chunk.finish_reason ?? reason;
  }
  const whole = calls.filter(Boolean).map((c, i) => callOf(c, turn, i)).filter((c) => c.name);
  const leaked = !whole.length && held ? leakedCalls(held, tools, turn) : undefined;
  if (held && !leaked) yield { type: "text", delta: held };
  const toolCalls = leaked ?? whole;
  for (const c of toolCalls) yield { type: "tool_call", ...c };
  const u = usageOf(usage);
  if (u) yield { type: "usage", usage: u };
  const finish = finishOf(reason, toolCalls.length > 0);
  if (finish) yield { type: "finish", finishReason: finish };
}

// One streamed call piece into the calls so far: the native shape gives whole calls (no index),
// the OpenAI shape gives pieces by `index` whose `arguments` are concatenated; nulls add nothing.
function gather(calls, c) {
  const f = c?.function ?? c;
  // A piece with no index and no name is a finalization chunk (all nulls) or more arguments of
  // the last call: never a call of its own.
  if (!Number.isInteger(c?.index) && !f?.name) {
    const a = f?.arguments;
    if (typeof a == "string" && a && calls.length) calls[calls.length - 1].arguments += a;
    return;
  }
  const i = Number.isInteger(c?.index) ? c.index : calls.length;
  const into = (calls[i] ??= { id: undefined, name: "", arguments: "" });
  if (c?.id) into.id = c.id;
  if (typeof f?.name == "string" && f.name) into.name = f.name;
  const a = f?.arguments ?? f?.parameters;
  if (a != null) {
    if (typeof a == "string") into.arguments += a;
    else into.arguments = JSON.stringify(a);
  }
}

/** The `data:` events of an SSE byte stream, parsed; `[DONE]` ends it. */
async function* events(stream) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : typeof value == "string" ? value : decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trim();
        if (data == "[DONE]") return;
        if (!data) continue;
        let chunk;
        try {
          chunk = JSON.parse(data);
        } catch {
          throw Object.assign(new Error(`Workers AI streamed an event that is not JSON: ${data.slice(0, 80)}`), { status: 502 });
        }
        if (chunk && typeof chunk == "object") yield chunk;
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock?.();
    await stream.cancel?.().catch(() => {});
  }
}
