// Compiled with `tsc --noEmit` against the built package: the typings cover every export and
// data shape, and wrong usage is a type error (the @ts-expect-error lines must stay errors).
import {
  init, createClient, memoryStore, chromeStorageStore, kvStore, createToolkit, defineTool, relayTool, pending, authRequired,
  isRelayRequest, relayCallsOf, relayAnswer, RELAY_KIND, checkRevision,
} from "toolnexus-wasm";
import type {
  Answer, Client, ClientOptions, RelayCall, RelayResult, Request, RunResult, Tool, ToolResult,
  Toolkit, ToolnexusError, ErrorCode, Usage, ToolCallRecord, MetricEvent, StreamEvent, ConversationStore,
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
    const err = e as ToolnexusError;
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
  const client = createClient({ baseUrl: "u", style: "openai", model: "m", store });
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
