// A scripted stand-in for Chrome's `LanguageModel` (the Prompt API), shaped after Chromium's IDL
// and the wire of its tool-use flag: static availability()/create(options) with monitor,
// signal, initialPrompts, expectedInputs/expectedOutputs and tools; a session (an EventTarget)
// with prompt()/promptStreaming() returning text or parts, clone(), destroy(), contextUsage,
// contextWindow and measureContextUsage(); LanguageModelToolCall/ToolSuccess/ToolError when tool
// use is on. It refuses what Chrome refuses: tools without a `tool-call` expected output, a
// `tool-response` input not declared, any `null` in a prompt, a prompt over the window
// (QuotaExceededError), a download without user activation (NotAllowedError). No Node imports:
// the same file runs in Node, an extension page and an MV3 service worker.

const tokens = (v) => Math.ceil(JSON.stringify(v ?? "").length / 4);

function hasNull(v) {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasNull);
  if (v && typeof v == "object") return Object.values(v).some(hasNull);
  return false;
}

/**
 * Installs the fake on `target` (globalThis by default) and returns a log of what it saw.
 * `respond({ messages, tools, constraint })` gives a reply: a string, or an array of parts;
 * a prompt that takes the context past `overflowAt` fires the session's `contextoverflow`.
 * @param {{ toolUse?: boolean, availability?: string, activation?: boolean, contextWindow?: number, overflowAt?: number, respond?: (turn: any) => any, target?: any }} [o]
 */
export function installFakeLanguageModel(o = {}) {
  const target = o.target ?? globalThis;
  const log = { creates: [], prompts: [], destroyed: 0 };
  let state = o.availability ?? "available";
  const respond = o.respond ?? scriptedRespond;
  const win = o.contextWindow ?? 4096;

  class LanguageModelToolCall { constructor(v) { Object.assign(this, { callID: v.callID, name: v.name, arguments: v.arguments }); } }
  class LanguageModelToolSuccess { constructor(v) { Object.assign(this, { callID: v.callID, name: v.name, result: v.result }); } }
  class LanguageModelToolError { constructor(v) { Object.assign(this, { callID: v.callID, name: v.name, errorMessage: v.errorMessage }); } }

  const declares = (list, type) => (list ?? []).some((x) => x.type == type);

  class Session extends EventTarget {
    #messages; #options; #usage = 0; #destroyed = false;
    constructor(options, messages, usage) { super(); this.#options = options; this.#messages = messages; this.#usage = usage; }
    get contextUsage() { return this.#usage; }
    get contextWindow() { return win; }
    async measureContextUsage(input) { return tokens(input); }
    async prompt(input, options = {}) {
      if (this.#destroyed) throw new DOMException("The session was destroyed.", "InvalidStateError");
      if (options.signal?.aborted) throw options.signal.reason ?? new DOMException("aborted", "AbortError");
      const msgs = typeof input == "string" ? [{ role: "user", content: input }] : input;
      this.check(msgs);
      const cost = tokens(msgs);
      if (this.#usage + cost > win) throw new DOMException(`The input is too large (${this.#usage + cost} > ${win}).`, "QuotaExceededError");
      if (o.overflowAt !== undefined && this.#usage + cost > o.overflowAt) this.dispatchEvent(new Event("contextoverflow"));
      this.#messages.push(...msgs);
      const reply = respond({ messages: this.#messages, tools: this.#options.tools ?? [], constraint: options.responseConstraint, native: declares(this.#options.expectedOutputs, "tool-call") });
      log.prompts.push({ input: msgs, reply, constraint: options.responseConstraint });
      this.#usage += cost + tokens(reply);
      this.#messages.push({ role: "assistant", content: reply });
      return reply;
    }
    promptStreaming(input, options = {}) {
      const self = this;
      return new ReadableStream({
        async start(c) {
          try {
            const reply = await self.prompt(input, options);
            if (typeof reply == "string") { c.enqueue(reply.slice(0, 3)); c.enqueue(reply.slice(3)); }
            else for (const p of reply) c.enqueue(p.type == "text" ? p.value : [p]);
            c.close();
          } catch (e) { c.error(e); }
        },
      });
    }
    check(msgs) {
      if (hasNull(msgs)) throw new TypeError("Failed to execute 'prompt': a value is null.");
      for (const m of msgs) for (const p of Array.isArray(m.content) ? m.content : []) {
        if (p.type == "tool-response" && !declares(this.#options.expectedInputs, "tool-response")) throw new DOMException("tool-response input not declared in expectedInputs", "NotSupportedError");
        if (p.type == "tool-response" && !(p.value instanceof LanguageModelToolSuccess || p.value instanceof LanguageModelToolError)) throw new TypeError("a tool-response's value must be a LanguageModelToolSuccess or LanguageModelToolError");
        if (p.type == "tool-call" && !declares(this.#options.expectedInputs, "tool-call")) throw new DOMException("tool-call input not declared in expectedInputs", "NotSupportedError");
        if (p.type == "tool-call" && !(p.value instanceof LanguageModelToolCall)) throw new DOMException("The value must be a LanguageModelToolCall for type:'tool-call'", "SyntaxError");
      }
    }
    async clone() { return new Session(this.#options, [...this.#messages], this.#usage); }
    destroy() { this.#destroyed = true; log.destroyed++; }
  }

  const LanguageModel = {
    async availability() { return state; },
    async params() { return { defaultTopK: 3, maxTopK: 8, defaultTemperature: 1, maxTemperature: 2 }; },
    async create(options = {}) {
      log.creates.push(options);
      if (state == "unavailable") throw new DOMException("The model is unavailable.", "NotSupportedError");
      if (options.tools?.length && !declares(options.expectedOutputs, "tool-call")) throw new DOMException("tools need expectedOutputs with tool-call", "NotSupportedError");
      if (options.tools?.length && !o.toolUse) throw new DOMException("tool use is disabled", "NotSupportedError");
      if (state == "downloadable" || state == "downloading") {
        if (o.activation === false) throw new DOMException("Requires user activation.", "NotAllowedError");
        const monitor = new EventTarget();
        options.monitor?.(monitor);
        for (const loaded of [0, 0.5, 1]) monitor.dispatchEvent(Object.assign(new Event("downloadprogress"), { loaded }));
        state = "available";
      }
      const initial = options.initialPrompts ?? [];
      if (hasNull(initial)) throw new TypeError("Failed to execute 'create': a value is null.");
      const session = new Session(options, [...initial], tokens(initial));
      session.check(initial);
      return session;
    },
  };
  target.LanguageModel = LanguageModel;
  if (o.toolUse) Object.assign(target, { LanguageModelToolCall, LanguageModelToolSuccess, LanguageModelToolError });
  return log;
}

/**
 * A deterministic "model": after tool results it sums them up; asked to "click A, B and C" it
 * calls `click` three times in one turn (native parts, or constrained JSON); else it greets.
 */
export function scriptedRespond({ messages, tools, constraint, native }) {
  const last = messages.at(-1);
  const parts = Array.isArray(last.content) ? last.content : [{ type: "text", value: last.content }];
  const results = parts.filter((p) => p.type == "tool-response").map((p) => p.value.result.map((r) => r.value).join(""));
  const text = parts.filter((p) => p.type == "text").map((p) => p.value).join("");
  const lines = [...text.matchAll(/^Result of \w+ \([^)]*\): (.*)$/gm)].map((m) => m[1]);
  const answer = (t) => (constraint ? JSON.stringify({ answer: t }) : [{ type: "text", value: t }]);
  if (results.length || lines.length) return answer(`Results: ${[...results, ...lines].join("; ")}`);
  const m = /click (\S+), (\S+) and (\S+)/.exec(text);
  if (m) {
    const targets = [m[1], m[2], m[3]];
    if (native && tools.some((t) => t.name == "click")) return targets.map((s, i) => ({ type: "tool-call", value: { callID: `fake-${messages.length}-${i}`, name: "click", arguments: { selector: s } } }));
    if (constraint) return JSON.stringify({ calls: targets.map((s) => ({ tool: "click", args: { selector: s } })) });
  }
  return answer("Hello from the built-in model.");
}
