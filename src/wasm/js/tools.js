// @ts-check
// One call of a host tool function.
import { messageOf } from "./errors.js";
import { drained } from "./stream.js";

// One tool call: the arguments cross as JSON text. Resolves to [TEXT, string] for a string
// result, [JSON_TEXT, JSON text] for any other value, [THREW, message] for a throw or rejection,
// [NOT_DATA] for a value that is not JSON data (the tags are the core's `ToolReply`). Never
// rejects. Tools see the run's `public` signal (the caller's own when there is no deadline) and
// the provider's id of the call (`toolCallId`), which names durable work after the call.
const TEXT = 0, JSON_TEXT = 1, THREW = 2, NOT_DATA = 3;
/** @typedef {[tag: number, text?: string]} ToolReply */
/** @returns {Promise<ToolReply>} */
export async function callTool(f, args, signal, answer, toolCallId) {
  await drained(signal);
  /** @type {{ toolCallId: string, signal?: AbortSignal, answer?: unknown }} */
  const ctx = { toolCallId };
  if (signal?.public) ctx.signal = signal.public;
  if (answer) ctx.answer = JSON.parse(answer);
  let v;
  try {
    v = await f(JSON.parse(args), ctx);
  } catch (e) {
    return [THREW, messageOf(e)];
  }
  if (typeof v === "string") return [TEXT, v];
  if (v === undefined) return [JSON_TEXT, "null"];
  try {
    const t = JSON.stringify(v);
    if (t !== undefined) return [JSON_TEXT, t];
  } catch {}
  return [NOT_DATA];
}
