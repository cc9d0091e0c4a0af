// `toolnexus-wasm/ui`: the AI SDK's UI message stream protocol in and out (ui.js). Its own
// subpath: JS only, loaded only by an app whose front end is `useChat`.
/**
 * `useChat` drives the loop: `toUIMessageStreamResponse(client.stream(...))` answers a `useChat`
 * request with the UI message stream (protocol `v1`), and `fromUIMessages(messages)` turns what
 * `useChat` sends back into the next run: a new turn, or the answer (tool outputs, approval
 * responses) that resumes a halted one.
 * @module toolnexus-wasm/ui
 */
import type { Answer, Message, Part, RunResult, StreamEvent, Suspension } from "./index.js";

/** The headers of a UI message stream response. */
export declare const UI_MESSAGE_STREAM_HEADERS: Readonly<{
  "content-type": "text/event-stream";
  "cache-control": "no-cache";
  connection: "keep-alive";
  "x-vercel-ai-ui-message-stream": "v1";
  "x-accel-buffering": "no";
}>;

/** A chunk of the UI message stream, as the AI SDK's `UIMessageChunk` has it (the ones this package writes). */
export type UIMessageChunk =
  | { type: "start"; messageId?: string }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start" | "reasoning-start"; id: string; providerMetadata?: { toolnexus: { agent: string } } }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string }
  | { type: "text-end" | "reasoning-end"; id: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; providerMetadata?: { toolnexus: { agent: string } } }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  /** An image of a tool's result (a tool's `parts`, an MCP server's image content), after its output: a data: URL, or the image's URL. */
  | { type: "file"; url: string; mediaType: string; providerMetadata: { toolnexus: { toolCallId: string; agent?: string } } }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  /** Each suspension as it comes, for the client to show (an MCP question's form, a sign-in link). */
  | { type: "data-toolnexus-suspension"; id: string; data: Suspension }
  /** The request a halted run waits on (its relay calls merged), which `fromUIMessages` answers. */
  | { type: "data-toolnexus-pending"; id: "pending"; data: Suspension }
  /** A halted run's state, unless `sendState: false` (a store keeps it). */
  | { type: "data-toolnexus-state"; id: "state"; data: RunResult }
  | { type: "finish"; finishReason?: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other"; messageMetadata?: { toolnexus: { status: RunResult["status"]; usage: RunResult["usage"]; limit?: string } } }
  | { type: "abort"; reason?: string }
  | { type: "error"; errorText: string };

export interface UIMessageStreamOptions {
  /** The assistant message's id (`start.messageId`). */
  messageId?: string;
  /** `false`: reasoning deltas are left out. Default true. */
  sendReasoning?: boolean;
  /** `false`: a halted run's state is not sent (the server keeps it in a store, `ask` with the chat id). Default true. */
  sendState?: boolean;
  /** The tool calls the client's message already holds (`fromUIMessages`' `shown`): a resumed run sends only their outputs. */
  shown?: string[];
  /** The `error` chunk's text for a failed run. Default: `"<code>: <message>"` (this package's errors never hold a key). */
  onError?: (error: unknown) => string;
}

/**
 * The UI message chunks of a run's events (`client.stream` / `streamWithAnswer`), pulled one event at a time;
 * cancelling the stream leaves the events, which aborts the run.
 */
export declare function toUIMessageStream(events: AsyncIterable<StreamEvent>, options?: UIMessageStreamOptions): ReadableStream<UIMessageChunk>;

/**
 * `toUIMessageStream` as a server-sent-events `Response` (`data: <chunk>`, then `data: [DONE]`), with
 * `UI_MESSAGE_STREAM_HEADERS`: what a Worker, a Node handler or a service worker returns to `useChat`.
 * @example
 * ```ts
 * import { createClient } from "toolnexus-wasm";
 * import { fromUIMessages, toUIMessageStreamResponse } from "toolnexus-wasm/ui";
 *
 * const client = createClient({ style: "openai", model: "gpt-4.1-mini", apiKey: "sk-..." });
 * export async function POST(request: Request): Promise<Response> {
 *   const { messages } = await request.json();
 *   const next = fromUIMessages(messages);
 *   if ("waiting" in next) return new Response(null, { status: 204 }); // more tool outputs to come
 *   if ("resume" in next) return toUIMessageStreamResponse(client.streamWithAnswer(next.resume), { shown: next.shown });
 *   return toUIMessageStreamResponse(client.stream(next.prompt, { history: next.history }));
 * }
 * ```
 */
export declare function toUIMessageStreamResponse(events: AsyncIterable<StreamEvent>, init?: ResponseInit & UIMessageStreamOptions): Response;

/** A `useChat` message (the AI SDK's `UIMessage`), as far as `fromUIMessages` reads it. */
export interface UIMessage {
  id: string;
  role: "system" | "user" | "assistant";
  parts: Array<{ type: string; [key: string]: unknown }>;
}

/** The next run `fromUIMessages` reads from `useChat`'s messages. */
export type NextRun =
  /** A new turn: `client.stream(prompt, { history })`. */
  | { prompt: string | Part[]; history: Message[] }
  /** The halted run's answer: `client.streamWithAnswer(resume)` (the state from the stream, or the history with the suspension). */
  | { pending: Suspension; shown: string[]; resume: { state: RunResult; answer: Answer } | { history: Message[]; pending: Suspension; answer: Answer } }
  /** Relay calls still without an output (`addToolOutput`) or an approval still without a response: nothing to run yet. */
  | { pending: Suspension; waiting: string[] };

/** What `useChat` sent, as the next run to make. */
export declare function fromUIMessages(messages: UIMessage[]): NextRun;

/** What `useChat` sent, as `serveChatPort`'s handler gets it. */
export interface ChatPortRequest {
  chatId: string;
  messages: UIMessage[];
  trigger: "submit-message" | "regenerate-message";
  messageId?: string;
  body?: object;
  metadata?: unknown;
}

/** The AI SDK's `ChatTransport`, as `portChatTransport` implements it. */
export interface PortChatTransport {
  sendMessages(options: ChatPortRequest & { abortSignal?: AbortSignal }): Promise<ReadableStream<UIMessageChunk>>;
  /** The chat's answer from its start, then live (`useChat`'s `resume`); `null` when the worker has none not yet delivered whole. */
  reconnectToStream(options: { chatId: string; abortSignal?: AbortSignal }): Promise<ReadableStream<UIMessageChunk> | null>;
  /** A reconnect replays the answer from its start (the AI SDK resets the message it shows). */
  readonly resumeStreamIsReplay: true;
}

/** The runtime whose ports carry the chat: `chrome.runtime` (or Firefox's `browser.runtime`) by default. */
export interface ChatPortOptions {
  /** The port's name (default `"toolnexus-chat"`): the page's and the worker's must be the same. */
  name?: string;
  runtime?: unknown;
}

/**
 * `useChat` in an extension page (a side panel, a popup) driving the loop in the service worker:
 * the AI SDK's `ChatTransport` over a `chrome.runtime` port per request, to `serveChatPort`.
 * Closing the page disconnects the port, which aborts the run.
 * @example
 * ```ts
 * // panel.js (with `Chat` from @ai-sdk/react, or the `ai` package's AbstractChat)
 * import { portChatTransport } from "toolnexus-wasm/ui";
 * export const transport = portChatTransport();
 * ```
 */
export declare function portChatTransport(options?: ChatPortOptions): PortChatTransport;

/** `serveChatPort`'s options. */
export interface ServeChatPortOptions extends ChatPortOptions {
  /**
   * The run goes on when the page goes away (without it, the page leaving aborts the run): its
   * chunks are kept per chat, and a page that comes back (`useChat`'s `resume`) gets the answer
   * from its start, then live, until one page has had it whole.
   */
  resumable?: boolean;
  /** Where an answer that ended is kept for a worker that restarted: `chrome.storage.session` by default. */
  storage?: ChatAnswerStorage;
}

/** Where `chatAnswers` keeps an answer once it ends: a Durable Object's `ctx.storage`, or any `{ get, put }`. */
export interface ChatAnswerStorage {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<unknown>;
}

/** The answers of a server's chats, kept so that a client that went away and came back gets the whole answer. */
export interface ChatAnswers {
  /** Keeps `chunks` (read to the end whoever watches) as the chat's answer; the stream follows it from its start. */
  start(chatId: string, chunks: ReadableStream<UIMessageChunk>): ReadableStream<UIMessageChunk>;
  /** The chat's answer from its start, then live; `null` when it has none not yet delivered whole. */
  resume(chatId: string): Promise<ReadableStream<UIMessageChunk> | null>;
}

/**
 * Answers kept per chat (memory while they stream, `storage` once they end), for `useChat`'s
 * `resume`: in a Durable Object, `POST` starts the run (`start`) and the AI SDK's reconnect
 * (`GET <api>/<chatId>/stream`) follows it (`resume`), each answered by `uiMessageStreamResponse`.
 * @example
 * ```ts
 * import { DurableObject } from "cloudflare:workers";
 * import { createClient } from "toolnexus-wasm";
 * import { chatAnswers, fromUIMessages, toUIMessageStream, uiMessageStreamResponse } from "toolnexus-wasm/ui";
 *
 * export class Chat extends DurableObject {
 *   answers = chatAnswers({ storage: this.ctx.storage });
 *   async fetch(request: Request): Promise<Response> {
 *     const chatId = new URL(request.url).pathname.split("/")[3];
 *     if (request.method == "GET") return uiMessageStreamResponse(await this.answers.resume(chatId));
 *     const { id, messages } = (await request.json()) as { id: string; messages: any[] };
 *     const next = fromUIMessages(messages);
 *     if (!("prompt" in next)) return new Response(null, { status: 204 });
 *     const client = createClient({ style: "openai", model: "gpt-4.1-mini", apiKey: "sk-..." });
 *     return uiMessageStreamResponse(this.answers.start(id, toUIMessageStream(client.stream(next.prompt, { history: next.history }))));
 *   }
 * }
 * ```
 */
export declare function chatAnswers(options?: { storage?: ChatAnswerStorage }): ChatAnswers;

/** UI message chunks as the protocol's server-sent-events `Response`; `null` is a `204` (nothing to reconnect to). */
export declare function uiMessageStreamResponse(chunks: ReadableStream<UIMessageChunk> | null, init?: ResponseInit): Response;

/**
 * Serves `portChatTransport` in the service worker: `handler` gets each request and returns the
 * answer's chunks (`toUIMessageStream(...)`). Returns a function that stops serving.
 * @example
 * ```ts
 * // sw.js
 * import { createClient } from "toolnexus-wasm";
 * import { fromUIMessages, serveChatPort, toUIMessageStream } from "toolnexus-wasm/ui";
 * const client = createClient({ style: "openai", model: "gpt-4.1-mini", apiKey: "sk-..." });
 * serveChatPort(({ messages }) => {
 *   const next = fromUIMessages(messages);
 *   if ("waiting" in next) return new ReadableStream({ start: (c) => c.close() });
 *   if ("resume" in next) return toUIMessageStream(client.streamWithAnswer(next.resume), { shown: next.shown });
 *   return toUIMessageStream(client.stream(next.prompt, { history: next.history }));
 * });
 * ```
 */
export declare function serveChatPort(
  handler: (request: ChatPortRequest) => ReadableStream<UIMessageChunk> | Promise<ReadableStream<UIMessageChunk>>,
  options?: ServeChatPortOptions,
): () => void;
