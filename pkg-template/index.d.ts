export * from "./toolnexus_wasm.js";
export { initSync } from "./toolnexus_wasm.js";

/** `Request.kind` of a relay tool call. */
export declare const RELAY_KIND: "tool_call";

/**
 * Loads the wasm module; idempotent. Required once in browsers and extensions before any other
 * call; a resolved no-op in Node and Workers, where the module loads on import.
 */
export declare function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
