// @ts-check
// `toolnexus-wasm/ui`: the AI SDK's UI message stream protocol (what `useChat` reads, version
// `v1`) out of a run's events, and what `useChat` sends back into a prompt and history, or into
// the answer that resumes a halted run. JS only, so the default entry does not grow; it reads
// the events and results of any entry. Decisions: docs/decisions/ui.md.

export { portChatTransport, serveChatPort } from "./ui-port.js";
export { chatAnswers } from "./ui-kept.js";

/** The headers of a UI message stream response (the AI SDK's `UI_MESSAGE_STREAM_HEADERS`). */
export const UI_MESSAGE_STREAM_HEADERS = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
});

// Our finish reasons in the protocol's words.
const FINISH = { stop: "stop", tool_calls: "tool-calls", length: "length", content_filter: "content-filter", refusal: "content-filter" };

/**
 * The UI message chunks of a run: `client.stream(...)` / `streamWithAnswer(...)` (any async
 * iterable of stream events) in, a `ReadableStream` of chunks out, pulled one event at a time
 * (the run's backpressure holds); cancelling it leaves the event stream, which aborts the run.
 * `shown`: the tool calls the client's message already holds, which a resumed run (`streamWithAnswer`
 * of `fromUIMessages`' `resume`) goes on with: their inputs are not sent again (the AI SDK would
 * show them twice and call a client tool again), only their outputs, in the message's last step.
 * @param {AsyncIterable<any>} events
 * @param {{ messageId?: string, sendReasoning?: boolean, sendState?: boolean, shown?: string[], onError?: (error: unknown) => string }} [options]
 * @returns {ReadableStream<any>}
 */
export function toUIMessageStream(events, options = {}) {
  const it = events[Symbol.asyncIterator]();
  const out = new Chunks(options);
  let finished = false;
  return new ReadableStream({
    start(c) {
      c.enqueue({ type: "start", ...(options.messageId ? { messageId: options.messageId } : {}) });
    },
    async pull(c) {
      try {
        // Until an event gives a chunk: a pull that enqueues nothing is not called again, and
        // the read waiting on it would wait for ever (`usage` events give none).
        for (;;) {
          const { value, done } = await it.next();
          if (done) {
            for (const chunk of out.end()) c.enqueue(chunk);
            finished = true;
            return c.close();
          }
          const chunks = out.event(value);
          for (const chunk of chunks) c.enqueue(chunk);
          if (chunks.length) return;
        }
      } catch (e) {
        for (const chunk of out.fail(e)) c.enqueue(chunk);
        finished = true;
        c.close();
      }
    },
    async cancel() {
      if (!finished) await it.return?.();
    },
  });
}

/**
 * `toUIMessageStream` as a `Response` (server-sent events, `data: <chunk>` lines, then
 * `data: [DONE]`): what a Worker or a Node handler returns to `useChat`.
 * @param {AsyncIterable<any>} events
 * @param {ResponseInit & Parameters<typeof toUIMessageStream>[1]} [init]
 */
export function toUIMessageStreamResponse(events, init = {}) {
  const { messageId, sendReasoning, sendState, shown, onError, ...rest } = init;
  return uiMessageStreamResponse(toUIMessageStream(events, { messageId, sendReasoning, sendState, shown, onError }), rest);
}

/**
 * A stream of UI message chunks (`toUIMessageStream`'s, or `chatAnswers`') as the protocol's
 * `Response`; `null` (no answer to reconnect to) is the `204` the AI SDK's transport expects.
 * @param {ReadableStream<any> | null} chunks
 * @param {ResponseInit} [init]
 */
export function uiMessageStreamResponse(chunks, init = {}) {
  if (!chunks) return new Response(null, { status: 204 });
  const encoder = new TextEncoder();
  const sse = new TransformStream({
    transform(chunk, c) {
      c.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    },
    flush(c) {
      c.enqueue(encoder.encode("data: [DONE]\n\n"));
    },
  });
  const { headers, ...rest } = init;
  /** @type {Record<string, string>} */
  const all = { ...UI_MESSAGE_STREAM_HEADERS };
  new Headers(headers).forEach((v, k) => (all[k] = v));
  return new Response(chunks.pipeThrough(sse), { status: 200, ...rest, headers: all });
}

/** The chunks each event becomes: text and reasoning parts opened and closed, steps around model turns. */
class Chunks {
  constructor(/** @type {{ sendReasoning?: boolean, sendState?: boolean, shown?: string[], onError?: (error: unknown) => string }} */ options) {
    this.options = options;
    this.shown = new Set(options.shown ?? []);
    /** @type {{ type: "text" | "reasoning", id: string, agent?: string } | undefined} the open text or reasoning part */
    this.open = undefined;
    this.done = false;
    this.parts = 0;
    this.inStep = false;
    // The model's turn is over once tool results come: the next output is a new step.
    this.afterTools = false;
  }

  /** @returns {any[]} */
  event(/** @type {any} */ e) {
    const out = [];
    const step = () => {
      if (this.afterTools && this.inStep) out.push(...this.close(), { type: "finish-step" }), (this.inStep = false);
      this.afterTools = false;
      if (!this.inStep) out.push({ type: "start-step" }), (this.inStep = true);
    };
    const meta = e.agent ? { providerMetadata: { toolnexus: { agent: e.agent } } } : {};
    switch (e?.type) {
      case "text":
      case "reasoning": {
        if (e.type == "reasoning" && this.options.sendReasoning === false) break;
        step();
        if (this.open?.type != e.type || this.open.agent != e.agent) {
          out.push(...this.close());
          this.open = { type: e.type, id: `${e.type}-${this.parts++}`, agent: e.agent };
          out.push({ type: `${e.type}-start`, id: this.open.id, ...meta });
        }
        out.push({ type: `${e.type}-delta`, id: this.open.id, delta: e.delta });
        break;
      }
      case "tool_call":
        if (this.shown.has(e.id)) break;
        step();
        out.push(...this.close(), { type: "tool-input-available", toolCallId: e.id, toolName: e.name, input: e.args ?? {}, ...meta });
        break;
      case "tool_result":
        out.push(...this.close());
        out.push(e.isError ? { type: "tool-output-error", toolCallId: e.id, errorText: e.output } : { type: "tool-output-available", toolCallId: e.id, output: e.output });
        // Its images (a tool's or an MCP server's) as the protocol's file parts, which useChat
        // shows; tagged with the call, so that fromUIMessages gives them back to its result.
        for (const p of e.parts ?? []) {
          if (p.type != "image") continue;
          const url = p.data ? `data:${p.mediaType};base64,${p.data}` : p.url;
          out.push({ type: "file", url, mediaType: p.mediaType || "image/*", providerMetadata: { toolnexus: { toolCallId: e.id, ...(e.agent ? { agent: e.agent } : {}) } } });
        }
        this.afterTools = true;
        break;
      case "pending": {
        const r = e.request;
        out.push(...this.close());
        // An approval is the protocol's own request; any suspension is a data part too, for the
        // client to show (an MCP question's form, a sign-in link).
        if (r?.kind == "approval" && r.callId) out.push({ type: "tool-approval-request", approvalId: r.id, toolCallId: r.callId });
        out.push({ type: "data-toolnexus-suspension", id: r?.id, data: r });
        break;
      }
      case "done": {
        const result = e.result;
        out.push(...this.close());
        if (this.inStep) out.push({ type: "finish-step" }), (this.inStep = false);
        // The request a halted run waits on (the turn's relay calls merged into one), which
        // `fromUIMessages` answers; and its state, for a server that keeps none (`sendState`
        // false when a store keeps it: `ask` with the chat id).
        if (result?.status == "pending") {
          out.push({ type: "data-toolnexus-pending", id: "pending", data: result.pending });
          if (this.options.sendState !== false) out.push({ type: "data-toolnexus-state", id: "state", data: result });
        }
        const finishReason = result?.status == "pending" ? "tool-calls" : (FINISH[/** @type {keyof FINISH} */ (result?.finishReason)] ?? "other");
        const messageMetadata = { toolnexus: { status: result?.status, usage: result?.usage, ...(result?.limit ? { limit: result.limit } : {}) } };
        out.push({ type: "finish", finishReason, messageMetadata });
        this.done = true;
        break;
      }
    }
    return out;
  }

  /** The open text or reasoning part's end. @returns {any[]} */
  close() {
    if (!this.open) return [];
    const end = { type: `${this.open.type}-end`, id: this.open.id };
    this.open = undefined;
    return [end];
  }

  /** The events ended: whatever is open is closed (a stream always ends with `done`). */
  end() {
    const out = this.close();
    if (this.inStep) out.push({ type: "finish-step" });
    if (!this.done) out.push({ type: "finish" });
    return out;
  }

  /** The run failed (or was aborted): the protocol's `error` (or `abort`) chunk. */
  fail(/** @type {any} */ e) {
    const out = this.close();
    if (e?.code == "aborted") return [...out, { type: "abort", reason: String(e.message ?? "aborted") }];
    // Errors of this package never hold a key (they are redacted where they are made). The code
    // leads the text once: some messages (a store's `conflict`) already begin with it.
    const m = String(e?.message ?? e);
    const errorText = this.options.onError ? this.options.onError(e) : e?.code && !m.startsWith(`${e.code}:`) ? `${e.code}: ${m}` : m;
    return [...out, { type: "error", errorText }];
  }
}

/**
 * What `useChat` sent (its `messages`), as the run to make: a new turn (`prompt` and the
 * `history` before it) or the answer to a halted run (`resume`, for `streamWithAnswer`), from
 * the tool outputs (`addToolOutput`) and approval responses (`addToolApprovalResponse`) the last
 * assistant message holds. `waiting` lists the relay calls still without an output: there is
 * nothing to run until they have one. `shown` (with `resume`) is for `toUIMessageStream`: the
 * tool calls the message already holds.
 * @param {any[]} messages
 * @returns {{ prompt: string | any[], history: any[] } | { resume: { state: any, answer: any } | { history: any[], pending: any, answer: any }, pending: any, shown: string[] } | { pending: any, waiting: string[] }}
 */
export function fromUIMessages(messages) {
  if (!Array.isArray(messages) || messages.length == 0) throw new TypeError("fromUIMessages needs useChat's messages: a non-empty array");
  const last = messages[messages.length - 1];
  if (last?.role == "user") return { prompt: prompt(last), history: history(messages.slice(0, -1)) };
  const parts = Array.isArray(last?.parts) ? last.parts : [];
  const pending = findLast(parts, (p) => p.type == "data-toolnexus-pending")?.data;
  if (!pending) throw new TypeError("fromUIMessages: the last message is the assistant's and holds no halted run (data-toolnexus-pending)");
  const tools = new Map(parts.filter(isTool).map((p) => [p.toolCallId, p]));
  const answer = answerOf(pending, tools);
  if (Array.isArray(answer)) return { pending, waiting: answer };
  const state = findLast(parts, (p) => p.type == "data-toolnexus-state")?.data;
  const shown = [...tools.keys()];
  return { pending, shown, resume: state ? { state, answer } : { history: history(messages.slice(0, -1)), pending, answer } };
}

/** The answer the tool parts give to `pending`, or the relay calls still waiting for an output. */
function answerOf(/** @type {any} */ pending, /** @type {Map<string, any>} */ tools) {
  if (pending.kind == "approval") {
    const approval = tools.get(pending.callId)?.approval;
    if (approval?.approved === undefined) return [pending.callId];
    return approval.approved ? { id: pending.id, ok: true } : { id: pending.id, ok: false, reason: approval.reason || "declined" };
  }
  const calls = Array.isArray(pending.data?.calls) ? pending.data.calls : [];
  if (!calls.length) throw new TypeError(`fromUIMessages: a "${pending.kind}" suspension is not answered by a tool output: answer it with streamWithAnswer yourself`);
  const results = [], waiting = [];
  for (const call of calls) {
    const p = tools.get(call.id);
    if (p?.state == "output-available") results.push({ id: call.id, output: typeof p.output == "string" ? p.output : JSON.stringify(p.output ?? null) });
    else if (p?.state == "output-error") results.push({ id: call.id, output: String(p.errorText ?? "error"), isError: true });
    else waiting.push(call.id);
  }
  // As relayAnswer gives it (the wasm checks the answer against the calls when it resumes).
  return waiting.length ? waiting : { id: pending.id, ok: true, data: { results } };
}

const isTool = (/** @type {any} */ p) => typeof p?.type == "string" && (p.type.startsWith("tool-") || p.type == "dynamic-tool") && typeof p.toolCallId == "string";
const toolName = (/** @type {any} */ p) => (p.type == "dynamic-tool" ? p.toolName : p.type.slice(5));

function findLast(/** @type {any[]} */ a, /** @type {(x: any) => boolean} */ f) {
  for (let i = a.length - 1; i >= 0; i--) if (f(a[i])) return a[i];
}

/** A user message's parts as a prompt: its text, or text and images. */
function prompt(/** @type {any} */ m) {
  /** @type {any[]} */
  const parts = [];
  for (const p of m.parts ?? []) {
    if (p.type == "text") parts.push({ type: "text", text: p.text });
    // A data: URL is the image's bytes to the core; "image/*" (a URL of unknown type) says nothing.
    else if (p.type == "file" && String(p.mediaType).startsWith("image/")) parts.push({ type: "image", url: p.url, ...(p.mediaType == "image/*" ? {} : { mediaType: p.mediaType }) });
  }
  return parts.every((p) => p.type == "text") ? parts.map((p) => p.text).join("") : parts;
}

/**
 * Earlier UI messages as a history (OpenAI chat messages, which every style reads): text, tool
 * calls with their outputs, images of user messages. Reasoning parts are shown, not replayed
 * (their provider state is not in a UI message); a halted run's own transcript is in its state.
 */
function history(/** @type {any[]} */ messages) {
  const out = [];
  for (const m of messages) {
    if (m.role == "user" || m.role == "system") {
      const p = prompt(m);
      out.push({ role: m.role, content: typeof p == "string" ? p : p.map((x) => (x.type == "text" ? { type: "text", text: x.text } : { type: "image_url", image_url: { url: x.url } })) });
      continue;
    }
    // One assistant message per step: its text, its calls, then their results, then the
    // results' images as one user message (how OpenAI chat carries them; the core reads such a
    // message back as the last result's parts).
    let text = "", calls = [], results = [], images = [];
    const flush = () => {
      if (text || calls.length) out.push({ role: "assistant", content: text, ...(calls.length ? { tool_calls: calls } : {}) });
      for (const r of results) out.push(r);
      if (images.length && results.length) out.push({ role: "user", content: images });
      (text = ""), (calls = []), (results = []), (images = []);
    };
    for (const p of m.parts ?? []) {
      if (p.type == "step-start" && (text || calls.length)) flush();
      else if (p.type == "text") text += p.text;
      else if (isTool(p) && (p.state == "output-available" || p.state == "output-error")) {
        calls.push({ id: p.toolCallId, type: "function", function: { name: toolName(p), arguments: JSON.stringify(p.input ?? {}) } });
        const output = p.state == "output-error" ? String(p.errorText ?? "error") : typeof p.output == "string" ? p.output : JSON.stringify(p.output ?? null);
        results.push({ role: "tool", tool_call_id: p.toolCallId, content: output });
      } else if (p.type == "file" && p.providerMetadata?.toolnexus?.toolCallId && String(p.mediaType).startsWith("image/")) images.push({ type: "image_url", image_url: { url: p.url } });
    }
    flush();
  }
  return out;
}
