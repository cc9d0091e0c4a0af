// @ts-check
// The names the API gives the wasm's operations. The wasm exports two dispatchers, `op(kind, …)`
// for the functions that hold no state and the client's `op(kind, …)` for its methods; each
// kind's JS name is written here once, in the order of `FnOp` and `ClientOp` (src/ops.rs, whose
// native tests read this file and check both lists and RELAY_KIND against the core). Everything
// else written in JS imports these names from here; this file imports only the glue.

import { op } from "./toolnexus_wasm.js";

/** `Request.kind` of a relay tool call (the core's `RELAY_KIND`; a native test checks they agree). */
export const RELAY_KIND = "tool_call";

// The functions that hold no state, each one kind of the wasm's `op`; `declareTool` is
// `defineTool` before Standard Schemas are read (schema-tools.js).
const [pending, authRequired, isRelayRequest, relayCallsOf, answerOf, checkRevision, declareTool, declareRelay, toolkitId, dropToolkit] = Array.from(
  { length: 10 },
  (_, kind) => (a, b, c) => op(kind, a, b, c),
);
export { pending, authRequired, isRelayRequest, relayCallsOf, answerOf, checkRevision, declareTool, declareRelay, toolkitId, dropToolkit };

/** The client's methods and getters, by kind (client-methods.js defines them on `Client`). */
export const CLIENT = ["run", "runWithAnswer", "ask", "askWithAnswer", "stream", "streamWithAnswer", "translate", "translateStream", "discard", "conversationStore", "metrics", "style", "model", "free"];
// Each op's kind by its name: `OP.translate` is the first that is no loop operation, and the
// kinds after `OP.discard` answer at once (no promise, nothing to wait for).
export const OP = Object.fromEntries(CLIENT.map((k, kind) => [k, kind]));
