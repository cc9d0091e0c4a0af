// Compiled with `tsc --noEmit` against the built package: the typings cover every export and
// data shape, and wrong usage is a type error (the @ts-expect-error lines must stay errors).
import {
  init, createClient, memoryStore, chromeStorageStore, kvStore, createToolkit, defineTool, relayTool, pending, authRequired,
  isRelayRequest, relayCallsOf, relayAnswer, RELAY_KIND, checkRevision,
} from "toolnexus-wasm";
import type {
  Answer, Client, ClientOptions, RelayCall, RelayResult, Request, RunResult, Tool, ToolResult,
  Toolkit, ErrorCode, Usage, ToolCallRecord, MetricEvent, StreamEvent, ConversationStore,
  ConversationState, EventStream, KVNamespaceLike,
} from "toolnexus-wasm";

export async function example(apiKey: string): Promise<string> {
  await init();
  const lookup: Tool = defineTool({
    name: "lookup", description: "Look something up",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    run: async (args, ctx) => (ctx.answer ? `answered ${ctx.answer.ok}` : `result for ${String(args.q)}`),
  });
  const ask: Tool = defineTool({ name: "ask", description: "asks", run: () => pending({ kind: "input", prompt: "Which one?" }) });
  const login: ToolResult = authRequired("https://login.example", "Sign in");
  const kit: Toolkit = createToolkit({ tools: [lookup, ask, relayTool("click", "Click", { type: "object" })] });
  kit.add(relayTool("type_text", "Type"));
  const opts: ClientOptions = {
    baseUrl: "https://api.anthropic.com", style: "anthropic", model: "claude", apiKey, maxTurns: 4,
    headers: { "x-trace": "1" }, systemPrompt: "Be brief.",
    waitFor: async (req: Request): Promise<Answer> => {
      const calls: RelayCall[] = relayCallsOf(req);
      const results: RelayResult[] = calls.map((c) => ({ id: c.id, output: c.arguments, isError: false }));
      return isRelayRequest(req) && req.kind === RELAY_KIND ? relayAnswer(req.id, results) : { id: req.id, ok: false, reason: "declined" };
    },
  };
  const client: Client = createClient(opts);
  const r: RunResult = await client.run("hello", { toolkit: kit, history: [] });
  const usage: Usage = r.usage;
  const calls: ToolCallRecord[] = r.toolCalls;
  if (r.status === "pending" && r.pending) {
    const saved = JSON.stringify(r);
    const again = await client.runWithAnswer({ toolkit: kit, state: JSON.parse(saved) as RunResult, answer: { id: r.pending.id, ok: true } });
    const viaHistory = await client.runWithAnswer({ toolkit: kit, history: r.messages, pending: r.pending, answer: { id: r.pending.id, ok: false } });
    return again.text + viaHistory.text;
  }
  try {
    await client.run("x", {});
  } catch (e) {
    const err = e as import("toolnexus-wasm").ToolnexusError;
    const code: ErrorCode = err.code;
    return code;
  }
  // @ts-expect-error style is a closed set
  createClient({ baseUrl: "u", style: "cohere", model: "m" });
  // @ts-expect-error a tool definition needs run
  defineTool({ name: "x", description: "y" });
  return `${r.text} ${usage.totalTokens} ${calls.length} ${login.output}`;
}

export function metrics(): void {
  const events: MetricEvent[] = [];
  createClient({ baseUrl: "u", style: "openai", model: "m", onMetric: (e) => { events.push(e); if (e.event === "tool" && e.pending) console.log(e.tool); } });
}

export async function memory(kv: KVNamespaceLike): Promise<string> {
  const store: ConversationStore = Math.random() > 0.5 ? memoryStore() : Math.random() > 0.5 ? chromeStorageStore({ area: "session" }) : kvStore(kv, { expirationTtl: 3600 });
  const client = createClient({ baseUrl: "u", style: "openai", model: "m", store, maxRetryAfterMs: 5000 });
  const kit = createToolkit({ tools: [relayTool("click", "Click")] });
  const r: RunResult = await client.ask("hi", { toolkit: kit, id: "c1", onText: (d: string) => console.log(d) });
  if (r.pending) await client.askWithAnswer({ toolkit: kit, id: "c1", answer: { id: r.pending.id, ok: false } });
  const events: EventStream = client.stream("hi", { toolkit: kit, id: "c1" });
  let text = "";
  for await (const e of events) {
    const ev: StreamEvent = e;
    if (ev.type === "text") text += ev.delta;
    if (ev.type === "pending") await client.discard("c1", { keepHistory: true });
    if (ev.type === "done") text += ev.result.status;
  }
  for await (const e of client.streamWithAnswer({ toolkit: kit, id: "c1", answer: { id: "p", ok: true } })) text += e.type;
  const saved: ConversationState | undefined | null = await client.conversationStore().get("c1");
  // A custom store applies the core's revision rule inside its own atomic write.
  if (saved) checkRevision(await kv.get("c1", "json") as ConversationState | null, { ...saved, revision: saved.revision + 1 });
  // @ts-expect-error the incoming state is required
  checkRevision(saved);
  // @ts-expect-error ask needs a prompt
  await client.ask({ id: "c1" });
  return text + (saved?.outstanding?.length ?? 0);
}

import { createClient as createFullClient } from "toolnexus-wasm/full";
import type { TranslateResult, ChatCompletionChunk } from "toolnexus-wasm/full";

export async function proxy(): Promise<string> {
  const c = createFullClient({ baseUrl: "https://generativelanguage.googleapis.com", style: "gemini", model: "gemini-2.5-flash" });
  const r: TranslateResult = await c.translate({ messages: [{ role: "user", content: "hi" }], toolChoice: "required", maxTokens: 10 });
  let text = r.text + r.finishReason;
  for await (const chunk of c.translateStream({ messages: [{ role: "user", content: "hi" }] })) {
    const ch: ChatCompletionChunk = chunk;
    text += ch.choices[0]?.delta.content ?? "";
  }
  return text;
}

// Image parts (issue 14): a prompt of parts, a tool returning { output, parts }, a relay answer with parts.
export async function images(client: Client, png: string): Promise<string> {
  const shot: Tool = defineTool({ name: "shot", description: "a screenshot", run: async () => ({ output: "captured", parts: [{ type: "image", data: png, mediaType: "image/png" }] }) });
  const kit = createToolkit({ tools: [shot] });
  const r = await client.run([{ type: "text", text: "what is this?" }, { type: "image", url: "https://example.com/a.png" }], { toolkit: kit });
  const result: RelayResult = { id: "c1", output: "captured", parts: [{ type: "image", data: png }] };
  relayAnswer("p", [result]);
  // @ts-expect-error a part has a type
  await client.run([{ text: "no type" }], {});
  return r.text;
}

// Every option of createClient (the list is src/options.rs OPTIONS; surface.test.mjs checks
// that ClientOptions has exactly those keys), every export, event and error code.
import {
  ToolnexusError, jsonSchema, initSync, durableObjectStore, ConversationObject, Toolkit as ToolkitClass,
} from "toolnexus-wasm";
import type {
  Suspension, ErrorInfo, Hooks, StandardSchema, JsonValue, Message, ToolContext, ToolDefinition, ToolReturn, Style, FinishReason, ReasoningOrigin,
  ResumeOptions, RunOptions, AskOptions, AskWithAnswerOptions, StreamOptions, StreamWithAnswerOptions, TranslateRequest,
  ToolDeclaration, TypedJsonSchema, ToolArgs, JsonSchema,
} from "toolnexus-wasm";
import wasmModule from "toolnexus-wasm/toolnexus_wasm_bg.wasm";

export async function everything(kv: KVNamespaceLike): Promise<void> {
  await init(wasmModule);
  if (Math.random() > 2) initSync(new Uint8Array(0));
  const every: Required<ClientOptions> = {
    baseUrl: "u", style: "gemini", model: "m", apiKey: "k", headers: { a: "b" }, systemPrompt: "s", maxTurns: 3,
    waitFor: async (s: Suspension) => ({ id: s.id, ok: true }), store: memoryStore(),
    onMetric: (e: MetricEvent) => void e, fetch: async (url, init) => fetch(url, init),
    retries: 2, retryBaseMs: 10, maxRetryAfterMs: 30_000,
    onError: (info: ErrorInfo) => (info.retryable && info.attempt < 1 && info.status !== 400 ? "retry" : "fail"),
    timeoutMs: 1000,
    maxResponseBytes: 1 << 20,
    hooks: {
      beforeLLM: ({ messages, tools, model, turn }) => ({ messages: messages.slice(turn), tools: tools.filter((t: ToolDeclaration) => t.name !== model) }),
      afterLLM: async ({ response }) => void response,
      beforeTool: ({ name, args }) => (name === "x" ? { result: "skipped" } : { args: { ...args } }),
      afterTool: ({ result }) => ({ result: result.isError ? "failed" : result.output }),
    } satisfies Hooks,
    requestParams: { temperature: 0, max_tokens: 100 },
    bodyTransform: (body) => ({ ...body, user: "u1" }),
    stateSecret: ["the-new-secret-0123456789", "the-old-secret-0123456789"],
  };
  const c: Client = createClient(every);
  const style: Style = c.style;
  const model: string = c.model;
  // One argument is enough for run, ask, stream and discard.
  const r = await c.run("hi");
  await c.ask("hi");
  for await (const e of c.stream("hi")) {
    switch (e.type) {
      case "text": e.delta satisfies string; break;
      case "reasoning": e.delta satisfies string; break;
      case "tool_call": e.args satisfies { [key: string]: unknown }; break;
      case "tool_result": e.isError satisfies boolean; break;
      case "pending": e.request satisfies Suspension; break;
      case "usage": e.usage.totalTokens satisfies number; break;
      case "done": e.result satisfies RunResult; break;
      default: e satisfies never;
    }
  }
  await c.discard("x");
  const m: string = c.metrics();
  c.free();
  const dos = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: async () => new Response("{}") }) });
  const obj = new ConversationObject({ storage: { get: async () => undefined, put: async () => {}, delete: async () => true } });
  await obj.fetch(new Request("https://x/", { method: "POST" }));
  void [style, model, r, m, dos, kv];
  const ended: FinishReason | undefined = r.finishReason;
  const why: string | undefined = r.providerFinishReason;
  const thought: string = r.reasoning;
  const reasoningTokens: number | undefined = r.usage.reasoningTokens;
  const origin: ReasoningOrigin = { provider: "gemini", model: "gemini-3-pro-preview" };
  void [ended, why, thought, reasoningTokens, origin];
  // Errors: a real class with a guard; every code.
  const codes: ErrorCode[] = ["bad_input", "provider_http", "provider_parse", "provider_error", "transport", "answer_mismatch",
    "bad_state", "relay_collision", "host_callback", "aborted", "store", "conversation_halted", "conflict", "internal"];
  try {
    await c.run("x", { signal: AbortSignal.timeout(1) });
  } catch (e) {
    if (e instanceof ToolnexusError) { const code: ErrorCode = e.code; const s: number | undefined = e.status; void [code, s, e.cause]; }
    if (ToolnexusError.is(e) && codes.includes(e.code)) throw new ToolnexusError("again", e.code, { status: e.status, cause: e });
  }
  // @ts-expect-error not an error code
  new ToolnexusError("m", "nope");
  // @ts-expect-error unknown options are refused (and at run time: bad_input, "did you mean")
  createClient({ baseUrl: "u", style: "openai", model: "m", baseURL: "u" });
  // @ts-expect-error the AI SDK's `tools` is not a client option
  createClient({ baseUrl: "u", style: "openai", model: "m", tools: [] });
}

// Tool arguments are typed from the schema.
interface StdOf<T> extends StandardSchema<T, T> {}
export function typedTools(zodLike: StdOf<{ city: string; days?: number }>): Tool[] {
  const weather = defineTool({
    name: "weather", description: "Weather", inputSchema: zodLike,
    run: async ({ city, days }) => `${city.toUpperCase()} ${(days ?? 1).toFixed(0)}`,
  });
  const add = defineTool({
    name: "add", description: "Adds",
    inputSchema: jsonSchema<{ a: number; b: number }>({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }),
    run: ({ a, b }) => a + b,
  });
  const loose = defineTool({ name: "loose", description: "untyped", inputSchema: { type: "object" }, run: (args) => JSON.stringify(args) });
  // @ts-expect-error city is a string, not a number
  defineTool({ name: "w", description: "w", inputSchema: zodLike, run: ({ city }: { city: number }) => String(city) });
  // @ts-expect-error args of an untyped JSON Schema are unknown, not any
  defineTool({ name: "l", description: "l", inputSchema: { type: "object" }, run: (args) => args.q.toUpperCase() });
  const schema: TypedJsonSchema<{ q: string }> = jsonSchema<{ q: string }>({});
  const args: ToolArgs<typeof schema> = { q: "x" };
  const def: ToolDefinition<{ q: string }> = { name: "d", description: "d", inputSchema: schema as JsonSchema, run: ({ q }, ctx: ToolContext) => q + String(ctx.answer?.ok) };
  const ret: ToolReturn = { a: 1 } satisfies JsonValue;
  const msgs: Message[] = [{ role: "user", content: "hi" }, { type: "function_call", call_id: "c", name: "f", arguments: "{}" }];
  // @ts-expect-error: not a style
  createClient({ baseUrl: "x", style: "cohere", model: "m" });
  createClient({ baseUrl: "https://api.openai.com/v1", style: "responses", model: "gpt-5" });
  const opts: [RunOptions, AskOptions, StreamOptions, TranslateRequest] = [{ history: msgs }, { id: "a" }, { id: "a" }, { messages: msgs }];
  const resume: [ResumeOptions, AskWithAnswerOptions, StreamWithAnswerOptions] = [
    { history: msgs, pending: { id: "p", kind: "input", prompt: "?" }, answer: { id: "p", ok: true } },
    { id: "a", answer: { id: "p", ok: true } }, { id: "a", answer: { id: "p", ok: true } }];
  const kit: ToolkitClass = createToolkit([weather, add, loose]);
  void [args, def, ret, opts, resume, kit];
  return kit.tools;
}

// Signed states and approvals (issue 24).
import type { NeedsApproval, ApprovalData } from "toolnexus-wasm";

export async function trust(secret: string, kv: KVNamespaceLike): Promise<string> {
  const client = createClient({ baseUrl: "u", style: "openai", model: "m", stateSecret: secret, store: kvStore(kv) });
  createClient({ baseUrl: "u", style: "openai", model: "m", stateSecret: [secret, "an-older-secret-0123456789"] });
  // @ts-expect-error a secret is a string or a list of strings
  createClient({ baseUrl: "u", style: "openai", model: "m", stateSecret: new Uint8Array(32) });
  const policy: NeedsApproval<{ path: string }> = async ({ path }, { name, signal }) => path.startsWith("/etc") && name !== "" && !signal?.aborted;
  const del = defineTool({
    name: "delete_file", description: "Deletes a file",
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } } }),
    needsApproval: policy,
    run: async ({ path }) => `deleted ${path}`,
  });
  const always = defineTool({ name: "pay", description: "Pays", needsApproval: true, run: () => "paid" });
  // @ts-expect-error the function gets the tool's typed arguments
  defineTool({ name: "x", description: "x", inputSchema: jsonSchema<{ n: number }>({}), needsApproval: ({ path }: { path: string }) => path === "/", run: () => "" });
  // @ts-expect-error true, false or a function
  defineTool({ name: "x", description: "x", needsApproval: "yes", run: () => "" });
  const raw: Tool = { name: "raw", description: "r", inputSchema: { type: "object" }, source: "native", needsApproval: true, run: () => "ran" };
  const kit = createToolkit([del, always, raw]);
  const r = await client.run("clean up", { toolkit: kit });
  if (r.status === "pending" && r.pending?.kind === "approval") {
    const data = r.pending.data as unknown as ApprovalData;
    const signature: string | undefined = r.signature;
    const state: RunResult = JSON.parse(JSON.stringify(r));
    const done = await client.runWithAnswer({ toolkit: kit, state, answer: { id: state.pending!.id, ok: data.name !== "pay" } });
    return done.text + signature;
  }
  const stored: ConversationState | undefined | null = await client.conversationStore().get("c");
  return r.text + (stored?.signature ?? "");
}

// toolnexus-wasm/blobs: a store wrapped, a halted result packed and resumed, a value packed.
import { withBlobs, kvBlobs, memoryBlobs, durableObjectBlobs, r2Blobs, chromeStorageBlobs, packState, unpackState, packValue, unpackValue, BlobObject } from "toolnexus-wasm/blobs";
import type { BlobStore, BlobKey, PackedValue, R2BlobBucket, KVBlobNamespace, DurableObjectStorageLike } from "toolnexus-wasm/blobs";

export async function small(kv: KVNamespaceLike & KVBlobNamespace, bucket: R2BlobBucket, storage: DurableObjectStorageLike): Promise<string> {
  const blobs: BlobStore = kvBlobs(kv, { prefix: "b:" });
  const client = createClient({ baseUrl: "u", style: "openai", model: "m", store: withBlobs(kvStore(kv), blobs, { threshold: 4096 }) });
  const r = await client.run("look");
  const packed = await packState(r, durableObjectBlobs(storage));
  const state: RunResult = await unpackState(JSON.parse(JSON.stringify(packed)) as typeof packed, r2Blobs(bucket));
  const step: PackedValue = await packValue({ output: state.text }, memoryBlobs());
  const value = await unpackValue<{ output: string }>(step, chromeStorageBlobs({ area: "session" }));
  const key: BlobKey | undefined = Object.values(packed.blobs ?? {})[0];
  // @ts-expect-error a blob is a string
  await memoryBlobs().put("sha256:00", 1);
  void BlobObject;
  return value.output + key;
}

// A RunResult is a union on `status` (issue 30): a check of `status` narrows `pending` and
// `limit`, in a run's result, a stream's `done` event and a Workflow's output alike.
import type { RunResultDone, RunResultIncomplete, RunResultPending, FromJsonSchema } from "toolnexus-wasm";

export async function narrowed(client: Client): Promise<string> {
  const r = await client.run("hi");
  if (r.status === "pending") {
    const p: Suspension = r.pending;
    const calls: RelayCall[] = relayCallsOf(r.pending);
    r satisfies RunResultPending;
    return p.id + calls.length;
  }
  if (r.status === "incomplete") {
    const limit: "maxTurns" = r.limit;
    r satisfies RunResultIncomplete;
    return limit;
  }
  r satisfies RunResultDone;
  // @ts-expect-error a done result has no suspension
  relayCallsOf(r.pending);
  // @ts-expect-error not a status
  if (r.status === "halted") return "";
  for await (const e of client.stream("hi")) if (e.type === "done" && e.result.status === "pending") return relayCallsOf(e.result.pending)[0]?.name ?? "";
  // Reading `pending` without narrowing stays allowed (undefined unless halted).
  const maybe: Suspension | undefined = (await client.ask("x", { id: "c" })).pending;
  // @ts-expect-error unnarrowed, it may be undefined
  relayCallsOf((await client.run("x")).pending);
  return r.text + String(maybe?.id);
}

// A literal JSON Schema types the tool's arguments (defineTool infers it `const`).
export function literalSchemas(): Tool[] {
  const price = defineTool({
    name: "lookup_price", description: "d",
    inputSchema: { type: "object", properties: { item: { type: "string" }, count: { type: "integer" } }, required: ["item"] },
    run: async ({ item, count }) => `${item.toUpperCase()} ${(count ?? 1).toFixed(0)}`,
  });
  const nested = defineTool({
    name: "n", description: "d",
    inputSchema: {
      type: "object", additionalProperties: false, required: ["mode", "tags", "where"],
      properties: {
        mode: { enum: ["fast", "slow"] }, tags: { type: "array", items: { type: "string" } }, v: { const: 2 },
        where: { type: "object", properties: { x: { type: "number" }, label: { type: ["string", "null"] } }, required: ["x"] },
        either: { anyOf: [{ type: "boolean" }, { type: "number" }] }, free: { description: "no type" },
      },
    },
    run: (a) => {
      const mode: "fast" | "slow" = a.mode;
      const tags: string[] = a.tags;
      const x: number = a.where.x;
      const label: string | null | undefined = a.where.label;
      const v: 2 | undefined = a.v;
      const either: boolean | number | undefined = a.either;
      const free: unknown = a.free;
      return [mode, tags, x, label, v, either, String(free)].join();
    },
  });
  // @ts-expect-error `item` is a string: no toFixed
  defineTool({ name: "w", description: "w", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: ({ item }) => item?.toFixed() });
  // @ts-expect-error `additionalProperties: false`: no other key
  defineTool({ name: "w", description: "w", inputSchema: { type: "object", properties: {}, additionalProperties: false }, run: (a) => String(a.other) });
  // @ts-expect-error an optional property may be absent
  defineTool({ name: "w", description: "w", inputSchema: { type: "object", properties: { n: { type: "number" } } }, run: ({ n }) => n.toFixed() });
  // Without `additionalProperties: false` other keys are unknown, as the model may send them.
  defineTool({ name: "w", description: "w", inputSchema: { type: "object", properties: { n: { type: "number" } } }, run: (a) => String(a.other) });
  // A schema held in a variable typed JsonSchema says nothing: an object of unknowns.
  const held: import("toolnexus-wasm").JsonSchema = { type: "object", properties: { q: { type: "string" } } };
  defineTool({ name: "h", description: "h", inputSchema: held, run: (a) => String(a.q) });
  const t: FromJsonSchema<{ type: "array"; items: { type: "boolean" } }> = [true];
  void t;
  return [price, nested];
}

