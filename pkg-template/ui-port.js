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
      let closed = false;
      const close = () => {
        if (!closed) (closed = true), port.disconnect();
      };
      return new ReadableStream({
        start(c) {
          port.onMessage.addListener((/** @type {any} */ m) => {
            if (closed) return;
            if (m?.chunk) c.enqueue(m.chunk);
            else if (m?.error !== undefined) close(), c.error(new Error(String(m.error)));
            else if (m?.done) close(), c.close();
          });
          port.onDisconnect.addListener(() => {
            if (closed) return;
            closed = true;
            c.error(new Error("the extension's service worker closed the chat port before the answer ended"));
          });
          abortSignal?.addEventListener("abort", () => {
            if (closed) return;
            close();
            c.error(abortSignal.reason ?? new DOMException("aborted", "AbortError"));
          });
          port.postMessage({ chatId, messages, trigger, messageId, body, metadata });
        },
        cancel: close,
      });
    },
    // Replaying a stream after a reload needs the worker's event log, which this package does
    // not keep yet: nothing to reconnect to, as the AI SDK's transports answer without one.
    async reconnectToStream() {
      return null;
    },
  };
}

/**
 * Serves `portChatTransport` in the service worker: `handler(request)` gets what `useChat` sent
 * (`{ chatId, messages, trigger, messageId }`) and returns the answer's chunks
 * (`toUIMessageStream(...)`), which go back over the port; the page disconnecting cancels them
 * (the run aborts). Returns a function that stops serving.
 * @param {(request: { chatId: string, messages: any[], trigger: string, messageId?: string, body?: object, metadata?: unknown }) => ReadableStream<any> | Promise<ReadableStream<any>>} handler
 * @param {{ name?: string, runtime?: any }} [options]
 */
export function serveChatPort(handler, options = {}) {
  const name = options.name ?? NAME;
  const r = options.runtime ?? runtime();
  /** @param {any} port */
  const onConnect = (port) => {
    if (port.name !== name) return;
    /** @type {ReadableStreamDefaultReader<any> | undefined} */
    let reader;
    let gone = false;
    port.onDisconnect.addListener(() => {
      gone = true;
      reader?.cancel().catch(() => {});
    });
    const send = (/** @type {any} */ m) => {
      if (!gone) port.postMessage(m);
    };
    port.onMessage.addListener(async (/** @type {any} */ request) => {
      if (reader) return; // one request per port
      try {
        reader = (await handler(request)).getReader();
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
