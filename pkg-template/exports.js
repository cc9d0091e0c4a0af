// @ts-check
// What every entry (index.js, node.js, workerd.js) exports besides its own `init`: the parts of
// the API written in JS, each from the file of its one idea. Only this file lists them, by name,
// so that a file's helpers for its neighbours (`idOf`, `lazyClient`, ...) never reach the
// package's surface. It is the top of the JS layer: the entries and the JS-only subpaths
// (web-storage.js, workflows/) import it, none of the files it names. scripts/build.sh ships it
// as one module with those files bundled in, so anything outside them imports this file.

// The error class lives in a snippet of the wasm edge, which constructs it; scripts/build.sh
// points this import at that snippet (its path holds a hash wasm-bindgen chooses).
export { ToolnexusError } from "./host.js";
export { RELAY_KIND, pending, authRequired, isRelayRequest, relayCallsOf, checkRevision, toolkitId, dropToolkit } from "./api.js";
export { Client } from "./client-methods.js";
export { createClient } from "./create-client.js";
export { jsonSchema } from "./schema-tools.js";
export { defineTool, relayTool, relayAnswer } from "./declarations.js";
export { Toolkit, createToolkit } from "./toolkit.js";
export { memoryStore, chromeStorageStore, kvStore } from "./stores.js";
export { durableObjectStore, ConversationObject } from "./durable-object-store.js";
