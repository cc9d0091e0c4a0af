// @ts-check
// `useChat` in an extension page (a side panel, a popup, an options page) driving the loop in
// the service worker, over a `chrome.runtime` port: `portChatTransport()` is the AI SDK's
// `ChatTransport` on the page's side, `serveChatPort(handler)` its server in the worker. A port
// per request: its messages keep the worker awake while the run streams, and the page going
// away (the panel closed) disconnects it, which cancels the stream and so aborts the run.

import { chatAnswers, chromeAreaStorage } from "./ui-kept.js";

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
 * disconnecting cancels them (the run aborts). With it, the run goes on when the page goes away
 * (`chatAnswers`, kept in `storage`, by default `chrome.storage.session`), and a page that comes
 * back (`useChat`'s `resume`, `reconnectToStream`) gets the answer from its start and follows it
 * live, until one page has had it whole. Returns a function that stops serving.
 * @param {(request: { chatId: string, messages: any[], trigger: string, messageId?: string, body?: object, metadata?: unknown }) => ReadableStream<any> | Promise<ReadableStream<any>>} handler
 * @param {{ name?: string, runtime?: any, resumable?: boolean, storage?: { get(key: string): Promise<any>, put(key: string, value: any): Promise<unknown> } }} [options]
 */
export function serveChatPort(handler, options = {}) {
  const name = options.name ?? NAME;
  const r = options.runtime ?? runtime();
  const session = /** @type {any} */ (globalThis).chrome?.storage?.session;
  const answers = options.resumable ? chatAnswers({ storage: options.storage ?? (session && chromeAreaStorage(session)) }) : undefined;
  /** @param {any} port */
  const onConnect = (port) => {
    if (port.name !== name) return;
    let gone = false, asked = false;
    /** @type {ReadableStreamDefaultReader<any> | undefined} */
    let reader;
    // The page going away cancels what it reads: the run itself, or (resumable) its following.
    port.onDisconnect.addListener(() => {
      gone = true;
      reader?.cancel().catch(() => {});
    });
    const send = (/** @type {any} */ m) => {
      if (!gone) port.postMessage(m);
    };
    port.onMessage.addListener(async (/** @type {any} */ request) => {
      if (asked) return; // one request per port
      asked = true;
      try {
        const stream = request?.reconnect !== undefined
          ? await answers?.resume(request.reconnect)
          : answers ? answers.start(request.chatId, await handler(request)) : await handler(request);
        if (!stream) return send({ none: true });
        reader = stream.getReader();
        if (gone) return void reader.cancel();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return send({ done: true });
          send({ chunk: value });
        }
      } catch (e) {
        send({ error: /** @type {any} */ (e)?.message ?? String(e) });
      }
    });
  };
  r.onConnect.addListener(onConnect);
  return () => r.onConnect.removeListener(onConnect);
}
