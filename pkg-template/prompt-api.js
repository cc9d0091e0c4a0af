// @ts-check
// `toolnexus-wasm/prompt-api`: Chrome's built-in model (`LanguageModel`, the Prompt API) as the
// loop's model, on the in-process seam (`inProcessModel`). `promptApi({ mode, fallback })`
// resolves once it knows what the browser offers: client options whose `generate` drives a
// `LanguageModel` session with native open-loop tool calls ("native"), or with tool calls
// through a `responseConstraint` JSON Schema ("constrained"), or the caller's `fallback` client
// options (a cloud model). Each model call rebuilds its session from the transcript the loop
// sends (initialPrompts from history), so a run halted in one service worker resumes in the
// next. JS only, its own subpath. Decisions: docs/decisions/prompt-api.md.

import { fail } from "./host.js";
import { inProcessModel } from "./in-process.js";

const MODES = new Set(["native", "constrained", "auto"]);

/**
 * Client options for Chrome's built-in model, or the fallback's when it cannot serve.
 * @param {{ mode?: "native" | "constrained" | "auto", fallback?: Record<string, any>, languageModel?: any, sessionOptions?: Record<string, any>, download?: boolean, onEvent?: (event: any) => void, model?: string }} [options]
 */
export async function promptApi(options = {}) {
  const mode = options.mode ?? "auto";
  if (!MODES.has(mode)) throw refusal("bad_input", `promptApi: mode is ${JSON.stringify(mode)}; use "native", "constrained" or "auto"`);
  const onEvent = options.onEvent ?? (() => {});
  const LM = options.languageModel ?? /** @type {any} */ (globalThis).LanguageModel;
  const give = (/** @type {string} */ reason, /** @type {string} */ message) => {
    if (options.fallback) {
      onEvent({ type: "fallback", reason, message });
      return withMode({ ...options.fallback }, "fallback");
    }
    throw refusal("provider_error", `${message}; or pass promptApi({ fallback: { style, baseUrl, model, apiKey } }) to use a cloud model instead`, reason);
  };
  if (!LM || typeof LM.create != "function") return give("unavailable", "promptApi: this context has no LanguageModel (Chrome 138+ in extension pages and workers; on the web Chrome 148+ desktop)");

  const nativeAsked = mode == "native" || (mode == "auto" && "LanguageModelToolCall" in globalThis);
  if (mode == "native" && !("LanguageModelToolCall" in globalThis)) return give("no_tool_use", "promptApi: this Chrome has no LanguageModelToolCall (tool use is behind chrome://flags/#prompt-api-tool-use); use mode \"constrained\" or \"auto\"");
  /** @type {"native" | "constrained"} */
  let chosen = nativeAsked ? "native" : "constrained";
  let state = await LM.availability({ ...options.sessionOptions, ...io(chosen) });
  if (state == "unavailable" && chosen == "native" && mode == "auto") {
    chosen = "constrained";
    state = await LM.availability({ ...options.sessionOptions, ...io(chosen) });
  }
  if (state == "unavailable") return give("unavailable", `promptApi: LanguageModel.availability() is "unavailable" for ${chosen} tool calls on this device`);
  if (state == "downloadable" || state == "downloading") {
    if (options.download === false) return give("downloadable", `promptApi: the on-device model is ${state}; call promptApi from a click (user activation) with download not false to fetch it`);
    try {
      // Creating a session starts the download (it needs user activation); progress goes to onEvent.
      const s = await LM.create({ ...options.sessionOptions, ...io(chosen), monitor: (/** @type {any} */ m) => m.addEventListener("downloadprogress", (/** @type {any} */ e) => onEvent({ type: "download", loaded: e.loaded })) });
      s.destroy?.();
    } catch (e) {
      if (e?.name == "NotAllowedError") return give("needs_activation", "promptApi: downloading the on-device model needs user activation; call promptApi from a click handler in an extension page (not the service worker) once");
      return give("download_failed", `promptApi: the on-device model did not download: ${e?.message ?? e}`);
    }
  }
  const generate = chosen == "native" ? nativeGenerate(LM, options, onEvent) : constrainedGenerate(LM, options, onEvent);
  return withMode(inProcessModel({ generate, model: options.model ?? `prompt-api-${chosen}` }), chosen);
}

function withMode(o, mode) {
  // Not enumerable: spreading the options into createClient carries only client options.
  return Object.defineProperty(o, "mode", { value: mode, enumerable: false });
}

function refusal(code, message, reason) {
  const e = fail(code, message);
  if (reason) Object.defineProperty(e, "reason", { value: reason, enumerable: true });
  return e;
}

/**
 * The inputs and outputs a session declares: Chrome refuses tool calls it was not told of.
 * `image` only when the transcript holds one: declaring it can need another model download.
 */
function io(mode, images = false) {
  const inputs = [{ type: "text" }, ...(images ? [{ type: "image" }] : [])];
  return mode == "native"
    ? { expectedInputs: [...inputs, { type: "tool-call" }, { type: "tool-response" }], expectedOutputs: [{ type: "text" }, { type: "tool-call" }] }
    : { expectedInputs: inputs, expectedOutputs: [{ type: "text" }] };
}

const hasImage = (request) => request.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type == "image"));

// ---- one model call ----

/**
 * The transcript split where the model last spoke: history for `initialPrompts`, and what came
 * after (the user's message, or the tool results) as the prompt.
 */
function split(messages) {
  let cut = messages.findLastIndex((m) => m.role == "assistant") + 1;
  if (cut == 0) cut = messages.findLastIndex((m) => m.role == "system") + 1;
  return { history: messages.slice(0, cut), input: messages.slice(cut) };
}

/**
 * A session built from `history`, `input` prompted, the reply turned into a turn. Chrome's
 * errors become the model call's errors with an HTTP-like status (so the loop types and, for a
 * 429-like busy model, retries them) and a message naming the fix.
 */
async function call(LM, options, onEvent, request, signal, sessionExtra, toHistory, toInput, read) {
  const { history, input } = split(request.messages);
  const { promptOptions: promptExtra, ...create } = sessionExtra;
  let session;
  try {
    session = await LM.create({ ...options.sessionOptions, ...create, initialPrompts: toHistory(history), signal });
  } catch (e) {
    throw chromeError(e, "creating the session");
  }
  const onOverflow = () => onEvent({ type: "contextoverflow" });
  session.addEventListener?.("contextoverflow", onOverflow);
  try {
    const prompt = toInput(input);
    const before = used(session);
    const measure = session.measureContextUsage ?? session.measureInputUsage;
    const measured = measure ? await Promise.resolve(measure.call(session, prompt, promptExtra)).catch(() => undefined) : undefined;
    const promptOptions = { ...promptExtra, signal };
    const reply = await read(session, prompt, promptOptions);
    const after = used(session);
    const windowSize = session.contextWindow ?? session.inputQuota;
    if (Number.isFinite(after)) onEvent({ type: "context", used: after, window: windowSize });
    const promptTokens = Number.isFinite(measured) ? before + measured : after;
    reply.usage = { promptTokens, completionTokens: Math.max(0, (after ?? 0) - (promptTokens ?? 0)) };
    return reply;
  } catch (e) {
    if (signal?.aborted || e?.name == "AbortError") throw e;
    if (e?.status) throw e;
    throw chromeError(e, "prompting", session);
  } finally {
    session.removeEventListener?.("contextoverflow", onOverflow);
    session.destroy?.();
  }
}

const used = (s) => s.contextUsage ?? s.inputUsage ?? 0;

function chromeError(e, what, session) {
  if (e?.name == "AbortError") return e;
  /** @type {[number, string]} */
  const [status, fix] =
    e?.name == "QuotaExceededError" ? [413, `the conversation no longer fits the on-device model's context window (${session ? `${used(session)} of ${session.contextWindow ?? session.inputQuota} tokens used` : "too long"}): start a new conversation or shorten the history`]
    : e?.name == "NotAllowedError" ? [403, "the on-device model needs user activation (a click in an extension page) to download, or Chrome's policy blocks it"]
    : e?.name == "NotSupportedError" ? [400, "this Chrome does not support what the session declared (tool use needs chrome://flags/#prompt-api-tool-use)"]
    : [500, "the on-device model failed"];
  return Object.assign(new Error(`prompt-api ${what}: ${e?.name ?? "Error"}: ${e?.message ?? e}; ${fix}`), { status });
}

// ---- native: Chrome's open-loop tool calls ----

function nativeGenerate(LM, options, onEvent) {
  return (request, { signal }) => {
    const declared = io("native", hasImage(request));
    const extra = request.tools.length && request.toolChoice != "none" ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: noNulls(t.parameters) })), ...declared } : declared;
    if (!request.stream) return call(LM, options, onEvent, request, signal, extra, nativeMessages, nativeMessages, async (s, p, o) => turnOfParts(await s.prompt(p, o)));
    // Streamed: deltas as the model writes them; usage once it is done.
    return (async function* () {
      const parts = [];
      const turn = await call(LM, options, onEvent, request, signal, extra, nativeMessages, nativeMessages, async (s, p, o) => {
        const reader = s.promptStreaming(p, o).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(...partsOf(r.value));
        return turnOfParts(parts);
      });
      if (turn.text) yield { type: "text", delta: turn.text };
      for (const c of turn.toolCalls) yield { type: "tool_call", ...c };
      yield { type: "usage", usage: turn.usage };
    })();
  };
}

// A chunk or reply as parts: a string is text; a part or an array of parts as they are.
function partsOf(v) {
  if (typeof v == "string") return [{ type: "text", value: v }];
  return Array.isArray(v) ? v : [v];
}

function turnOfParts(reply) {
  let text = "";
  const toolCalls = [];
  for (const p of partsOf(reply)) {
    if (p?.type == "text") text += p.value;
    else if (p?.type == "tool-call") {
      const v = p.value ?? {};
      toolCalls.push({ id: v.callID || undefined, name: v.name, args: typeof v.arguments == "string" ? v.arguments : (v.arguments ?? {}) });
    } else throw Object.assign(new Error(`prompt-api: the model returned a part of type ${JSON.stringify(p?.type)}; expected text or tool-call`), { status: 502 });
  }
  return { text, toolCalls, usage: undefined };
}

/** The loop's messages as Chrome's: tool calls and tool responses as their typed parts, no `null`. */
function nativeMessages(messages) {
  const out = [];
  for (const m of messages) {
    if (m.role == "assistant") {
      const content = m.content ? [{ type: "text", value: m.content }] : [];
      for (const c of m.toolCalls ?? []) content.push({ type: "tool-call", value: toolCall({ callID: c.id, name: c.name, arguments: noNulls(c.args) }) });
      out.push({ role: "assistant", content: content.length ? content : [{ type: "text", value: "" }] });
    } else if (m.role == "tool") {
      const part = { type: "tool-response", value: new /** @type {any} */ (globalThis).LanguageModelToolSuccess({ callID: m.toolCallId, name: m.toolName, result: [{ type: "text", value: m.content ?? "" }] }) };
      const last = out.at(-1);
      if (last?.role == "user" && last.tools) last.content.push(part);
      else out.push(Object.defineProperty({ role: "user", content: [part] }, "tools", { value: true }));
    } else out.push(plain(m));
  }
  return out;
}

// A call replayed from history: Chrome's class where it has one (the IDL's dictionary otherwise).
function toolCall(v) {
  const C = /** @type {any} */ (globalThis).LanguageModelToolCall;
  return typeof C == "function" ? new C(v) : v;
}

// A system or user message: text, or parts (an image as a Blob of its bytes).
function plain(m) {
  if (typeof m.content == "string") return { role: m.role, content: m.content };
  return { role: m.role, content: m.content.map((p) => (p.type == "image" && p.data ? { type: "image", value: new Blob([Uint8Array.from(atob(p.data), (c) => c.charCodeAt(0))], { type: p.mediaType }) } : { type: "text", value: p.text ?? "" })) };
}

/** A copy without `null` (Chrome rejects a turn holding one): null members dropped, null items removed. */
export function noNulls(v) {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(noNulls);
  if (v && typeof v == "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, noNulls(x)]));
  return v;
}

// ---- constrained: tool calls as JSON the model is held to ----

/**
 * The reply schema: `{ calls: [{ tool, args }, ...] }` (one or more calls, each tool's
 * arguments held to its schema) or `{ answer }`, as `toolChoice` allows.
 * @returns {any}
 */
export function replySchema(tools, toolChoice) {
  const pick = toolChoice && typeof toolChoice == "object" ? tools.filter((t) => t.name == toolChoice.name) : tools;
  const answer = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };
  if (!pick.length || toolChoice == "none") return answer;
  const one = pick.map((t) => ({ type: "object", properties: { tool: { const: t.name }, args: t.parameters ?? { type: "object" } }, required: ["tool", "args"], additionalProperties: false }));
  const calls = { type: "object", properties: { calls: { type: "array", minItems: 1, items: one.length == 1 ? one[0] : { anyOf: one } } }, required: ["calls"], additionalProperties: false };
  return toolChoice == "required" || typeof toolChoice == "object" ? calls : { anyOf: [calls, answer] };
}

function constrainedGenerate(LM, options, onEvent) {
  return (request, { signal }) => {
    const schema = replySchema(request.tools, request.toolChoice);
    const guide = request.tools.length && request.toolChoice != "none"
      ? `You can call tools. To call one or more, reply {"calls":[{"tool":NAME,"args":{...}}]}; to answer the user, reply {"answer":TEXT}. Tools:\n${request.tools.map((t) => `- ${t.name}: ${t.description}`).join("\n")}`
      : `Reply {"answer":TEXT}.`;
    // The history's system prompt (one is made when the run has none) carries the guide.
    const withGuide = (/** @type {any[]} */ ms) => {
      const [head, ...rest] = ms[0]?.role == "system" ? ms : [{ role: "system", content: "" }, ...ms];
      return constrainedMessages([{ role: "system", content: head.content ? `${head.content}\n\n${guide}` : guide }, ...rest]);
    };
    const extra = { ...io("constrained", hasImage(request)), promptOptions: { responseConstraint: schema } };
    return call(LM, options, onEvent, request, signal, extra, withGuide, constrainedMessages, async (s, p, o) => turnOfJson(await s.prompt(p, o)));
  };
}

function constrainedMessages(messages) {
  const out = [];
  for (const m of messages) {
    if (m.role == "assistant") {
      const calls = (m.toolCalls ?? []).map((c) => ({ tool: c.name, args: c.args }));
      out.push({ role: "assistant", content: JSON.stringify(calls.length ? { calls } : { answer: m.content }) });
    } else if (m.role == "tool") {
      const line = `Result of ${m.toolName} (${m.toolCallId}): ${m.content}`;
      const last = out.at(-1);
      if (last?.role == "user" && last.tools) last.content += `\n${line}`;
      else out.push(Object.defineProperty({ role: "user", content: line }, "tools", { value: true }));
    } else out.push(plain(m));
  }
  return out;
}

function turnOfJson(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    throw Object.assign(new Error(`prompt-api constrained: the model's reply is not JSON: ${String(text).slice(0, 80)}`), { status: 502 });
  }
  if (typeof v?.answer == "string") return { text: v.answer, toolCalls: [], usage: undefined };
  if (Array.isArray(v?.calls) && v.calls.length) return { text: "", toolCalls: v.calls.map((c) => ({ name: c?.tool, args: c?.args ?? {} })), usage: undefined };
  throw Object.assign(new Error(`prompt-api constrained: the model's reply has neither "answer" nor "calls": ${String(text).slice(0, 80)}`), { status: 502 });
}
