
/** A JSON Schema object describing a tool's arguments. */
export type JsonSchema = { [key: string]: unknown };

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A suspension: something the host must answer before the tool call can finish. */
export interface Suspension {
  id: string;
  /** Open vocabulary: "authorization", "approval", "input", "question", "tool_call" (relay)… */
  kind: string;
  prompt: string;
  url?: string;
  data?: { [key: string]: unknown };
  expiresAt?: string;
  /**
   * The tool wants to see a refusal: an `ok: false` answer (or none) re-runs it with that answer
   * as `ctx.answer` and its result is the call's, instead of `declined/expired`. MCP questions
   * (`kind: "input"`) set it, so the server hears `decline` / `cancel`.
   */
  rerunOnDecline?: boolean;
  /** The tool call this suspends (its `ToolContext.toolCallId`, after the `path`'s call ids); set by the loop. */
  callId?: string;
  /**
   * Set when an agent tool's child asked (`agentTool`): the agents it came up through, from the
   * root down, each with the delegate call that runs it. `kind`, `data` and `callId` are the
   * child's own tool call's, never the delegate call's; answer it like any suspension.
   */
  path?: { agent: string; callId: string }[];
}

/** @deprecated Renamed `Suspension` (this name shadowed fetch's `Request`). */
export type Request = Suspension;

/** The host's answer to a Suspension. The loop branches only on `ok`. */
export interface Answer {
  /** Must echo the Suspension's id when resuming with runWithAnswer. */
  id: string;
  ok: boolean;
  data?: { [key: string]: unknown };
  reason?: "declined" | "cancelled" | "expired" | string;
}

/** One relay call in `Suspension.data.calls`. */
export interface RelayCall {
  /** The provider's tool-call id. */
  id: string;
  name: string;
  input: { [key: string]: unknown };
  /** The provider's raw arguments string (OpenAI), or the serialised input (Anthropic). */
  arguments: string;
}

/** Text in a multimodal prompt or result. */
export interface TextPart {
  type: "text";
  text: string;
}

/**
 * An image: base64 `data` (with `mediaType`; png, jpeg, gif and webp are recognised from the
 * bytes when it is left out) or a `url` (a `data:` URL counts as data). The media type must be
 * one every provider accepts: image/png, image/jpeg, image/gif or image/webp.
 */
export interface ImagePart {
  type: "image";
  data?: string;
  url?: string;
  mediaType?: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | string;
}

/** A part of a prompt (`run`/`ask`/`stream` take a string or `Part[]`), a tool result or a relay answer. */
export type Part = TextPart | ImagePart;

/** The host's result for one relay call, matched by `id`; `parts` (images) go to the model after `output`. */
export interface RelayResult {
  id: string;
  output: string;
  isError?: boolean;
  parts?: Part[];
}

/** A tool's result. A tool returning `{ output, parts }` (isError optional) sends the parts (images) after the text. */
export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: { [key: string]: unknown; pending?: Suspension };
  parts?: Part[];
}

/** The second argument of a tool's run function. */
export interface ToolContext {
  /**
   * The provider's id of this call (stable across a resume and a Workflow replay). A tool of an
   * agent tool's child sees it after its delegate calls' ids (`d1/call_0_0`): unique in the tree.
   */
  toolCallId: string;
  /** Present only when the tool is re-run after its suspension was answered. */
  answer?: Answer;
  /** The run's signal, when one was given. */
  signal?: AbortSignal;
}

/**
 * `needsApproval` of a tool: `true`, or a function of the (validated) arguments and
 * `{ name, signal }` that asks when it returns anything but `false`. The call then suspends
 * with `kind: "approval"` and `data: ApprovalData` before the tool runs; `{ id, ok: true }`
 * runs it, a refusal ends the call `declined/expired: approval to run <name>` and it never runs.
 */
export type NeedsApproval<Args = { [key: string]: unknown }> =
  | boolean
  | ((args: Args, ctx: { name: string; signal?: AbortSignal }) => boolean | Promise<boolean>);

/** `Suspension.data` of a `kind: "approval"` suspension (relay calls of the turn may be merged in as `calls`). */
export interface ApprovalData {
  name: string;
  arguments: { [key: string]: unknown };
}

/** What a tool's run may return: a string, a ToolResult (e.g. from pending()), or any JSON value. */
export type ToolReturn = string | ToolResult | { output: string; parts: Part[]; isError?: boolean } | JsonValue | undefined;

/** A Standard Schema (https://standardschema.dev): zod 4, valibot, arktype, ... */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: how the tool's schema is offered to the model. */
    readonly jsonSchema?: { readonly input: (options: { readonly target: string }) => Record<string, unknown> };
  };
}

export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

/** A JSON Schema carrying the type of the arguments it describes: see `jsonSchema<T>()`. */
export type TypedJsonSchema<T> = JsonSchema & { readonly "~toolnexusArgs"?: T };

/**
 * A tool's arguments as its schema describes them: a Standard Schema's output, `jsonSchema<T>()`'s
 * `T`, a literal JSON Schema's shape (`FromJsonSchema`), else an object of unknowns.
 */
export type ToolArgs<S> = S extends { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O } ? O : unknown
  : S extends { readonly "~toolnexusArgs"?: infer A } ? unknown extends A ? FromJsonSchemaArgs<S> : A
  : FromJsonSchemaArgs<S>;

/**
 * The arguments a tool's JSON Schema describes, as `run` receives them: the object
 * `FromJsonSchema` reads from a schema with `properties`, else `{ [key: string]: unknown }` (a
 * schema that says nothing, or one typed only as `JsonSchema`). A model always sends an object.
 */
export type FromJsonSchemaArgs<S> = S extends { readonly properties: object } ? FromJsonSchema<S> : { [key: string]: unknown };

/**
 * The TypeScript type of a JSON Schema written as a literal (`defineTool` infers its
 * `inputSchema` as `const`): `type` "string", "number", "integer", "boolean", "null", "array"
 * (of `items`) and "object" (its `properties`, those in `required` required and the rest
 * optional, and other keys `unknown` unless `additionalProperties: false`), a list of types,
 * `enum`, `const`, `anyOf` / `oneOf`. Anything else, or a schema held in a variable typed
 * `JsonSchema`, is `unknown`. Only a type: a plain JSON Schema is not validated, so `run` gets
 * what the model sent (a Standard Schema such as zod validates, see `defineTool`).
 */
export type FromJsonSchema<S, Depth extends unknown[] = []> =
  // Deep enough for any tool's arguments, and it keeps TypeScript off its recursion limit.
  Depth["length"] extends 8 ? unknown
  : S extends { readonly const: infer C } ? C
  : S extends { readonly enum: readonly (infer E)[] } ? E
  : S extends { readonly anyOf: readonly (infer M)[] } ? (M extends unknown ? FromJsonSchema<M, [...Depth, 0]> : never)
  : S extends { readonly oneOf: readonly (infer M)[] } ? (M extends unknown ? FromJsonSchema<M, [...Depth, 0]> : never)
  : S extends { readonly type: infer T } ? (T extends readonly (infer U)[] ? SchemaOfType<S, U, Depth> : SchemaOfType<S, T, Depth>)
  : S extends { readonly properties: object } ? SchemaOfType<S, "object", Depth>
  : unknown;

/** `FromJsonSchema` of one `type` of a schema `S` (`T` a union when `type` is a list). */
export type SchemaOfType<S, T, Depth extends unknown[]> = T extends "string" ? string
  : T extends "number" | "integer" ? number
  : T extends "boolean" ? boolean
  : T extends "null" ? null
  : T extends "array" ? (S extends { readonly items: infer I } ? FromJsonSchema<I, [...Depth, 0]>[] : unknown[])
  : T extends "object" ? SchemaObject<S, Depth>
  : unknown;

/** `FromJsonSchema` of an object schema: its `properties` (required as `required` says), and any other key `unknown` unless `additionalProperties: false`. */
export type SchemaObject<S, Depth extends unknown[]> = Flatten<
  (S extends { readonly properties: infer P extends object }
    ? { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K], [...Depth, 0]> }
      & { -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K], [...Depth, 0]> }
    : {})
  & (S extends { readonly additionalProperties: false } ? {} : { [key: string]: unknown })
>;

/** The names an object schema lists in `required`. */
export type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** One object type for the intersections above, so that editors show `{ item: string; ... }`. */
export type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** What `defineTool` takes; `Args` is inferred from `inputSchema`. */
export interface ToolDefinition<Args = { [key: string]: unknown }, Schema = JsonSchema | StandardSchema> {
  name: string;
  description: string;
  /** A JSON Schema (not validated: the model's arguments reach `run` as they are), or a Standard Schema (validated before `run`; invalid arguments become an error result the model can correct). */
  inputSchema?: Schema;
  /** The JSON Schema offered to the model, for a Standard Schema without `~standard.jsonSchema`. */
  jsonSchema?: JsonSchema;
  source?: string;
  /** Ask the host before each call runs (see NeedsApproval). */
  needsApproval?: NeedsApproval<Args>;
  run: (args: Args, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}

/** A tool from defineTool() (source "native") or relayTool() (source "relay", no run). */
export interface Tool<Args = any> {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  source: string;
  /** Read by createToolkit (and a run's plain tool list); defineTool applies it at once. */
  needsApproval?: NeedsApproval<Args>;
  run?: (args: Args, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}

/** What `onError(info)` is given for a failed provider attempt; return "retry" to retry (within `retries`). */
export interface ErrorInfo {
  error: string;
  /** The HTTP status, when the provider answered. */
  status?: number;
  /** 0-based. */
  attempt: number;
  retryable: boolean;
}

/** A tool as hooks see it. */
export interface ToolDeclaration {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Async functions around each model call and tool call; a throw stops the run with `host_callback`. */
export interface Hooks {
  /** May replace the messages (the style's dialect) and tools for the rest of the run. */
  beforeLLM?: (info: { messages: Message[]; tools: ToolDeclaration[]; model: string; turn: number }) =>
    void | { messages?: Message[]; tools?: ToolDeclaration[] } | Promise<void | { messages?: Message[]; tools?: ToolDeclaration[] }>;
  /** Sees the provider's raw reply (`{ streamed: true, usage }` when streamed). */
  afterLLM?: (info: { response: unknown; model: string; turn: number }) => void | Promise<void>;
  /** May answer the call itself (`{ result }`, a `pending(...)` result suspends) or change its arguments. */
  beforeTool?: (info: { name: string; args: { [key: string]: unknown }; id: string; turn: number }) =>
    void | { result?: ToolReturn; args?: { [key: string]: unknown } } | Promise<void | { result?: ToolReturn; args?: { [key: string]: unknown } }>;
  /** May replace the result; never sees a suspension. */
  afterTool?: (info: { name: string; args: { [key: string]: unknown }; result: ToolResult; id: string; turn: number }) =>
    void | { result?: ToolReturn } | Promise<void | { result?: ToolReturn }>;
}

export type Style = "openai" | "anthropic" | "gemini" | "responses";

/**
 * Options as a call takes them: each optional member also accepts `undefined`, read as absent,
 * so that a project with `exactOptionalPropertyTypes` can pass `apiKey: process.env.OPENAI_API_KEY`.
 * `Keep` names the members that refuse `undefined` (`stateSecret`: present means "sign", so an
 * undefined secret is an error, not "unsigned"). The option interfaces themselves stay as the
 * reference shows them.
 */
export type AcceptUndefined<T, Keep extends PropertyKey = never> = T extends unknown
  ? { [K in keyof T]: K extends Keep ? T[K] : {} extends Pick<T, K> ? T[K] | undefined : T[K] }
  : never;

export interface ClientOptions {
  /**
   * The provider's API root, without the endpoint path (the client adds `/chat/completions`,
   * `/responses`, `/v1/messages` or `/v1beta/models/<model>:generateContent`). Default by `style`:
   * "https://api.openai.com/v1" (openai, responses), "https://api.anthropic.com" (anthropic),
   * "https://generativelanguage.googleapis.com" (gemini). One without a scheme, or ending in the
   * endpoint path, is refused (`bad_input`).
   */
  baseUrl?: string;
  style: Style;
  /** Sent as is in the body (OpenAI, Anthropic). Gemini puts it in the URL as one percent-encoded
   * path segment: a model with `/`, `\\`, `?`, `#`, `..` or control characters is refused (`bad_input`). */
  model: string;
  /** Never stored in results, states or error messages. */
  apiKey?: string;
  /** Extra headers; they override the defaults. */
  headers?: { [name: string]: string };
  systemPrompt?: string;
  /** Model round trips per run (default 10). */
  maxTurns?: number;
  /**
   * Resolve suspensions in-process. Without it, a suspension halts the run with status "pending".
   * `signal` is the run's (a stream's is aborted when its consumer leaves): withdraw what you show
   * when it aborts. A stream's `pending` event has been received by its consumer before this runs.
   * @example
   * ```ts
   * import { createClient, relayAnswer, relayCallsOf, isRelayRequest } from "toolnexus-wasm";
   * const client = createClient({
   *   baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini", apiKey: "sk-...",
   *   waitFor: async (request, { signal }) => {
   *     if (!isRelayRequest(request)) return { id: request.id, ok: confirm(request.prompt) }; // an approval, a question
   *     const results = await Promise.all(relayCallsOf(request).map(async (call) => {
   *       const res = await fetch("https://tab.example/" + call.name, { method: "POST", body: call.arguments, signal });
   *       return { id: call.id, output: await res.text() };
   *     }));
   *     return relayAnswer(request.id, results);
   *   },
   * });
   * ```
   */
  waitFor?: (request: Suspension, ctx: { signal?: AbortSignal }) => Answer | undefined | Promise<Answer | undefined>;
  /** Where ask/askWithAnswer (and stream with an id) keep conversations. Default: memoryStore(). */
  store?: ConversationStore;
  /** Called synchronously with each metric event; a throwing sink is ignored. */
  onMetric?: (event: MetricEvent) => void;
  /** The longest wait a provider may ask for (`retry-after-ms`, `Retry-After`) before a retry, in
   * ms (default 60000, at most 2147483647). A longer one fails the attempt at once with the
   * provider's error, unless `onError` answers "retry" (the wait is then this cap). */
  maxRetryAfterMs?: number;
  /**
   * A fetch to use instead of the global one. A model call of an agent tool's child (`agentTool`)
   * gets a third argument, `{ callPath }`: its delegate calls' ids from the root down (`d1/d7`).
   */
  fetch?: (url: string, init: { method: string; headers: { [name: string]: string }; body: string; signal?: AbortSignal }, call?: { callPath: string }) => Promise<Response | { status: number; text(): Promise<string> }>;
  /** Retries of a failed provider call (429, 500, 502, 503, 504, 529, network errors); default 2, 0 = none. */
  retries?: number;
  /** Backoff base in ms (default 500; 0 < n <= 2**31 - 1): `retryBaseMs * 2^attempt` plus up to 100 ms of jitter (a provider's `retry-after-ms` / `Retry-After` wins, up to `maxRetryAfterMs`). */
  retryBaseMs?: number;
  /** Decides each failed attempt: "retry" retries (never beyond `retries`), anything else fails. */
  onError?: (info: ErrorInfo) => "retry" | "fail" | void | Promise<"retry" | "fail" | void>;
  /** A deadline for the whole run, store calls included, in ms (0 < n <= 2**31 - 1); it aborts with code `aborted` ("run timeout after <ms>ms"). */
  timeoutMs?: number;
  /** Longest model reply body, whole or streamed (default 8 MiB); longer is `response_too_large`. */
  maxResponseBytes?: number;
  hooks?: Hooks;
  /** Shallow-merged into every request body (`messages`, `tools` and `stream` stay the loop's): `temperature`, `max_tokens`, ... */
  requestParams?: { [key: string]: unknown };
  /** Called with each request body (after `requestParams`); may return a new one. */
  bodyTransform?: (body: { [key: string]: unknown }) => { [key: string]: unknown } | void | Promise<{ [key: string]: unknown } | void>;
  /**
   * Signs every halted result and stored conversation state with HMAC-SHA256 (WebCrypto) under
   * this secret, and refuses (`bad_state`, before any provider call) a state given to
   * runWithAnswer / streamWithAnswer or read from the store whose `signature` is missing or
   * wrong. A list rotates keys: the first signs, any of them verifies. At least 16 characters
   * (32 random bytes, base64, is right); present but empty or undefined is refused. Read by the
   * JS layer and never passed on: not in the wasm, results, errors or logs.
   */
  stateSecret?: string | string[];
}

/**
 * A message in the dialect of any of the four styles: an OpenAI chat message (`tool_calls`, a
 * `tool` message), a Responses API input item (a `function_call`, `function_call_output` or
 * `reasoning` item has a `type` and no `role`), an Anthropic message (content blocks) or a Gemini
 * content (`role` "user" | "model" and `parts`). A `history` is read message by message, each by
 * its own shape and whatever the client's style, so a history saved under one style loads under
 * another; what a client gives (a result's `messages`, what `beforeLLM` sees) is in its own
 * style. An assistant message that carries the provider's reasoning state (thinking blocks,
 * thought signatures, reasoning items) also has `reasoningOrigin`: it is sent back only to that
 * provider and model.
 */
export type Message =
  | { role: string; content?: unknown; reasoningOrigin?: ReasoningOrigin; [key: string]: unknown }
  | { type: string; reasoningOrigin?: ReasoningOrigin; [key: string]: unknown };

/** Whose reasoning state a message carries; `model` is "" when a history did not say. */
export interface ReasoningOrigin {
  provider: "anthropic" | "gemini" | "openai";
  model: string;
}

/** Why the last model call ended, the same words for every provider. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "refusal" | "other";

export interface RunOptions {
  toolkit?: Toolkit | { tools: Tool[] };
  history?: Message[];
  /** Checked before each provider call and passed to fetch. */
  signal?: AbortSignal;
}

export interface AskOptions {
  toolkit?: Toolkit | { tools: Tool[] };
  /** The conversation id in the store. Without it, ask is run. */
  id?: string;
  /** Streams the model's text: called with each delta. */
  onText?: (delta: string) => void;
  signal?: AbortSignal;
}

export interface AskWithAnswerOptions {
  toolkit?: Toolkit | { tools: Tool[] };
  id: string;
  answer: Answer;
  /** Read from the store when omitted; must match it when given. */
  pending?: Suspension;
  signal?: AbortSignal;
}

export interface StreamOptions {
  toolkit?: Toolkit | { tools: Tool[] };
  /** Keep the conversation under this id in the store (as ask does); otherwise `history` is used. */
  id?: string;
  history?: Message[];
  signal?: AbortSignal;
}

export type StreamWithAnswerOptions =
  | { toolkit?: Toolkit | { tools: Tool[] }; id: string; answer: Answer; pending?: Suspension; signal?: AbortSignal }
  | ResumeOptions;

/** Events of client.stream / client.streamWithAnswer, in contract order. */
export type StreamEvent =
  | { type: "text"; delta: string; agent?: string }
  /** Readable reasoning (thinking text, thought summaries) of a streamed reply; never in `text`. */
  | { type: "reasoning"; delta: string; agent?: string }
  | { type: "tool_call"; id: string; name: string; args: { [key: string]: unknown }; agent?: string }
  /** `parts`: the result's parts after `output` (a tool's or MCP server's images), when it has any. */
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean; parts?: Part[]; agent?: string }
  /** `agent` (on each event but `usage` and `done`): the path of the agent tool's child it came from, `research/browse`. */
  | { type: "pending"; request: Suspension; agent?: string }
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: RunResult };

/**
 * What client.stream / client.streamWithAnswer return: events queue until `next()` takes them,
 * and the run starts no model call, tool, `waitFor` or store save while any wait there.
 */
export interface EventStream extends AsyncIterable<StreamEvent> {
  next(): Promise<IteratorResult<StreamEvent, undefined>>;
  /** Leaves the stream (`break`, a throw in a `for await` body): the run is aborted. */
  return(): Promise<IteratorResult<StreamEvent, undefined>>;
}

/** What a store keeps per conversation id: plain, versioned JSON. */
export interface ConversationState {
  /** 2 since reasoning state is kept; stores written with 1 still load. */
  schemaVersion: 1 | 2;
  style: Style;
  messages: Message[];
  /** Present while the conversation is halted on a request. */
  pending?: Suspension;
  /** The calls of the halted turn still waiting for a result. */
  outstanding?: { id: string; name: string }[];
  /** Raised by one on every save; a checking store refuses anything but stored + 1 (`conflict`). */
  revision: number;
  /**
   * The id of the request a resume claimed, saved before that resume ran anything: a second
   * resume gets `conflict`. Left behind by a resume that died, it stays until
   * `discard(id, { keepHistory: true })` closes the turn as interrupted (docs/decisions/resume-claim.md).
   */
  claimed?: string;
  /** With `stateSecret`, as the store holds it (a client's store reads it back without). */
  signature?: string;
}

/** Any object with these async methods is a store. */
export interface ConversationStore {
  get(id: string): Promise<ConversationState | undefined | null>;
  save(id: string, state: ConversationState): Promise<void>;
  delete(id: string): Promise<void>;
}

/** The part of a Workers KV namespace binding kvStore uses. */
export interface KVNamespaceLike {
  get(key: string, type: "json"): Promise<unknown>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

export type ResumeOptions =
  | { toolkit?: Toolkit | { tools: Tool[] }; history: Message[]; pending: Suspension; answer: Answer; signal?: AbortSignal }
  | { toolkit?: Toolkit | { tools: Tool[] }; state: RunResult; answer: Answer; signal?: AbortSignal };

export interface Usage {
  promptTokens: number;
  /** Everything the model wrote, its reasoning included (Gemini's thoughts are added in). */
  completionTokens: number;
  totalTokens: number;
  /** The reasoning part of `completionTokens`, where the provider reports it (OpenAI, Gemini); absent when 0. */
  reasoningTokens?: number;
  /** The part of `promptTokens` read from the provider's prompt cache (OpenAI and Responses `cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini `cachedContentTokenCount`); absent when 0. */
  cacheReadTokens?: number;
  /** The part of `promptTokens` written to the cache (Anthropic `cache_creation_input_tokens`); absent when 0. */
  cacheWriteTokens?: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  args: { [key: string]: unknown };
  output: string;
  isError: boolean;
  metadata?: { [key: string]: unknown };
}

/**
 * What `run`, `runWithAnswer`, `ask`, `askWithAnswer` and a stream's `done` event give: plain
 * data (JSON.stringify / JSON.parse keep everything resume needs), one of three shapes told
 * apart by `status`, so that a check of `status` narrows it:
 * - `"done"`: the model answered; `text` is its answer.
 * - `"pending"`: halted on `pending`, a suspension the host answers (`runWithAnswer`, or
 *   `askWithAnswer` for a conversation kept in the store).
 * - `"incomplete"`: stopped by `limit` (`maxTurns`) before the model answered.
 * @example
 * ```ts
 * import { createClient, relayCallsOf, type RunResult } from "toolnexus-wasm";
 * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" });
 * const r: RunResult = await client.run("Add the blue mug to the cart");
 * if (r.status === "pending") console.log(r.pending.kind, relayCallsOf(r.pending)); // r.pending: Suspension
 * else if (r.status === "incomplete") console.log(`stopped by ${r.limit}`);
 * else console.log(r.text);
 * ```
 */
export type RunResult = RunResultDone | RunResultPending | RunResultIncomplete;

/** `RunResult` with `status: "done"`: the model answered. */
export interface RunResultDone extends RunResultBase {
  status: "done";
  limit?: undefined;
  pending?: undefined;
}

/** `RunResult` with `status: "pending"`: halted on `pending` until the host answers it. */
export interface RunResultPending extends RunResultBase {
  status: "pending";
  limit?: undefined;
  /** The suspension to answer: its `id` is the answer's (`relayAnswer(pending.id, results)`). */
  pending: Suspension;
}

/** `RunResult` with `status: "incomplete"`: stopped by a limit before the model answered. */
export interface RunResultIncomplete extends RunResultBase {
  status: "incomplete";
  limit: "maxTurns";
  pending?: undefined;
}

/** What every `RunResult` carries, whatever its `status` (`RunResultDone`, `RunResultPending`, `RunResultIncomplete`). */
export interface RunResultBase {
  /** 2 since reasoning state is kept (a version 1 state still resumes); 3 on a state with halted agent children. */
  schemaVersion: 1 | 2 | 3;
  /** The dialect `messages` is written in. */
  style: Style;
  text: string;
  messages: Message[];
  toolCalls: ToolCallRecord[];
  toolCallCount: number;
  turns: number;
  /** Every model call of this run, its agent tools' children included. */
  usage: Usage;
  /** Each agent tool's own model calls, by path (`research`, `research/browse`); absent without agents. */
  agentUsage?: { [path: string]: Usage };
  model: string;
  /**
   * How the last model call of this run (or resume) ended; absent when it made none. "length":
   * cut at the token limit; "refusal": the model declined and `text` is its refusal;
   * "content_filter": the provider's safety system cut it.
   */
  finishReason?: FinishReason;
  /** The provider's own word for it (`end_turn`, `STOP`, `max_output_tokens`, ...). */
  providerFinishReason?: string;
  /** The readable reasoning of this run's model calls; "" when the model gave none. */
  reasoning: string;
  /** With `stateSecret`, on a pending result: its HMAC-SHA256 (base64). */
  signature?: string;
}

/** One per provider call, one per tool execution, one per run. */
export type MetricEvent =
  | { event: "llm"; model: string; status: "ok" | "error"; ms: number; promptTokens: number; completionTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number }
  | { event: "tool"; tool: string; source: string; isError: boolean; ms: number; pending?: true }
  | { event: "run"; model: string; turns: number; toolCalls: number; totalTokens: number; ms: number; error?: string };

export type ErrorCode =
  | "bad_input" | "provider_http" | "provider_parse" | "provider_error" | "transport"
  | "answer_mismatch" | "bad_state" | "relay_collision" | "host_callback" | "aborted" | "store"
  | "conversation_halted" | "conflict" | "internal" | "response_too_large";

/**
 * Declares a relay tool: nothing runs in-process; each call surfaces to the host as a Request of
 * kind "tool_call" (to waitFor, or as a durable status "pending" halt). Default schema:
 * `{ type: "object", properties: {} }`.
 */
export function relayTool(name: string, description?: string, schema?: JsonSchema): Tool;

/**
 * `[Symbol.dispose]()` (`using kit = createToolkit(...)`) where the TypeScript lib declares
 * `Symbol.dispose` (esnext, or `esnext.disposable`); elsewhere nothing, so these typings need no
 * particular `lib`. The method exists at run time wherever the runtime has `Symbol.dispose`.
 */
type DisposeMember = typeof globalThis extends { Symbol: { readonly dispose: infer K extends symbol } } ? { [P in K]: () => void } : {};

/** The tools a client offers the model. Relay tools named after a builtin are refused. */
export interface Toolkit extends DisposeMember {}
export class Toolkit {
  private constructor();
  free(): void;
  /** Adds a tool; the relay collision guard and duplicate-name check apply. A refused tool leaves the toolkit unchanged. */
  add(tool: Tool): void;
  /** The tool objects, in the order they were added. */
  readonly tools: Tool[];
}

/** `createToolkit({ tools })` (an array of tools is accepted too). */
export function createToolkit(opts: { tools: Tool[] } | Tool[]): Toolkit;

/** An OpenAI chat request for `client.translate` / `translateStream` (builds with the `translate` cargo feature). */
export interface TranslateRequest {
  messages: Message[];
  /** OpenAI tool declarations `{ type: "function", function: { name, description?, parameters? } }`. */
  tools?: { type?: "function"; function: { name: string; description?: string; parameters?: JsonSchema } }[];
  /** Its declarations come first; nothing is executed. */
  toolkit?: Toolkit | { tools: Tool[] };
  toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
  system?: string;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface TranslateResult {
  text: string;
  /** `arguments` is always a JSON string. */
  toolCalls: { id: string; name: string; arguments: string; extra_content?: { google: { thought_signature: string } } }[];
  /** Any tool call means "tool_calls"; a refusal is "content_filter" (and `refusal` is set). */
  finishReason: "stop" | "tool_calls" | "length" | "content_filter";
  /** The provider's own finish reason. */
  providerFinishReason?: string;
  /** The refusal's text, when the model declined. */
  refusal?: string;
  /** The readable reasoning of the reply; "" when none. */
  reasoning: string;
  usage: Usage;
  model: string;
  /** The provider's reply (absent when streamed). */
  raw?: unknown;
}

/** An OpenAI `chat.completion.chunk`, as translateStream yields them. */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: { index: number; delta: { role?: "assistant"; content?: string; reasoning_content?: string; tool_calls?: { index: number; id: string; type: "function"; function: { name: string; arguments: string }; extra_content?: { google: { thought_signature: string } } }[] }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
