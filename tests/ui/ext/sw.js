// The worker's side: serveChatPort answers each useChat request with the loop's UI message
// stream. The model is the tests' scripted one (scripted-fetch.mjs, in-process): it calls the
// relay tool `click` for every selector the prompt names, then reports the tool results.
import { createClient, createToolkit, relayTool } from "./pkg/index.js";
import { fromUIMessages, serveChatPort, toUIMessageStream } from "./pkg/ui.js";
import { DONE, opts, scripted } from "./scripted-fetch.mjs";

const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab", { type: "object", properties: { selector: { type: "string" } } })]);
const runs = new Map(); // chat id -> its client (one scripted model per chat)
let aborted = 0;

/** A model that streams `words` text deltas, 20 ms apart: long enough to close the page mid-answer. */
function slow(words) {
  const enc = new TextEncoder();
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return async () => {
    let i = 0;
    return new Response(new ReadableStream({
      async pull(c) {
        await new Promise((ok) => setTimeout(ok, 20));
        if (i < words) return c.enqueue(enc.encode(chunk({ content: `w${i++} ` })));
        c.enqueue(enc.encode(chunk({}, "stop") + "data: [DONE]\n\n"));
        c.close();
      },
    }), { headers: { "content-type": "text/event-stream" } });
  };
}

// A resumable answer: the page may go away and come back (`resume` in the page's URL).
serveChatPort(({ messages }) => {
  const client = createClient(opts({ fetch: slow(40) }));
  return toUIMessageStream(client.stream(fromUIMessages(messages).prompt));
}, { name: "resumable", resumable: true });

serveChatPort(({ chatId, messages }) => {
  const next = fromUIMessages(messages);
  if ("waiting" in next) return new ReadableStream({ start: (c) => c.close() });
  if (!runs.has(chatId)) {
    const selectors = [...String(next.prompt).matchAll(/#\w+/g)].map((m) => ["click", { selector: m[0] }]);
    const model = scripted(selectors, DONE);
    // A fetch that never answers for "hang": the page closes while the run waits on it.
    const fetch = String(next.prompt).includes("hang") ? (_u, init) => new Promise((_, no) => init.signal.addEventListener("abort", () => (aborted++, no(init.signal.reason)))) : model.fetch;
    runs.set(chatId, createClient(opts({ fetch })));
  }
  const client = runs.get(chatId);
  if ("resume" in next) return toUIMessageStream(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown });
  return toUIMessageStream(client.stream(next.prompt, { toolkit, history: next.history }));
});

chrome.runtime.onMessage.addListener((m, _sender, reply) => {
  if (m === "aborted?") reply(aborted);
});
