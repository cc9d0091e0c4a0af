/**
 * Durable state that stays small: the long strings of a state (image bytes, long tool outputs)
 * kept out of line in a blob store under the SHA-256 of their text, and referenced from the state.
 * @module toolnexus-wasm/blobs
 */
import type { ConversationStore } from "./toolnexus_wasm.js";

/** `sha256:` and the 64 lowercase hex digits of the SHA-256 of a blob's UTF-8 text. */
export type BlobKey = `sha256:${string}`;

/** Where blobs are kept: any object with these async methods. `has` saves a write of a blob already there. */
export interface BlobStore {
  get(key: BlobKey): Promise<string | undefined | null>;
  put(key: BlobKey, value: string): Promise<void>;
  has?(key: BlobKey): Promise<boolean>;
}

/** The `blobs` member of a packed state: each replaced string's JSON pointer and its key. */
export type BlobRefs = Record<string, BlobKey>;

export interface PackOptions {
  /** Strings of this many characters or more are kept out of line (default 2048, at least 128). */
  threshold?: number;
}

/** A value packed by `packValue`. */
export interface PackedValue {
  value: unknown;
  blobs: BlobRefs;
}

/** The default `threshold`, in characters. */
export declare const DEFAULT_THRESHOLD: 2048;

/** The key a text is stored under: `sha256:` and the hex SHA-256 of its UTF-8 bytes. */
export declare function blobKey(text: string): Promise<BlobKey>;

/**
 * A copy of `state` whose long strings are in `blobs`, each replaced by its key, with a `blobs`
 * member listing them by JSON pointer. A state with none comes back as it is.
 */
export declare function packState<S extends object>(state: S, blobs: BlobStore, options?: PackOptions): Promise<S & { blobs?: BlobRefs }>;

/** The state with its blobs back in place and no `blobs` member (a `RunResult` keeps its `status` shape); a missing or altered blob is `bad_state`. */
export declare function unpackState<S extends object>(state: S, blobs: BlobStore): Promise<S extends unknown ? Omit<S, "blobs"> : never>;

/** Any JSON value packed, always as `{ value, blobs }`. */
export declare function packValue(value: unknown, blobs: BlobStore, options?: PackOptions): Promise<PackedValue>;

/** The value `packValue` packed. */
export declare function unpackValue<T = unknown>(packed: PackedValue, blobs: BlobStore): Promise<T>;

/** A conversation store that packs each state it saves into `store` and unpacks each it reads. */
export declare function withBlobs(store: ConversationStore, blobs: BlobStore, options?: PackOptions): ConversationStore;

/** Blobs in this JS realm's memory. */
export declare function memoryBlobs(): Required<BlobStore>;

/** Blobs in chrome.storage.local (default) or .session; keys `prefix + key` (default prefix `toolnexus-blob:`). */
export declare function chromeStorageBlobs(options?: { area?: "local" | "session"; prefix?: string }): Required<BlobStore>;

/** The part of a Workers KV namespace binding kvBlobs uses. */
export interface KVBlobNamespace {
  get(key: string): Promise<string | null>;
  get(key: string, options: { type: "stream" }): Promise<{ cancel(): Promise<void> } | null>;
  put(key: string, value: string): Promise<void>;
}

/** Blobs in a Workers KV namespace (at most 25 MiB each); keys `prefix + key` (default `toolnexus-blob:`). */
export declare function kvBlobs(namespace: KVBlobNamespace, options?: { prefix?: string }): Required<BlobStore>;

/** The part of an R2 bucket binding r2Blobs uses. */
export interface R2BlobBucket {
  get(key: string): Promise<{ text(): Promise<string> } | null>;
  put(key: string, value: string, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
  head(key: string): Promise<unknown>;
}

/** Blobs in an R2 bucket; objects `prefix + key` (default `toolnexus-blob:`). */
export declare function r2Blobs(bucket: R2BlobBucket, options?: { prefix?: string }): Required<BlobStore>;

/** The part of a DurableObjectStorage durableObjectBlobs uses. */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(key: string, value: unknown): Promise<void>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** The part of a Durable Object namespace binding (class `BlobObject`) durableObjectBlobs uses. */
export interface BlobObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/**
 * Blobs in Durable Object storage: `ctx.storage` of your own Durable Object (keys `prefix + key`,
 * long blobs in chunks under the 128 KiB value limit), or a namespace whose class is `BlobObject`
 * (one object per blob).
 */
export declare function durableObjectBlobs(storageOrNamespace: DurableObjectStorageLike | BlobObjectNamespace, options?: { prefix?: string }): Required<BlobStore>;

/** The Durable Object class for `durableObjectBlobs(namespace)`; export it from your Worker's main module. */
export declare class BlobObject {
  constructor(ctx: { storage: DurableObjectStorageLike }, env?: unknown);
  fetch(request: Request): Promise<Response>;
}
