// `toolnexus-wasm/in-process`: a model that is a function (in-process.js). Its own subpath: JS
// only, loaded only by an app whose model runs in process (a test double, the Workers AI
// binding, Chrome's built-in model).
/**
 * A model that is a function: `createClient({ ...inProcessModel({ generate }), systemPrompt })` runs
 * the loop with `generate` answering each model call, with no network and no API key. Relay
 * tools, `waitFor`, durable halts, stores, streams, Workflows and signed states work unchanged.
 * @module toolnexus-wasm/in-process
 */
import type { FinishReason, JsonSchema, Part, Usage } from "./index.js";

/** The base URL `inProcessModel` gives the client; never fetched. */
export declare const IN_PROCESS_BASE_URL: "https://in-process.invalid/v1";

/** A tool call, in a request's history or in a turn `generate` returns. */
export interface ModelToolCall {
  /** Given by the model; when a returned call has none, `call_<turn>_<index>` is made. */
  id: string;
  name: string;
  args: { [key: string]: unknown };
}

/** A message of the conversation so far, as `generate` receives it. */
export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | Part[] }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  /**
   * A tool's result: `toolName` is the name of the call it answers. Images a turn's results
   * carry follow its results as one `user` message of parts.
   */
  | { role: "tool"; toolCallId: string; toolName: string; content: string };

/** What `generate` receives: one model call of the loop. */
export interface ModelRequest {
  /** The client's `model`. */
  model: string;
  messages: ModelMessage[];
  /** The tools the model may call (empty when none is declared). */
  tools: { name: string; description: string; parameters: JsonSchema }[];
  /** `"auto"` when tools are declared, or what `requestParams.tool_choice` asked for. */
  toolChoice?: "auto" | "none" | "required" | { name: string };
  /** Whether the loop streams this call (`client.stream`): a returned async iterable is then read as it comes. */
  stream: boolean;
  /** The request's other fields as the loop wrote them: `requestParams` (temperature, `response_format`, ...) and `max_tokens`. */
  params: { [key: string]: unknown };
  /** The OpenAI chat-completions body the loop built, for a model that takes that shape as it is. */
  body: { [key: string]: unknown };
  /** For a call of an agent tool's child (`toolnexus-wasm/agents`): the path of its delegate calls. */
  callPath?: string;
}

/** The assistant's turn `generate` returns: text, tool calls, or both. */
export interface ModelTurn {
  text?: string;
  /** `args` may also be the arguments' JSON text. */
  toolCalls?: { id?: string; name: string; args?: { [key: string]: unknown } | string }[];
  usage?: Partial<Usage>;
  /** Default: `"tool_calls"` when the turn calls a tool, else `"stop"`. */
  finishReason?: Extract<FinishReason, "stop" | "tool_calls" | "length" | "content_filter">;
}

/** A streamed turn's events, in order; a `tool_call` is whole when it comes. */
export type ModelDelta =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id?: string; name: string; args?: { [key: string]: unknown } | string }
  | { type: "usage"; usage: Partial<Usage> }
  | { type: "finish"; finishReason: NonNullable<ModelTurn["finishReason"]> };

/**
 * The model: one assistant turn for a request, whole or as an async iterable of deltas (either
 * serves `run` and `stream`). A throw is the model call's error: `provider_http` with the
 * thrown value's `status` when it has one in 400–599 (a 429 or 503 is retried when `retries`
 * allows), else 500; an abort (`signal`) stays `aborted`. A turn of the wrong shape is
 * `provider_http` 502, its message naming what was wrong.
 */
export type Generate = (request: ModelRequest, context: { signal?: AbortSignal }) => ModelTurn | AsyncIterable<ModelDelta> | Promise<ModelTurn | AsyncIterable<ModelDelta>>;

/** What `inProcessModel` gives: client options to spread into `createClient`. */
export interface InProcessModelOptions {
  style: "openai";
  baseUrl: typeof IN_PROCESS_BASE_URL;
  model: string;
  retries: number;
  fetch: (url: string, init: { method: string; headers: { [name: string]: string }; body: string; signal?: AbortSignal }, call?: { callPath: string }) => Promise<Response | { status: number; text(): Promise<string> }>;
}

/**
 * Client options whose model calls go to `generate`: spread them into `createClient` (and give
 * the same ones to the client that resumes a halted run). `model` is the name the requests and
 * metrics carry (default `"in-process"`); `retries` defaults to 0.
 * @example
 * ```ts
 * import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
 * import { inProcessModel, type Generate } from "toolnexus-wasm/in-process";
 *
 * const generate: Generate = (req) => {
 *   const last = req.messages[req.messages.length - 1];
 *   return last.role === "tool" ? { text: `The page says: ${last.content}` } : { toolCalls: [{ name: "read_page", args: {} }] };
 * };
 * const client = createClient(inProcessModel({ generate }));
 * const toolkit = createToolkit([relayTool("read_page", "Read the page")]);
 * const r = await client.run("What does the page say?", { toolkit });
 * if (r.status === "pending") console.log(r.pending.kind); // "tool_call": answer it with runWithAnswer
 * ```
 */
export declare function inProcessModel(options: { generate: Generate; model?: string; retries?: number }): InProcessModelOptions;
