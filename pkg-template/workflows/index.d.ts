/**
 * The agent loop inside a Cloudflare Workflow: model calls and tool calls are `step.do` steps,
 * suspensions (relay calls, approvals, MCP questions) park as `step.waitForEvent` until
 * `instance.sendEvent(answerEvent(suspension, answer))`.
 * @module toolnexus-wasm/workflows
 */
import type { AcceptUndefined, Answer, ClientOptions, Message, Part, RunResultDone, RunResultIncomplete, Suspension, Tool } from "../toolnexus_wasm.js";
import type { BlobStore } from "../blobs.js";

/** A duration as Workflows reads it: milliseconds, or text such as `"10 minutes"`, `"7 days"`. */
export type WorkflowDuration = number | string;

/** A step's policy, as `step.do(name, config, fn)` takes it. */
export interface WorkflowStepConfig {
  retries?: { limit: number; delay: WorkflowDuration; backoff?: "constant" | "linear" | "exponential" };
  timeout?: WorkflowDuration;
}

/**
 * What of Cloudflare's `WorkflowStep` the loop uses (the `step` of `run(event, step)`): typed
 * loosely enough that `WorkflowStep` from `cloudflare:workers` (@cloudflare/workers-types) is one.
 */
export interface WorkflowStepLike {
  do(name: string, config: WorkflowStepConfig, fn: () => Promise<any>): Promise<any>;
  do(name: string, fn: () => Promise<any>): Promise<any>;
  waitForEvent(name: string, options: { type: string; timeout?: WorkflowDuration }): Promise<{ payload: unknown; type: string }>;
}

/** A suspension as a Workflow parks on it: `event` is the event type its answer is sent as. */
export interface WorkflowSuspension extends Suspension {
  event: string;
  /**
   * 1, 2, 3… in the order the run asked (a turn's relay calls in the model's order; each relay
   * call is a suspension of its own here). `onSuspend` runs in that order, one after another.
   */
  seq: number;
}

export interface WorkflowRunOptions {
  /**
   * createClient's options (style, model, apiKey, baseUrl, …); `retries` is 0 unless given
   * (Workflows retries the model step). `waitFor` and `timeoutMs` are refused: the Workflow waits,
   * and each step has its own timeout. Hooks and `onMetric` run again on every replay.
   */
  client: AcceptUndefined<Omit<ClientOptions, "waitFor" | "timeoutMs">, "stateSecret">;
  tools?: Tool[];
  prompt: string | Part[];
  /** The conversation so far (a previous instance's `messages`, with `keepMessages`): this run goes on from it. */
  history?: Message[];
  /** How long each suspension waits for its answer before it is answered `{ ok: false, reason: "expired" }`. Default "7 days". */
  waitTimeout?: WorkflowDuration;
  /** The model step's policy. Default: 5 retries, 2 s exponential backoff, 5 minute timeout. */
  modelStep?: WorkflowStepConfig;
  /** The tool steps' policy. Default: no retries (a tool's throw is its result), 10 minute timeout. */
  toolStep?: WorkflowStepConfig;
  /** Called once per suspension, in a step of its own (`ask <callId>`), in `seq` order: publish it where an answerer finds it. */
  onSuspend?: (suspension: WorkflowSuspension) => void | Promise<void>;
  /** Called once per suspension when it is answered or expires, in a step (`answered <callId>`). */
  onResolve?: (suspension: WorkflowSuspension, answer: Answer) => void | Promise<void>;
  /**
   * Keep long strings of tool results (images, long outputs) in this blob store: each tool step
   * then keeps `sha256:` keys, not the bytes. Answers packed with `packState(answer, blobs)` are
   * unpacked (and checked) when their event arrives. Every read is checked first in a step
   * (`read <callId>`, `read tool <name> <callId>`) retried by `readStep`: a blob that never
   * shows (or shows altered) declines the answer, or gives the model an error saying the tool's
   * result was lost; the instance goes on either way.
   */
  blobs?: BlobStore;
  /** The blob-read steps' policy. Default: 6 retries, 1 s exponential backoff, 1 minute timeout. */
  readStep?: WorkflowStepConfig;
  /** Keep `messages` in the result (a Workflow's output is capped at 1 MiB; default false). */
  keepMessages?: boolean;
}

/**
 * What `runInWorkflow` resolves to (the instance's output): the run's result without `messages`
 * unless `keepMessages`. `status` is "done" or "incomplete" (`limit`), never "pending": the
 * Workflow answers every suspension itself, with the event that arrives or `expired`.
 */
export type WorkflowResult = WorkflowOutput<RunResultDone> | WorkflowOutput<RunResultIncomplete>;

/** One `RunResult` shape as a Workflow's output: `messages` only with `keepMessages`. */
export type WorkflowOutput<R> = Omit<R, "messages"> & { messages?: Message[] };

/**
 * Runs the agent inside `run(event, step)`; resolves to the run's result (without `messages` unless `keepMessages`).
 * @example
 * ```ts
 * import { defineTool, relayTool } from "toolnexus-wasm";
 * import { runInWorkflow, type WorkflowStepLike } from "toolnexus-wasm/workflows";
 * export async function agent(step: WorkflowStepLike, prompt: string, apiKey: string) {
 *   const result = await runInWorkflow(step, {
 *     client: { style: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-5-mini", apiKey },
 *     tools: [defineTool({ name: "lookup_price", description: "Price of an item",
 *                          inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
 *                          run: async ({ item }) => `$12 for ${item}` }),
 *             relayTool("click", "Click an element in the user's tab")],
 *     prompt,
 *     waitTimeout: "2 days",
 *   });
 *   return result.status === "done" ? result.text : `stopped by ${result.limit}`;
 * }
 * ```
 */
export declare function runInWorkflow(step: WorkflowStepLike, options: AcceptUndefined<WorkflowRunOptions>): Promise<WorkflowResult>;

/** The event for `instance.sendEvent` that answers `suspension` (as onSuspend was given it). */
export declare function answerEvent(
  suspension: Pick<WorkflowSuspension, "event" | "id"> | Pick<Suspension, "callId" | "id">,
  answer: Omit<Answer, "id"> & { id?: string },
): { type: string; payload: Answer };

/** The event type of round `round` (1 first) of the suspension of call `callId`. */
export declare function eventType(callId: string, round: number): string;
