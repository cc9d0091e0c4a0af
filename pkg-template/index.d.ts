// The public typings of every entry (browser, node, workerd, and the `full` alias). The data
// shapes are in ./toolnexus_wasm.js's typings (written once in src/wasm/types.d.ts); the
// functions and the client are declared here, so that wasm-bindgen's own declarations (the
// glue's init functions, its internal exports) are not part of the package's surface.
// tests/js/surface.test.mjs checks these names against what each entry exports at run time.
/**
 * The agent loop: `createClient` and its runs, tools (`defineTool`, `relayTool`, toolkits),
 * suspensions and their answers, conversation stores, and the data shapes they exchange. The same
 * typings serve the browser, Node and workerd entries and the `toolnexus-wasm/full` alias.
 * @module toolnexus-wasm
 */
import type {
  AcceptUndefined, Answer, AskOptions, AskWithAnswerOptions, ChatCompletionChunk, ClientOptions, ConversationState, ConversationStore,
  ErrorCode, EventStream, JsonSchema, KVNamespaceLike, NeedsApproval, Part, RelayCall, RelayResult, ResumeOptions, RunOptions, RunResult,
  StandardSchema, StreamOptions, StreamWithAnswerOptions, Style, Suspension, Tool, ToolArgs, ToolContext, ToolResult,
  ToolReturn, TranslateRequest, TranslateResult, TypedJsonSchema, Toolkit,
} from "./toolnexus_wasm.js";

export type {
  AcceptUndefined, Answer, ApprovalData, AskOptions, AskWithAnswerOptions, ChatCompletionChunk, ClientOptions, ConversationState, ConversationStore,
  ErrorCode, ErrorInfo, EventStream, FinishReason, Flatten, FromJsonSchema, FromJsonSchemaArgs, Hooks, ImagePart, JsonSchema, JsonValue, KVNamespaceLike, Message, MetricEvent, NeedsApproval, Part,
  ReasoningOrigin, RelayCall,
  RelayResult, Request, RequiredOf, ResumeOptions, RunOptions, RunResult, RunResultBase, RunResultDone, RunResultIncomplete, RunResultPending,
  SchemaObject, SchemaOfType, StandardResult, StandardSchema, StreamEvent, StreamOptions,
  StreamWithAnswerOptions, Style, Suspension, Tool, ToolArgs, ToolCallRecord, ToolContext, ToolDeclaration,
  TextPart, ToolDefinition, ToolResult, ToolReturn, TranslateRequest, TranslateResult, TypedJsonSchema, Usage,
} from "./toolnexus_wasm.js";
export { Toolkit } from "./toolnexus_wasm.js";

/** A client: the agent loop over one provider, model and store. Several runs may be in flight at once. */
export interface Client {
  /**
   * Runs the loop on a prompt (a string, or text and image parts); never touches the store.
   * @example
   * ```ts
   * import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
   * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-..." });
   * const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab")]);
   * const result = await client.run("Add the blue mug to the cart", { toolkit });
   * if (result.status === "pending") localStorage.setItem("halted", JSON.stringify(result)); // answer it later
   * else console.log(result.text);
   * ```
   */
  run(prompt: string | Part[], options?: AcceptUndefined<RunOptions>): Promise<RunResult>;
  /**
   * Resumes a halted run with the host's answer (`state`, or `history` + `pending`).
   * @example
   * ```ts
   * import { createClient, createToolkit, relayTool, relayAnswer, relayCallsOf, type RunResult } from "toolnexus-wasm";
   * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-..." });
   * const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab")]);
   * const state: RunResult = JSON.parse(localStorage.getItem("halted") ?? "null"); // a result of status "pending"
   * if (state.status === "pending") {
   *   const results = relayCallsOf(state.pending).map((call) => ({ id: call.id, output: "clicked" }));
   *   const done = await client.runWithAnswer({ toolkit, state, answer: relayAnswer(state.pending.id, results) });
   *   console.log(done.text);
   * }
   * ```
   */
  runWithAnswer(options: AcceptUndefined<ResumeOptions>): Promise<RunResult>;
  /**
   * `run` keeping the conversation `id` in the store; `onText` streams the text.
   * @example
   * ```ts
   * import { createClient } from "toolnexus-wasm";
   * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-..." });
   * await client.ask("My name is Ada.", { id: "chat-1" });
   * const reply = await client.ask("What is my name?", { id: "chat-1", onText: (delta) => console.log(delta) });
   * console.log(reply.text);
   * ```
   */
  ask(prompt: string | Part[], options?: AcceptUndefined<AskOptions>): Promise<RunResult>;
  /**
   * Resumes the halted conversation `id` (its suspension is read from the store).
   * @example
   * ```ts
   * import { createClient, createToolkit, relayTool, relayAnswer, relayCallsOf } from "toolnexus-wasm";
   * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-..." });
   * const toolkit = createToolkit([relayTool("click", "Click an element in the user's tab")]);
   * const r = await client.ask("Add the blue mug to the cart", { toolkit, id: "tab-42" });
   * if (r.status === "pending") { // later, even in another process with the same store:
   *   const results = relayCallsOf(r.pending).map((call) => ({ id: call.id, output: "clicked" }));
   *   await client.askWithAnswer({ toolkit, id: "tab-42", answer: relayAnswer(r.pending.id, results) });
   * }
   * ```
   */
  askWithAnswer(options: AcceptUndefined<AskWithAnswerOptions>): Promise<RunResult>;
  /**
   * The run as events ending with `done`; with `id` the store is used, as by `ask`.
   * @example
   * ```ts
   * import { createClient } from "toolnexus-wasm";
   * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-..." });
   * for await (const event of client.stream("Tell me a joke")) {
   *   if (event.type === "text") console.log(event.delta);
   *   if (event.type === "done" && event.result.status === "pending") console.log("waiting on", event.result.pending.kind);
   * }
   * ```
   */
  stream(prompt: string | Part[], options?: AcceptUndefined<StreamOptions>): EventStream;
  streamWithAnswer(options: AcceptUndefined<StreamWithAnswerOptions>): EventStream;
  /** One provider call for an OpenAI chat request, whatever this client's style. Nothing runs. */
  translate(request: TranslateRequest): Promise<TranslateResult>;
  /** `translate` streamed as OpenAI `chat.completion.chunk`s, then a usage chunk. */
  translateStream(request: TranslateRequest): AsyncIterable<ChatCompletionChunk>;
  /** Drops the conversation `id`; `keepHistory` keeps it, its waiting calls closed as declined. */
  discard(id: string, options?: { keepHistory?: boolean }): Promise<void>;
  /** The store this client keeps conversations in. */
  conversationStore(): ConversationStore;
  /** Prometheus text of this client's LLM requests, tokens, durations, tool calls and errors. */
  metrics(): string;
  readonly style: Style;
  readonly model: string;
  /** Releases the client's wasm memory now (it is released anyway once the client is collected). */
  free(): void;
}

/**
 * Creates a client; conversations are kept in a fresh memoryStore() unless `store` is given.
 * Unknown options are refused (`bad_input`, naming the right one).
 * @example
 * ```ts
 * import { createClient } from "toolnexus-wasm";
 * const client = createClient({
 *   baseUrl: "https://api.anthropic.com", style: "anthropic", model: "claude-sonnet-4-5",
 *   apiKey: "sk-ant-...", systemPrompt: "You are terse.", maxTurns: 5,
 * });
 * console.log((await client.run("Hello")).text);
 * ```
 */
export declare function createClient(options: AcceptUndefined<ClientOptions, "stateSecret">): Client;

/**
 * Declares a host tool. `inputSchema` is a JSON Schema (`run` gets the arguments it describes,
 * read from the literal by `FromJsonSchema`, or `T` through `jsonSchema<T>()`; not validated) or
 * a Standard Schema such as zod 4, valibot or arktype (`run` gets its validated output; invalid
 * arguments become an error result the model can correct).
 * @example
 * ```ts
 * import { defineTool } from "toolnexus-wasm";
 * const lookupPrice = defineTool({
 *   name: "lookup_price", description: "The price of an item in the shop",
 *   inputSchema: { type: "object", properties: { item: { type: "string" }, count: { type: "integer" } }, required: ["item"] },
 *   run: async ({ item, count = 1 }) => `${count} × ${item}: $${(12.5 * count).toFixed(2)}`, // item: string, count?: number
 * });
 * ```
 */
export declare function defineTool<const S extends JsonSchema | StandardSchema = JsonSchema>(def: {
  name: string;
  description: string;
  inputSchema?: S;
  /** The JSON Schema offered to the model, for a Standard Schema without `~standard.jsonSchema`. */
  jsonSchema?: JsonSchema;
  source?: string;
  /** `true`, or a function of the arguments: the call suspends with `kind: "approval"` before it runs. */
  needsApproval?: NeedsApproval<ToolArgs<S>>;
  run: (args: ToolArgs<S>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}): Tool<ToolArgs<S>>;

/** A JSON Schema typed with the arguments it describes, for `defineTool`: `jsonSchema<{ city: string }>({ ... })`. */
export declare function jsonSchema<T>(schema: JsonSchema): TypedJsonSchema<T>;

/**
 * Declares a relay tool: nothing runs in-process; each call surfaces to the host as a Suspension
 * of kind "tool_call" (to waitFor, or as a durable status "pending" halt).
 * @example
 * ```ts
 * import { relayTool } from "toolnexus-wasm";
 * const click = relayTool("click", "Click an element in the user's tab",
 *   { type: "object", properties: { selector: { type: "string" } }, required: ["selector"] });
 * ```
 */
export declare function relayTool(name: string, description?: string, schema?: JsonSchema): Tool;

/**
 * The tools a client offers the model (an array of tools is accepted too).
 * @example
 * ```ts
 * import { createToolkit, defineTool, relayTool } from "toolnexus-wasm";
 * const toolkit = createToolkit({ tools: [
 *   defineTool({ name: "now", description: "The current time", run: () => new Date().toISOString() }),
 *   relayTool("click", "Click an element in the user's tab"),
 * ] });
 * console.log(toolkit.tools.map((t) => t.name)); // ["now", "click"]
 * ```
 */
export declare function createToolkit(options: { tools: Tool[] } | Tool[]): Toolkit;

/** Return it from a tool's `run` to suspend the call; a missing `id` is generated. */
export declare function pending(request: Partial<Suspension> & { kind: string; prompt: string }): ToolResult;
/** `pending({ kind: "authorization", prompt, url })`. */
export declare function authRequired(url: string, prompt?: string): ToolResult;
/** Whether a suspension is a relay tool call (`kind === "tool_call"`). */
export declare function isRelayRequest(request: Suspension | undefined | null): boolean;
/** The relay calls a suspension carries, in call order; `[]` for other suspensions. */
export declare function relayCallsOf(request: Suspension): RelayCall[];
/**
 * The answer to a relay suspension: `{ id: requestId, ok: true, data: { results } }`.
 * @example
 * ```ts
 * import { relayAnswer, relayCallsOf, type Suspension } from "toolnexus-wasm";
 * export function answerClicks(request: Suspension) {
 *   const results = relayCallsOf(request).map((call) => ({ id: call.id, output: `clicked ${String(call.input.selector)}` }));
 *   return relayAnswer(request.id, results); // for waitFor, runWithAnswer or askWithAnswer
 * }
 * ```
 */
export declare function relayAnswer(requestId: string, results: RelayResult[]): Answer;
/** The revision rule a custom checking store applies (throws `conflict`). */
export declare function checkRevision(stored: ConversationState | undefined | null, state: ConversationState): void;

/** The default store: conversations in this JS realm's memory (copied on get and save). */
export declare function memoryStore(): ConversationStore;

/** A store over chrome.storage.local (default) or .session, for MV3 extensions. */
export declare function chromeStorageStore(options?: { area?: "local" | "session"; prefix?: string }): ConversationStore;

/** A store over a Durable Object namespace whose class is ConversationObject: revision checks are atomic. */
export declare function durableObjectStore(namespace: { idFromName(name: string): unknown; get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> } }): ConversationStore;

/** The Durable Object class for durableObjectStore; export it from your Worker's main module. */
export declare class ConversationObject {
  constructor(ctx: { storage: { get(key: string): Promise<unknown>; put(key: string, value: unknown): Promise<void>; delete(key: string): Promise<boolean | void> } }, env?: unknown);
  fetch(request: Request): Promise<Response>;
}

/** A store over a Workers KV namespace binding; `expirationTtl` in seconds (at least 60). */
export declare function kvStore(namespace: KVNamespaceLike, options?: { prefix?: string; expirationTtl?: number }): ConversationStore;

/** `Suspension.kind` of a relay tool call. */
export declare const RELAY_KIND: "tool_call";

/** Every error this package throws, with a stable `code`. */
export declare class ToolnexusError extends Error {
  constructor(message: string, code: ErrorCode, options?: { status?: number | undefined; cause?: unknown });
  readonly name: "ToolnexusError";
  readonly code: ErrorCode;
  /** The HTTP status, for `provider_http` (and `401` for an MCP server that demands authorization while listing). */
  readonly status?: number;
  readonly cause?: unknown;
  /**
   * `mcpTools` (`toolnexus-wasm/mcp`), when the server demands authorization while listing: the
   * request a host answers (run the flow, then list again); `code: "transport"`, `status: 401`.
   */
  readonly authRequired?: Suspension;
  /** True for a ToolnexusError, also one from another copy of the package (another bundle or realm). */
  static is(error: unknown): error is ToolnexusError;
}

/**
 * Loads the wasm module; idempotent, and optional: in browsers and extensions the first call that
 * needs the module loads it, so every export works at module level (a service worker must not
 * await at its top level). Declarations made before the load are checked when a run first uses
 * them. Call it to load ahead of time, to pass the module where a bundler does not emit the
 * `.wasm` beside the code (esbuild: `init(wasm)`), or in a handler before `pending`,
 * `authRequired`, `isRelayRequest`, `relayCallsOf` or `checkRevision`, which read with the
 * module. A resolved no-op in Node and Workers, where the module loads on import. `input`
 * defaults to the .wasm beside the package's JS. A failed load rejects with `bad_state` naming
 * the fix (`'wasm-unsafe-eval'` for a CSP refusal) and may be tried again.
 */
export declare function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;

/** Loads the wasm module synchronously from its bytes or a compiled module (browser entry). */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
