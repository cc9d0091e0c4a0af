// `toolnexus-wasm/prompt-api`: Chrome's built-in model as the loop's model (prompt-api.js). Its
// own subpath, on `toolnexus-wasm/in-process`: JS only, loaded only by an extension that uses it.
/**
 * Chrome's built-in model (the Prompt API, `LanguageModel`) as the loop's model, in extension
 * pages, the side panel and the MV3 service worker: `createClient(await promptApi({ fallback }))`.
 * Relay tools, approvals, `waitFor` and durable halts work as with a cloud provider.
 * @module toolnexus-wasm/prompt-api
 */
import type { ClientOptions, JsonSchema } from "./index.js";
import type { InProcessModelOptions } from "./in-process.js";

/** How tool calls reach the model. */
export type PromptApiMode = "native" | "constrained" | "auto";

/** What `onEvent` hears. */
export type PromptApiEvent =
  /** The on-device model's download progress (0 to 1), while `promptApi` waits for it. */
  | { type: "download"; loaded: number }
  /** After each model call: the session's context use against its window (`contextUsage`/`contextWindow`, or `inputUsage`/`inputQuota`). */
  | { type: "context"; used: number; window: number | undefined }
  /** Chrome dropped the oldest turns of a session to fit its window (the session's `contextoverflow` event). */
  | { type: "contextoverflow" }
  /** `promptApi` gave the `fallback` options, and why. */
  | { type: "fallback"; reason: PromptApiUnavailableReason; message: string };

/** Why the built-in model cannot serve: the `reason` of the error (or `fallback` event). */
export type PromptApiUnavailableReason = "unavailable" | "no_tool_use" | "downloadable" | "needs_activation" | "download_failed";

export interface PromptApiOptions {
  /**
   * `"native"`: Chrome's open-loop tool calls (`LanguageModelToolCall`, behind
   * chrome://flags/#prompt-api-tool-use today). `"constrained"`: tool calls as JSON the model is
   * held to with `responseConstraint`. `"auto"` (default): native where Chrome has it, else constrained.
   */
  mode?: PromptApiMode;
  /** Client options (a cloud model) used when the built-in model cannot serve; without it, that is an error. */
  fallback?: ClientOptions;
  /** Passed to each `LanguageModel.create` (e.g. `temperature`, `topK`, `expectedInputs` languages). */
  sessionOptions?: { [option: string]: unknown };
  /** Download the model when `availability()` says `downloadable`/`downloading` (needs user activation). Default true. */
  download?: boolean;
  onEvent?: (event: PromptApiEvent) => void;
  /** The name requests and metrics carry; default `prompt-api-native` or `prompt-api-constrained`. */
  model?: string;
  /** The `LanguageModel` to use; default `globalThis.LanguageModel`. */
  languageModel?: unknown;
}

/** What `promptApi` resolves to: client options; `mode` (not enumerable, so not spread) says which serves. */
export type PromptApiClientOptions = (InProcessModelOptions | ClientOptions) & { readonly mode: "native" | "constrained" | "fallback" };

/**
 * Client options for Chrome's built-in model, chosen once when created: native tool calls,
 * constrained ones, or `fallback`. Each model call builds a session from the run's transcript
 * (the history as `initialPrompts`), so a halted run resumes in a fresh service worker. Without
 * a usable model and without `fallback` it rejects with a `ToolnexusError` (`code`
 * `"provider_error"`, `reason` one of {@link PromptApiUnavailableReason}). Chrome's errors during
 * a run are `provider_http`: 413 context overflow (`QuotaExceededError`), 403 user activation
 * (`NotAllowedError`), 400 unsupported, 502 a reply of the wrong shape, 500 otherwise.
 * @example
 * ```ts
 * import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
 * import { promptApi } from "toolnexus-wasm/prompt-api";
 *
 * const model = await promptApi({
 *   mode: "auto",
 *   fallback: { style: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-4.1-mini", apiKey: "sk-..." },
 *   onEvent: (e) => { if (e.type === "download") console.log(`model ${Math.round(e.loaded * 100)} %`); },
 * });
 * console.log(model.mode); // "native", "constrained" or "fallback"
 * const client = createClient({ ...model, systemPrompt: "You operate the open tab." });
 * const r = await client.run("Click Buy", { toolkit: createToolkit([relayTool("click", "Click an element")]) });
 * ```
 */
export declare function promptApi(options?: PromptApiOptions): Promise<PromptApiClientOptions>;

/** The `responseConstraint` of constrained mode: `{ calls: [{ tool, args }, ...] }` or `{ answer }`, as `toolChoice` allows. */
export declare function replySchema(tools: { name: string; parameters?: JsonSchema }[], toolChoice?: "auto" | "none" | "required" | { name: string }): JsonSchema;

/** A copy of `value` without `null` (Chrome rejects a turn holding one): null members dropped, null array items removed. */
export declare function noNulls<T>(value: T): T;
