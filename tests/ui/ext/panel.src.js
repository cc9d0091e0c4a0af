// The page's side: the AI SDK's own AbstractChat (what @ai-sdk/react's Chat is built on) with
// portChatTransport. Bundled with esbuild by the test (tests/ui/extension.test.mjs).
import { lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { Chat } from "../chat.mjs";
import { portChatTransport } from "toolnexus-wasm/ui";

const clicked = [];
const params = new URLSearchParams(location.search);
const resumable = params.has("resume");
const chat = new Chat({
  // `?resume=<id>`: the chat's id (each test its own), "chat-resumable" by default.
  ...(resumable ? { id: params.get("resume") || "chat-resumable" } : {}),
  transport: resumable ? portChatTransport({ name: "resumable" }) : portChatTransport(),
  sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
  // The tab answers the first selector last: each output on its own.
  onToolCall: ({ toolCall }) => {
    const wait = toolCall.input.selector == "#a" ? 40 : 5;
    setTimeout(() => { clicked.push(toolCall.input.selector); chat.addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }); }, wait);
  },
});

/** Sends `text` and resolves with the answer's text once the chat settles. */
globalThis.ask = async (text) => {
  await chat.sendMessage({ text });
  for (;;) {
    await new Promise((ok) => setTimeout(ok, 10));
    if (chat.status == "error") throw chat.error;
    const last = chat.messages.at(-1);
    if (chat.status == "ready" && last?.role == "assistant" && last.parts.some((p) => p.type == "text" && p.state == "done")) {
      return { text: last.parts.filter((p) => p.type == "text").map((p) => p.text).join(""), clicked };
    }
  }
};
/** Sends `text` without waiting for the answer (the page is closed while it streams). */
globalThis.send = (text) => void chat.sendMessage({ text });
globalThis.chatStatus = () => chat.status;
/** The text the page shows now. */
globalThis.shown = () => chat.messages.at(-1)?.parts.filter((p) => p.type == "text").map((p) => p.text).join("") ?? "";
/** `useChat`'s resume: the worker's answer from its start, then live; resolves with the text once it ends. */
globalThis.resume = async () => {
  await chat.resumeStream();
  return { text: globalThis.shown(), assistants: chat.messages.filter((m) => m.role == "assistant").length, status: chat.status };
};
