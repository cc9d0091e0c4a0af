// @ts-check
// `toolnexus-wasm/workflows` in Node (tests, or a Workflow-like runner of your own): the default
// entry is imported for its side effect, which compiles the wasm.
import "../node.js";

export { answerEvent, eventType, runInWorkflow } from "./index.js";
