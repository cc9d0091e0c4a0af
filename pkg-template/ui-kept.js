// @ts-check
// Answers kept per chat, so that a client that went away and came back mid-answer (a side panel
// closed and opened again, a page reloaded) gets the same answer an uninterrupted one would:
// the chunks from the first, then each new one live. The answer is read to its end whoever
// watches; once one client has had it whole it is not replayed again. Kept in memory while it
// streams, and in `storage` once it ends (one write), for a host that restarted in between.

/** The key of a chat's kept answer in `storage`. */
const key = (/** @type {string} */ chatId) => `toolnexus:chat:${chatId}`;

/**
 * The answers of a server's chats: `start(chatId, chunks)` keeps a new answer and gives a stream
 * that follows it from its start; `resume(chatId)` gives another such stream, or `null` when the
 * chat has no answer not yet delivered whole. `storage`: a Durable Object's `ctx.storage`, or any
 * `{ get(key), put(key, value) }`.
 * @param {{ storage?: { get(key: string): Promise<any>, put(key: string, value: any): Promise<unknown> } }} [options]
 */
export function chatAnswers(options = {}) {
  const storage = options.storage;
  /** @type {Map<string, KeptAnswer>} */
  const answers = new Map();
  const keep = (/** @type {string} */ chatId) => (/** @type {any} */ done) => storage?.put(key(chatId), done);
  return {
    /** @param {string} chatId @param {ReadableStream<any>} chunks */
    start(chatId, chunks) {
      const answer = new KeptAnswer(keep(chatId));
      answers.set(chatId, answer);
      answer.pump(chunks);
      return answer.follow();
    },
    /** @param {string} chatId */
    async resume(chatId) {
      let answer = answers.get(chatId);
      if (!answer && storage) {
        const kept = await storage.get(key(chatId));
        if (kept?.chunks?.length && !kept.delivered) (answer = new KeptAnswer(keep(chatId))), (answer.chunks = kept.chunks), (answer.ended = true);
      }
      return answer && !answer.delivered ? answer.follow() : null;
    },
  };
}

/** `chrome.storage.session` (or another `chrome.storage` area) as `chatAnswers`' storage. */
export function chromeAreaStorage(/** @type {any} */ area) {
  return {
    get: async (/** @type {string} */ k) => (await area.get(k))?.[k],
    put: (/** @type {string} */ k, /** @type {any} */ v) => area.set({ [k]: v }),
  };
}

/** One answer's chunks as they come, and the clients following it. */
class KeptAnswer {
  constructor(/** @type {(done: { chunks: any[], delivered: boolean }) => unknown} */ keep) {
    /** @type {any[]} */
    this.chunks = [];
    this.ended = false;
    this.delivered = false;
    /** @type {Set<(chunk: any) => void>} each gets every new chunk, then `null` at the end */
    this.followers = new Set();
    this.keep = keep;
  }

  async pump(/** @type {ReadableStream<any>} */ stream) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.chunks.push(value);
        for (const f of this.followers) f(value);
      }
    } catch (e) {
      const chunk = { type: "error", errorText: String(/** @type {any} */ (e)?.message ?? e) };
      this.chunks.push(chunk);
      for (const f of this.followers) f(chunk);
    }
    for (const f of [...this.followers]) f(null);
    this.ended = true;
    // Kept for a client that comes back after a restart, unless one had it whole.
    await this.keep(this.delivered ? { chunks: [], delivered: true } : { chunks: this.chunks, delivered: false });
  }

  /** The answer from its start, then live; cancelling it leaves the answer running. */
  follow() {
    /** @type {(chunk: any) => void} */
    let f = () => {};
    return new ReadableStream({
      start: (c) => {
        for (const chunk of this.chunks) c.enqueue(chunk);
        f = (chunk) => {
          if (chunk) return c.enqueue(chunk);
          this.followers.delete(f);
          this.delivered = true;
          c.close();
        };
        if (!this.ended) return void this.followers.add(f);
        f(null);
        // An answer that had ended is delivered now: its kept copy goes.
        this.keep({ chunks: [], delivered: true });
      },
      cancel: () => void this.followers.delete(f),
    });
  }
}
