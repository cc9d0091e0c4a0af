// @ts-check
// `toolnexus-wasm/in-process`: a model that is a function. `inProcessModel({ generate })` gives
// the client options whose `fetch` serves the loop's model calls from `generate` instead of the
// network: the loop writes its OpenAI chat-completions request as for any provider, this module
// reads it into a plain request, calls `generate`, and writes the turn back as that provider's
// reply (whole, or as its server-sent events when the loop streams). Everything past the model
// call (relay tools, `waitFor`, halts, stores, streams, Workflows, signed states) is the loop's
// own and runs unchanged. JS only, so the default entry does not grow. Decisions:
// docs/decisions/in-process.md.

import { fail } from "./host.js";

/** The base URL the client is given: never fetched (`.invalid` cannot resolve). */
export const IN_PROCESS_BASE_URL = "https://in-process.invalid/v1";

// The request fields read into the request's own members; the rest are `params`.
const OWN = new Set(["model", "messages", "tools", "tool_choice", "stream", "stream_options"]);
const FINISH = new Set(["stop", "tool_calls", "length", "content_filter"]);

/**
 * Client options (spread them into `createClient`) whose model calls go to `generate`.
 * `retries` is 0 unless given: a function that threw is asked again only if the caller says so.
 * @param {{ generate: (request: any, context: { signal?: AbortSignal }) => any, model?: string, retries?: number }} options
 */
export function inProcessModel(options) {
  const generate = options?.generate;
  if (typeof generate != "function") {
    throw fail("bad_input", "inProcessModel: `generate` must be a function (request, { signal }) returning the assistant's turn, e.g. inProcessModel({ generate: async (req) => ({ text: \"hi\" }) })");
  }
  return {
    style: /** @type {const} */ ("openai"),
    baseUrl: IN_PROCESS_BASE_URL,
    model: options.model ?? "in-process",
    retries: options.retries ?? 0,
    /** @type {(url: string, init: { body: string, signal?: AbortSignal }, call?: { callPath: string }) => Promise<any>} */
    fetch: (_url, init, call) => serve(generate, init, call),
  };
}

/**
 * One model call: the body read, `generate` called, its turn written back. What `generate`
 * throws is the reply's error (its `status` when it has one, so a 429 or 503 is retried as any
 * provider's; else 500); an abort stays an abort.
 */
async function serve(generate, init, call) {
  const body = JSON.parse(init.body);
  const request = requestOf(body, call?.callPath);
  let out;
  try {
    out = await generate(request, { signal: init.signal });
  } catch (e) {
    if (init.signal?.aborted || e?.name === "AbortError") throw e;
    const status = Number.isInteger(e?.status) && e.status >= 400 && e.status <= 599 ? e.status : 500;
    return errorReply(status, `in-process model threw: ${e?.message ?? String(e)}`);
  }
  const idBase = `call_${request.messages.filter((m) => m.role == "assistant").length}_`;
  try {
    if (!request.stream) return jsonReply(await turnOf(out, idBase));
    return streamReply(isIterable(out) ? out[Symbol.asyncIterator]() : eventsOf(await turnOf(out, idBase)), idBase);
  } catch (e) {
    if (e?.code != "in_process_shape") throw e;
    return errorReply(502, e.message);
  }
}

// ---- the request `generate` receives ----

/**
 * The loop's chat-completions body as a plain request: messages with camelCase fields, tool
 * calls with parsed `args`, a tool result with the name of the tool it answers.
 */
function requestOf(body, callPath) {
  const names = new Map();
  const messages = body.messages.map((m) => {
    switch (m.role) {
      case "assistant": {
        const toolCalls = (m.tool_calls ?? []).map((c) => {
          names.set(c.id, c.function.name);
          return { id: c.id, name: c.function.name, args: argsOf(c.function.arguments) };
        });
        return toolCalls.length ? { role: "assistant", content: m.content ?? "", toolCalls } : { role: "assistant", content: m.content ?? "" };
      }
      case "tool":
        return { role: "tool", toolCallId: m.tool_call_id, toolName: names.get(m.tool_call_id) ?? "", content: m.content };
      default:
        return { role: m.role, content: typeof m.content == "string" ? m.content : m.content.map(partOf) };
    }
  });
  const tools = (body.tools ?? []).map(({ function: f }) => ({ name: f.name, description: f.description ?? "", parameters: f.parameters }));
  /** @type {Record<string, any>} */
  const request = { model: body.model, messages, tools, stream: body.stream === true, params: {}, body };
  const choice = body.tool_choice;
  if (choice !== undefined) request.toolChoice = typeof choice == "string" ? choice : { name: choice.function?.name };
  for (const k of Object.keys(body)) if (!OWN.has(k)) request.params[k] = body[k];
  if (callPath) request.callPath = callPath;
  return request;
}

function argsOf(text) {
  try {
    const v = JSON.parse(text);
    if (v !== null && typeof v == "object" && !Array.isArray(v)) return v;
  } catch {}
  return {};
}

// An OpenAI content part as one of the package's parts: text, or an image (a `data:` URL as
// base64 `data` with its media type).
function partOf(p) {
  if (p.type == "text") return { type: "text", text: p.text };
  if (p.type == "image_url") {
    const url = p.image_url?.url ?? "";
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return m ? { type: "image", mediaType: m[1], data: m[2] } : { type: "image", url };
  }
  return p;
}

// ---- the turn `generate` returns ----

function shapeError(message) {
  return fail("in_process_shape", `in-process model: ${message}; return { text?, toolCalls?: [{ id?, name, args }], usage?, finishReason? }, or an async iterable of { type: "text", delta } / { type: "tool_call", id?, name, args } / { type: "usage", usage } / { type: "finish", finishReason } events`);
}

/** A turn checked and made whole: text, calls with ids and JSON arguments, usage, finish reason. */
async function turnOf(out, idBase) {
  if (isIterable(out)) return collect(out, idBase);
  if (out === null || typeof out != "object") throw shapeError(`generate returned ${describe(out)}`);
  if (out.text !== undefined && typeof out.text != "string") throw shapeError(`text is ${describe(out.text)}, not a string`);
  if (out.toolCalls !== undefined && !Array.isArray(out.toolCalls)) throw shapeError(`toolCalls is ${describe(out.toolCalls)}, not an array`);
  const calls = (out.toolCalls ?? []).map((c, i) => callOf(c, idBase + i, i));
  return { text: out.text ?? "", calls, usage: out.usage, finishReason: finishOf(out.finishReason, calls.length > 0) };
}

async function collect(events, idBase) {
  let text = "", usage, finishReason;
  const calls = [];
  for await (const e of events) {
    if (e?.type == "text") text += deltaOf(e);
    else if (e?.type == "tool_call") calls.push(callOf(e, idBase + calls.length, calls.length));
    else if (e?.type == "usage") usage = e.usage;
    else if (e?.type == "finish") finishReason = e.finishReason;
    else throw shapeError(`an event is ${describe(e?.type ?? e)}`);
  }
  return { text, calls, usage, finishReason: finishOf(finishReason, calls.length > 0) };
}

function callOf(c, id, i) {
  if (typeof c?.name != "string" || !c.name) throw shapeError(`tool call ${i} has no name`);
  const args = c.args ?? {};
  if (typeof args != "string" && (typeof args != "object" || Array.isArray(args))) throw shapeError(`tool call ${i}'s args are ${describe(args)}, not an object`);
  return { id: typeof c.id == "string" && c.id ? c.id : id, name: c.name, arguments: typeof args == "string" ? args : JSON.stringify(args) };
}

function deltaOf(e) {
  if (typeof e.delta != "string") throw shapeError(`a text event's delta is ${describe(e.delta)}, not a string`);
  return e.delta;
}

function finishOf(reason, called) {
  if (reason === undefined) return called ? "tool_calls" : "stop";
  if (!FINISH.has(reason)) throw shapeError(`finishReason is ${describe(reason)}, not one of ${[...FINISH].join(", ")}`);
  return reason;
}

function usageOf(u) {
  if (u === undefined) return undefined;
  const n = (x) => (Number.isFinite(x) && x >= 0 ? Math.floor(x) : 0);
  const prompt = n(u?.promptTokens), completion = n(u?.completionTokens);
  /** @type {Record<string, any>} */
  const out = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: n(u?.totalTokens) || prompt + completion };
  if (n(u?.cacheReadTokens)) out.prompt_tokens_details = { cached_tokens: n(u.cacheReadTokens) };
  if (n(u?.reasoningTokens)) out.completion_tokens_details = { reasoning_tokens: n(u.reasoningTokens) };
  return out;
}

function isIterable(x) {
  return x != null && typeof x[Symbol.asyncIterator] == "function";
}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v == "string" ? JSON.stringify(v.slice(0, 40)) : typeof v;
}

// ---- the reply the loop reads ----

function jsonReply(turn) {
  /** @type {Record<string, any>} */
  const message = { role: "assistant", content: turn.text };
  if (turn.calls.length) message.tool_calls = turn.calls.map(({ id, name, arguments: a }) => ({ id, type: "function", function: { name, arguments: a } }));
  /** @type {Record<string, any>} */
  const reply = { choices: [{ index: 0, message, finish_reason: turn.finishReason }] };
  const usage = usageOf(turn.usage);
  if (usage) reply.usage = usage;
  const text = JSON.stringify(reply);
  return { status: 200, text: async () => text };
}

function errorReply(status, message) {
  const text = JSON.stringify({ error: { message } });
  return { status, text: async () => text };
}

/**
 * The turn as chat-completions server-sent events: a `Response` whose body is pulled one event
 * at a time (the loop's backpressure reaches `generate`'s iterator); cancelling the body ends
 * the iterator. A whole turn is written as its events.
 */
function streamReply(it, idBase) {
  const encoder = new TextEncoder();
  const chunk = (delta, extra) => encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`);
  const state = { calls: 0, finishReason: undefined, usage: undefined, done: false };
  const body = new ReadableStream({
    // Each pull enqueues something: events that only set state (usage, finish) are read past,
    // since a pull that enqueues nothing is not called again and the stream would stall.
    async pull(c) {
      for (;;) {
        const { value: e, done } = await it.next();
        if (done) {
          state.done = true;
          c.enqueue(chunk({}, { finish_reason: finishOf(state.finishReason, state.calls > 0) }));
          const usage = usageOf(state.usage);
          if (usage) c.enqueue(encoder.encode(`data: ${JSON.stringify({ choices: [], usage })}\n\n`));
          c.enqueue(encoder.encode("data: [DONE]\n\n"));
          return c.close();
        }
        if (e?.type == "text") return c.enqueue(chunk({ content: deltaOf(e) }));
        if (e?.type == "tool_call") {
          const k = state.calls++;
          const { id, name, arguments: a } = callOf(e, idBase + k, k);
          return c.enqueue(chunk({ tool_calls: [{ index: k, id, type: "function", function: { name, arguments: a } }] }));
        }
        if (e?.type == "usage") state.usage = e.usage;
        else if (e?.type == "finish") state.finishReason = e.finishReason;
        else throw shapeError(`an event is ${describe(e?.type ?? e)}`);
      }
    },
    async cancel() {
      if (!state.done) await it.return?.();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

// A whole turn's events, for a streamed call whose `generate` returned one turn.
function* eventsOf(turn) {
  if (turn.text) yield { type: "text", delta: turn.text };
  for (const c of turn.calls) yield { type: "tool_call", id: c.id, name: c.name, args: c.arguments };
  if (turn.usage) yield { type: "usage", usage: turn.usage };
  yield { type: "finish", finishReason: turn.finishReason };
}
