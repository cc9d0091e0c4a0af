export * from "./toolnexus_wasm.js";
export { initSync } from "./toolnexus_wasm.js";
import type { Client, ClientOptions, ConversationStore, KVNamespaceLike } from "./toolnexus_wasm.js";

/** Creates a client; conversations are kept in a fresh memoryStore() unless `store` is given. */
export declare function createClient(options: ClientOptions): Client;

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

/** `Request.kind` of a relay tool call. */
export declare const RELAY_KIND: "tool_call";

/**
 * Loads the wasm module; idempotent. Required once in browsers and extensions before any other
 * call; a resolved no-op in Node and Workers, where the module loads on import.
 */
export declare function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
