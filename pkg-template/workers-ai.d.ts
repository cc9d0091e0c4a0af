// `toolnexus-wasm/workers-ai`: the Workers AI binding as the loop's model (workers-ai.js). Its
// own subpath: JS only, loaded only by a Worker whose model is `env.AI`.
/**
 * The Workers AI binding (`env.AI`) as the loop's model: `createClient({ ...workersAI(env.AI, {
 * model: "@cf/..." }), systemPrompt })` runs the loop with each model call an `env.AI.run`, with
 * no API key. Both families of text models are served (the OpenAI chat-completions shape and the
 * older `{ response, tool_calls }` one), streamed and not; relay tools, `waitFor`, durable halts,
 * stores, streams and Workflows work as with any provider. Built on `toolnexus-wasm/in-process`.
 * @module toolnexus-wasm/workers-ai
 */
import type { InProcessModelOptions, ModelRequest, ModelTurn, ModelDelta } from "./in-process.js";

/** What `workersAI` needs of the binding: its `run` (`env.AI` has it; a test stand-in may too). */
export interface WorkersAIBinding {
  // Loose on purpose: `Ai`'s `run` is overloaded per model, and each overload must fit.
  run(model: any, inputs: any, options?: any): Promise<unknown>;
}

export interface WorkersAIOptions {
  /** A Workers AI text model with function calling, e.g. `"@cf/meta/llama-3.3-70b-instruct-fp8-fast"`. */
  model: string;
  /**
   * AI Gateway, given to every `env.AI.run` as its `gateway` option: `{ id: "my-gateway" }`, and
   * what else the binding takes there (`skipCache`, `cacheTtl`, `metadata`, ...).
   */
  gateway?: { id: string; [key: string]: unknown };
  /** How many times a rate-limited or out-of-capacity call (3040) is tried again. Default 2. */
  retries?: number;
}

/**
 * Client options whose model calls run on the Workers AI binding: spread them into
 * `createClient` (and give the same ones to the client that resumes a halted run).
 * @example
 * ```ts
 * import { createClient } from "toolnexus-wasm";
 * import { workersAI } from "toolnexus-wasm/workers-ai";
 *
 * export default {
 *   async fetch(request: Request, env: { AI: Ai }) {
 *     const client = createClient({ ...workersAI(env.AI, { model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast" }), systemPrompt: "Be brief." });
 *     const r = await client.run(await request.text());
 *     return new Response(r.status === "done" ? r.text : "pending");
 *   },
 * };
 * ```
 */
export declare function workersAI(ai: WorkersAIBinding, options: WorkersAIOptions): InProcessModelOptions;

/** The binding's inputs for one request (exported for tests). `flat`: the older models' flat tools. @internal */
export declare function inputsOf(request: ModelRequest, flat: boolean): { [key: string]: unknown };
/** A tool-call id of the form the binding accepts (nine letters or digits), the same in any process. @internal */
export declare function wireId(id: string): string;
/** One whole answer of the binding, in either family's shape, as a turn. @internal */
export declare function turnOf(out: unknown, tools: ModelRequest["tools"], turn: number): ModelTurn;
/** The binding's stream, in either family's shape, as deltas. @internal */
export declare function deltasOf(stream: ReadableStream, tools: ModelRequest["tools"], turn: number): AsyncGenerator<ModelDelta>;
/** Tool calls a model wrote as its whole text, or undefined. @internal */
export declare function leakedCalls(text: string, tools: ModelRequest["tools"], turn: number): { id: string; name: string; args: { [key: string]: unknown } }[] | undefined;
