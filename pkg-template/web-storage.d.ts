/**
 * A conversation store over Web Storage for pages, kept out of the default entry for its size.
 * @module toolnexus-wasm/web-storage
 */
import type { ConversationStore } from "./toolnexus_wasm.js";

/** A store over Web Storage (`localStorage` by default) for pages: a conversation survives a reload. */
export declare function localStorageStore(options?: {
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  prefix?: string;
}): ConversationStore;
