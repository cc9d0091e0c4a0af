// The worker's side: serveChatPort answers each useChat request with the loop's UI message
// stream. The model is the tests' scripted one (scripted-fetch.mjs, in-process): it calls the
// relay tool `click` for every selector the prompt names (or `delete_file`, a worker's tool that
// needs the person's approval, for "delete <path>"), then reports the tool results.
import { createClient, createToolkit, defineTool, relayTool } from "./pkg/index.js";
import { fromUIMessages, serveChatPort, toUIMessageStream } from "./pkg/ui.js";
import { DONE, opts, scripted } from "./scripted-fetch.mjs";

let deleted = 0; // runs of delete_file, in this worker
const del = defineTool({ name: "delete_file", description: "Deletes a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } }, needsApproval: true, run: ({ path }) => (deleted++, `deleted ${path}`) });
const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab", { type: "object", properties: { selector: { type: "string" } } }), del]);
const runs = new Map(); // chat id -> its client and scripted model (one per chat, in this worker)
/** What this worker did per chat id: the requests it had (by kind), and what its model was sent. */
const seen = new Map();
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
  const kind = "waiting" in next ? "waiting" : "resume" in next ? "resume" : "prompt";
  if (!seen.has(chatId)) seen.set(chatId, { requests: [], bodies: [] });
  seen.get(chatId).requests.push(kind);
  if (kind == "waiting") return new ReadableStream({ start: (c) => c.close() });
  if (!runs.has(chatId)) {
    // A resume this worker has no run for (a new worker: the halted run is in the message's
    // state) goes on where the script would: the model reports the tool results.
    const delPath = kind == "prompt" && /delete (\S+)/.exec(String(next.prompt))?.[1];
    const selectors = kind == "prompt" ? [...String(next.prompt).matchAll(/#\w+/g)].map((m) => ["click", { selector: m[0] }]) : [];
    const model = kind == "resume" ? scripted(DONE) : scripted(delPath ? [["delete_file", { path: delPath }]] : selectors, DONE);
    const modelFetch = (u, init) => (seen.get(chatId).bodies.push(JSON.parse(init.body)), model.fetch(u, init));
    // A fetch that never answers for "hang": the page closes while the run waits on it.
    const fetch = kind == "prompt" && String(next.prompt).includes("hang") ? (_u, init) => new Promise((_, no) => init.signal.addEventListener("abort", () => (aborted++, no(init.signal.reason)))) : modelFetch;
    runs.set(chatId, createClient(opts({ fetch })));
  }
  const client = runs.get(chatId);
  if ("resume" in next) return toUIMessageStream(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown });
  return toUIMessageStream(client.stream(next.prompt, { toolkit, history: next.history }));
});

chrome.runtime.onMessage.addListener((m, _sender, reply) => {
  if (m === "aborted?") reply(aborted);
  // The worker's record of a chat: its requests, its model's calls and the tool results each saw.
  if (m?.seen !== undefined) {
    const s = seen.get(m.seen) ?? { requests: [], bodies: [] };
    reply({ requests: s.requests, results: s.bodies.map((b) => b.messages.filter((x) => x.role == "tool").map((x) => x.content)), deleted });
  }
});
