import type { ConversationStore } from "./toolnexus_wasm.js";

/** A store over Web Storage (`localStorage` by default) for pages: a conversation survives a reload. */
export declare function localStorageStore(options?: {
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  prefix?: string;
}): ConversationStore;
