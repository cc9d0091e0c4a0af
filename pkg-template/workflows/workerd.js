// @ts-check
// `toolnexus-wasm/workflows` in Cloudflare Workers: the default entry is imported for its side
// effect, which instantiates the wasm module from its compiled import.
import "../workerd.js";

export { answerEvent, eventType, runInWorkflow } from "./index.js";
