// @ts-check
// The edge's JS helpers, one file per concern, and what of them the wasm (src/wasm/*.rs) and
// pkg-template/ import. wasm-bindgen embeds ONE module as the wasm's snippet, at compile time and
// without resolving its imports: src/wasm/host.js, which is this file bundled (scripts/host-js.sh,
// run by scripts/build.sh; scripts/check-js.sh fails when it is stale). Edit these files, not it.
export { callModel, TOO_LARGE } from "./fetch.js";
export { readChunk, readAll } from "./body.js";
export { callTool } from "./tools.js";
export { callStore } from "./stores.js";
export { gate } from "./approvals.js";
export { kitId, kitOf, listOf } from "./toolkits.js";
export { optionsJson, shapeJson, keysOf, runOptions, resumeJson, hostOptions } from "./options.js";
export { awaited, metric } from "./callbacks.js";
export { EventStream } from "./stream.js";
export { runResult } from "./result.js";
export { runSignal, endRun, guard, abortState, sleep } from "./signal.js";
export { ToolnexusError, fail, messageOf } from "./errors.js";
