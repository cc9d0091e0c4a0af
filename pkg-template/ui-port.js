// @ts-check
// `useChat` in an extension page (a side panel, a popup, an options page) driving the loop in
// the service worker, over a `chrome.runtime` port: `portChatTransport()` is the AI SDK's
// `ChatTransport` on the page's side, `serveChatPort(handler)` its server in the worker. A port
// per request: its messages keep the worker awake while the run streams, and the page going
// away (the panel closed) disconnects it, which cancels the stream and so aborts the run.

const NAME = "toolnexus-chat";

/** The runtime of the extension's pages and worker (`chrome.runtime`, `browser.runtime` in Firefox). */
function runtime() {
  const g = /** @type {any} */ (globalThis);
  const r = g.chrome?.runtime ?? g.browser?.runtime;
  if (!r?.connect) throw new TypeError("portChatTransport / serveChatPort need chrome.runtime (an extension page or service worker), or pass { runtime }");
  return r;
}

/**
 * The AI SDK's `ChatTransport` over a `chrome.runtime` port: `new Chat({ transport: portChatTransport() })`
 * in a side panel sends each request to the worker's `serveChatPort` and reads its chunks back.
 * @param {{ name?: string, runtime?: any }} [options]
 */
export function portChatTransport(options = {}) {
  const name = options.name ?? NAME;
  return {
    /** @param {{ chatId: string, messages: any[], trigger: string, messageId?: string, abortSignal?: AbortSignal, body?: object, metadata?: unknown }} request */
    async sendMessages({ chatId, messages, trigger, messageId, abortSignal, body, metadata }) {
      const port = (options.runtime ?? runtime()).connect({ name });
      const { stream } = chunksOf(port, abortSignal);
      port.postMessage({ chatId, messages, trigger, messageId, body, metadata });
      return stream;
    },
    // A reconnect replays the chat's answer from its start (the AI SDK resets the message it
    // shows on the replay's `start`), then follows it live; `null` when the worker has none that
    // was not delivered whole (`serveChatPort` without `resumable`, or nothing under way).
    resumeStreamIsReplay: true,
    /** @param {{ chatId: string, abortSignal?: AbortSignal }} request */
    async reconnectToStream({ chatId, abortSignal }) {
      const port = (options.runtime ?? runtime()).connect({ name });
      const { stream, first } = chunksOf(port, abortSignal);
      port.postMessage({ reconnect: chatId });
      if ((await first)?.none) return port.disconnect(), null;
      return stream;
    },
  };
}

/**
 * The chunks a port brings, as a stream, listened to from now on (a message that came before
 * anyone read is kept by the stream); `first` is the first message (`{ none }` when there is no
 * answer to reconnect to, or the port went first).
 */
function chunksOf(/** @type {any} */ port, /** @type {AbortSignal | undefined} */ abortSignal) {
  let closed = false;
  /** @type {(m: any) => void} */
  let seen = () => {};
  const first = new Promise((resolve) => (seen = resolve));
  const close = () => {
    if (!closed) (closed = true), port.disconnect();
  };
  const stream = new ReadableStream({
    start(c) {
      port.onMessage.addListener((/** @type {any} */ m) => {
        seen(m);
        if (closed || m?.none) return;
        if (m?.chunk) c.enqueue(m.chunk);
        else if (m?.error !== undefined) close(), c.error(new Error(String(m.error)));
        else if (m?.done) close(), c.close();
      });
      port.onDisconnect.addListener(() => {
        seen({ none: true });
        if (closed) return;
        closed = true;
        c.error(new Error("the extension's service worker closed the chat port before the answer ended"));
      });
      abortSignal?.addEventListener("abort", () => {
        seen({ none: true });
        if (closed) return;
        close();
        c.error(abortSignal.reason ?? new DOMException("aborted", "AbortError"));
      });
    },
    cancel: close,
  });
  return { stream, first };
}

/**
 * Serves `portChatTransport` in the service worker: `handler(request)` gets what `useChat` sent
 * (`{ chatId, messages, trigger, messageId }`) and returns the answer's chunks
 * (`toUIMessageStream(...)`), which go back over the port. Without `resumable`, the page
 * disconnecting cancels them (the run aborts). With it, the run goes on when the page goes away:
 * its chunks are kept per chat (in the worker's memory, and in `storage`, by default
 * `chrome.storage.session`, once the answer ends), and a page that comes back
 * (`useChat`'s `resume`, `reconnectToStream`) gets the answer from its start and follows it
 * live, until one page has had it whole. Returns a function that stops serving.
 * @param {(request: { chatId: string, messages: any[], trigger: string, messageId?: string, body?: object, metadata?: unknown }) => ReadableStream<any> | Promise<ReadableStream<any>>} handler
 * @param {{ name?: string, runtime?: any, resumable?: boolean, storage?: { get(key: string): Promise<any>, set(items: object): Promise<void> } }} [options]
 */
export function serveChatPort(handler, options = {}) {
  const name = options.name ?? NAME;
  const r = options.runtime ?? runtime();
  const storage = options.resumable ? (options.storage ?? /** @type {any} */ (globalThis).chrome?.storage?.session) : undefined;
  /** @type {Map<string, KeptAnswer>} the answer kept per chat (resumable) */
  const answers = new Map();
  /** @param {any} port */
  const onConnect = (port) => {
    if (port.name !== name) return;
    let gone = false, asked = false;
    /** @type {(() => void) | undefined} what the port's going away does */
    let leave;
    port.onDisconnect.addListener(() => {
      gone = true;
      leave?.();
    });
    const send = (/** @type {any} */ m) => {
      if (!gone) port.postMessage(m);
    };
    port.onMessage.addListener(async (/** @type {any} */ request) => {
      if (asked) return; // one request per port
      asked = true;
      try {
        if (request?.reconnect !== undefined) {
          const kept = answers.get(request.reconnect) ?? (await stored(storage, request.reconnect));
          if (!kept || kept.delivered) return send({ none: true });
          leave = kept.follow(send);
          return;
        }
        const stream = await handler(request);
        if (!options.resumable) {
          const reader = stream.getReader();
          leave = () => void reader.cancel().catch(() => {});
          if (gone) return leave();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return send({ done: true });
            send({ chunk: value });
          }
        }
        const answer = new KeptAnswer(stream, (done) => storage?.set({ [key(request.chatId)]: done }));
        answers.set(request.chatId, answer);
        leave = answer.follow(send);
      } catch (e) {
        send({ error: /** @type {any} */ (e)?.message ?? String(e) });
      }
    });
  };
  r.onConnect.addListener(onConnect);
  return () => r.onConnect.removeListener(onConnect);
}

const key = (/** @type {string} */ chatId) => `toolnexus:chat:${chatId}`;

/** An answer kept in `storage` when it ended, to replay (after a worker restart). */
async function stored(/** @type {any} */ storage, /** @type {string} */ chatId) {
  const kept = storage && (await storage.get(key(chatId)))?.[key(chatId)];
  return kept && !kept.delivered ? KeptAnswer.replay(kept.chunks, (done) => storage.set({ [key(chatId)]: done })) : undefined;
}

/** One answer's chunks as they come, read to the end whoever watches, each page following it. */
class KeptAnswer {
  constructor(/** @type {ReadableStream<any> | undefined} */ stream, /** @type {(done: { chunks: any[], delivered: boolean }) => unknown} */ keep) {
    /** @type {any[]} */
    this.chunks = [];
    this.ended = false;
    this.delivered = false;
    /** @type {Set<(chunk: any) => void>} */
    this.followers = new Set();
    this.keep = keep;
    if (stream) this.pump(stream);
  }

  static replay(/** @type {any[]} */ chunks, /** @type {() => unknown} */ delivered) {
    const a = new KeptAnswer(undefined, delivered);
    a.chunks = chunks;
    a.ended = true;
    return a;
  }

  async pump(/** @type {ReadableStream<any>} */ stream) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.push(value);
      }
    } catch (e) {
      this.push({ type: "error", errorText: String(/** @type {any} */ (e)?.message ?? e) });
    }
    for (const f of [...this.followers]) f(null);
    this.ended = true;
    // Kept for a page that comes back after the worker restarted, unless one had it whole.
    await this.keep(this.delivered ? { chunks: [], delivered: true } : { chunks: this.chunks, delivered: false });
  }

  push(/** @type {any} */ chunk) {
    this.chunks.push(chunk);
    for (const f of this.followers) f(chunk);
  }

  /** Sends the answer from its start, then each chunk as it comes; returns how to stop. */
  follow(/** @type {(m: any) => void} */ send) {
    const f = (/** @type {any} */ chunk) => {
      if (chunk) return send({ chunk });
      this.delivered = true;
      this.followers.delete(f);
      send({ done: true });
      // An answer that had ended is delivered now: its kept copy goes.
      if (this.ended) this.keep({ chunks: [], delivered: true });
    };
    for (const chunk of this.chunks) send({ chunk });
    if (this.ended) f(null);
    else this.followers.add(f);
    return () => this.followers.delete(f);
  }
}
