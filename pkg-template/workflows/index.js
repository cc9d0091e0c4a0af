// @ts-check
// `toolnexus-wasm/workflows`: the agent loop inside a Cloudflare Workflow (`WorkflowEntrypoint`'s
// `run(event, step)`). Nothing here is a second loop: the client's host seams are pointed at the
// Workflow's steps. The model's HTTP call is the client's `fetch`, run as `step.do("model N")`;
// each tool's `run` is `step.do("tool <name> <callId>")`; every suspension (a relay call, an
// approval, an MCP question or authorization) reaches `waitFor`, which parks the run as
// `step.waitForEvent("wait <callId>")` until `instance.sendEvent(answerEvent(suspension, answer))`.
//
// Workflows replays `run()` from its start after any restart, handing back each finished step's
// result instead of running it again. The loop is deterministic given those results (the same
// model replies and tool results give the same calls, with the same ids, in the same order), so
// a replay makes the same steps in the same order, and no tool runs twice. What the loop makes
// afresh on a replay (a relay request's own id) never names a step or an event: the call id
// does. An agent tool's child (`toolnexus-wasm/agents`) runs beside its siblings, so its steps
// are named by its path (the delegate calls above it): its model calls `model d1 N`, counted per
// child; its tools `tool browse/click d1/call_0_0`; its waits by `d1/call_0_0`. See
// docs/decisions/hosts.md ("The loop inside Cloudflare Workflows").
import { createClient } from "../exports.js";
// The package's one error helper; scripts/build.sh points this import at the edge's snippet.
import { fail } from "../host.js";
import { packValue, unpackState, unpackValue } from "../blobs.js";

// The statuses a provider gives for overload or a passing failure: the model step throws on them
// so that Workflows retries it with its policy (the core's `retryable_status`, which a native
// test checks this list against). Any other status is the call's reply, kept as the step result.
const RETRYABLE = [429, 500, 502, 503, 504, 529];

/** The model step's policy when none is given: Workflows retries, ours stay off. */
const MODEL_STEP = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "5 minutes" };
/**
 * A blob read's policy (`readStep`): a packed answer or tool result names blobs that KV may not
 * show yet in this location (eventual consistency), so the read is a step Workflows retries.
 */
const READ_STEP = { retries: { limit: 6, delay: "1 second", backoff: "exponential" }, timeout: "1 minute" };
/** A tool's throw is its result (the model reads it), never retried: a tool may not be idempotent. */
const TOOL_STEP = { retries: { limit: 0, delay: 0 }, timeout: "10 minutes" };

// The response headers a reply is read with (the rest are not kept in the step result).
const KEPT = ["content-type", "retry-after", "retry-after-ms"];

/**
 * Runs the agent on `options.prompt` inside a Workflow and resolves to its result (without the
 * transcript, unless `keepMessages`: a Workflow's output is capped at 1 MiB).
 * @param {any} step the Workflow's `WorkflowStep`
 * @param {any} options
 */
export async function runInWorkflow(step, options) {
  const o = options !== null && typeof options === "object" ? options : {};
  if (typeof step?.do !== "function" || typeof step?.waitForEvent !== "function") {
    throw fail("bad_input", "runInWorkflow(step, options): `step` must be the Workflow's step (with do and waitForEvent)");
  }
  const { client: c = {}, tools = [], prompt, history, waitTimeout = "7 days", onSuspend, onResolve, keepMessages, blobs } = o;
  const modelStep = o.modelStep ?? MODEL_STEP;
  const toolStep = o.toolStep ?? TOOL_STEP;
  const read = readerOf(step, o.readStep ?? READ_STEP);
  if (c === null || typeof c !== "object") throw fail("bad_input", "runInWorkflow: `client` must be createClient's options");
  // What the Workflow takes over: its waits are the run's waits, and a deadline over a run that
  // waits days would end it (each step has its own timeout: modelStep, toolStep, waitTimeout).
  for (const [k, instead] of [["waitFor", "suspensions park as step.waitForEvent"], ["timeoutMs", "use modelStep.timeout, toolStep.timeout and waitTimeout"]]) {
    if (c[k] != null) throw fail("bad_input", `runInWorkflow: client.${k} is not used in a Workflow (${instead})`);
  }
  if (!Array.isArray(tools)) throw fail("bad_input", "runInWorkflow: `tools` must be an array of tools");
  for (const [k, f] of [["onSuspend", onSuspend], ["onResolve", onResolve]]) {
    if (f != null && typeof f !== "function") throw fail("bad_input", `runInWorkflow: \`${k}\` must be a function`);
  }
  const fetchFn = c.fetch ?? globalThis.fetch;
  const calls = new Map(); // the model calls so far, per agent path ("" for the root)
  let asked = 0;
  const rounds = new Map();
  // Suspensions are published one after another, in the order the loop asks (a turn's relay
  // calls in the model's order), each numbered (`seq`): a listing sorted by it shows them in that
  // order, and never a later one without those before it.
  let published = Promise.resolve();
  /** @type {any} the Client, whose methods client-methods.js defines on its prototype */
  const client = createClient({
    retries: 0,
    ...c,
    // One model call, one step: the reply is read whole inside it and kept as its result.
    fetch: async (/** @type {string} */ url, /** @type {RequestInit} */ init, /** @type {any} */ call) => {
      const at = typeof call?.callPath == "string" ? call.callPath : "";
      const n = (calls.get(at) ?? 0) + 1;
      calls.set(at, n);
      const r = await step.do(short(at ? `model ${at} ${n}` : `model ${n}`), modelStep, async () => {
        const res = await fetchFn.call(globalThis, url, { ...init, signal: undefined });
        const body = await res.text();
        if (RETRYABLE.includes(res.status)) throw new Error(`model ${n}: HTTP ${res.status} (retried by Workflows)`);
        /** @type {Record<string, string>} */
        const headers = {};
        // A client's own `fetch` may answer without headers (toolnexus-wasm/in-process does).
        for (const k of KEPT) {
          const v = res.headers?.get(k);
          if (v != null) headers[k] = v;
        }
        return { status: res.status, headers, body };
      });
      return new Response(r.body, { status: r.status, headers: r.headers });
    },
    waitFor: async (/** @type {any} */ pending) => {
      // The loop names the call each suspension belongs to (`callId`, a child's under its path).
      const own = String(pending?.callId ?? pending?.id);
      const callId = pending?.path?.length ? `${pathKey(pending.path)}/${own}` : own;
      const [n, name] = round(rounds, callId);
      const suspension = { ...pending, event: eventType(callId, n), seq: ++asked };
      if (onSuspend) {
        const ask = published.then(() => step.do(short(`ask ${name}`), async () => void (await onSuspend(suspension))));
        published = ask.catch(() => {});
        await ask;
      }
      let answer;
      try {
        const ev = await step.waitForEvent(short(`wait ${name}`), { type: suspension.event, timeout: waitTimeout });
        // An answer packed by `packState` (a screenshot in a blob store) is unpacked and checked,
        // in a retried step; blobs that never come (or come altered) decline the call.
        const p = blobs && ev?.payload?.blobs ? await read(`read ${name}`, () => unpackState(ev.payload, blobs)) : ev?.payload;
        answer = p === UNREADABLE ? { id: pending.id, ok: false, reason: "invalid answer event (its blobs could not be read from the blob store)" } : answerOf(p, pending.id);
      } catch (e) {
        if (!isTimeout(e)) throw e;
        answer = { id: pending.id, ok: false, reason: "expired" };
      }
      if (onResolve) await step.do(short(`answered ${name}`), async () => void (await onResolve(suspension, answer)));
      return answer;
    },
  });
  try {
    const seen = new Map();
    const toolkit = tools.map((t) => stepTool(t, step, toolStep, seen, blobs, read));
    const result = await client.run(prompt, { toolkit: { tools: toolkit }, history });
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const k of Object.keys(result)) if (keepMessages || k !== "messages") out[k] = result[k];
    return out;
  } finally {
    client.free();
  }
}

// A tool whose `run` is a step named after its call (`tool click c_12`, then `#2`, `#3` for the
// re-runs an answer brings). Its throw is kept as the step's result and thrown again outside,
// so a replay sees the same failure without running the tool. With `blobs`, the step keeps its
// result's long strings (an image, a long output) as `sha256:` keys into the blob store, and the
// loop gets them back, checked. A relay tool (no `run`) is as is.
function stepTool(tool, step, config, seen, blobs, read) {
  const run = tool?.run;
  // An agent tool's child's tools (`agent.runs`, named `agent/tool`) are steps as the root's are.
  if (tool?.source === "agent" && Array.isArray(tool.agent?.runs)) {
    const runs = tool.agent.runs.map(([n, f]) => [n, stepRun(`${tool.name}/${n}`, f, step, config, seen, blobs, read)]);
    return { ...tool, agent: { ...tool.agent, runs } };
  }
  if (typeof run !== "function") return tool;
  return { ...tool, run: stepRun(tool.name, run, step, config, seen, blobs, read) };
}

// The `run` of tool `toolName` as a step (see stepTool).
function stepRun(toolName, run, step, config, seen, blobs, read) {
  return async (/** @type {unknown} */ args, /** @type {any} */ ctx) => {
    const [, name] = round(seen, ctx?.toolCallId);
    const r = await step.do(short(`tool ${toolName} ${name}`), config, async () => {
      let value;
      try {
        value = (await run(args, ctx)) ?? null;
      } catch (e) {
        return { error: e instanceof Error ? e.message : String(e) };
      }
      return blobs ? { packed: await packValue(value, blobs) } : { value };
    });
    if ("error" in r) throw new Error(r.error);
    if (!("packed" in r)) return r.value;
    const v = await read(short(`read tool ${toolName} ${name}`), () => unpackValue(r.packed, blobs));
    // The tool ran, its result is lost: the model is told so, and it is not run again.
    if (v === UNREADABLE) throw new Error(`the result of ${toolName} was kept in the blob store and could not be read back (missing or altered); the tool is not run again`);
    return v;
  };
}

// A child's path as a step name's part: its delegate calls' ids (`d1`, `d1/d7`); "" at the root.
const pathKey = (path) => (Array.isArray(path) ? path.map((s) => s?.callId).join("/") : "");

// What a blob read that never succeeded gives (the caller declines, or reports, instead).
const UNREADABLE = Symbol("unreadable");

// `read(name, unpack)`: what `unpack` gives, read in this run (a blob's text is not kept in the
// Workflow's state, capped at 1 MiB) once the step `name` found every blob there and intact; the
// step throws until then, so Workflows retries it with `config` (KV shows a new key in another
// location within about a minute). A read that still fails gives UNREADABLE, never a throw that
// would end the instance.
// Only a blob not there yet, or a store that failed, is worth another try: a payload or blob that
// is wrong stays wrong, and the step says so at once (false).
function readerOf(step, config) {
  return async (/** @type {string} */ name, /** @type {() => Promise<any>} */ unpack) => {
    try {
      const ok = await step.do(name, config, async () => {
        try {
          await unpack();
          return true;
        } catch (e) {
          if (e?.code === "store" || / is missing /.test(e?.message)) throw e;
          return false;
        }
      });
      return ok ? await unpack() : UNREADABLE;
    } catch {
      return UNREADABLE;
    }
  };
}

/**
 * The event that answers `suspension` (as `onSuspend` was given it) with `answer`:
 * `instance.sendEvent(answerEvent(suspension, answer))` resumes the instance parked on it.
 * `answer` is an Answer without its id (`{ ok: true, data }`, `{ ok: false, reason }`) or with it.
 */
export function answerEvent(suspension, answer) {
  const type = suspension?.event ?? (suspension?.callId ? eventType(String(suspension.callId), 1) : undefined);
  if (typeof type !== "string" || !EVENT.test(type)) throw fail("bad_input", "answerEvent: the suspension has no event type (pass the one onSuspend was given)");
  if (answer === null || typeof answer !== "object" || typeof answer.ok !== "boolean") {
    throw fail("bad_input", "answerEvent: the answer must be an object with a boolean `ok` ({ ok: true, data } or { ok: false, reason })");
  }
  let payload;
  try {
    payload = JSON.parse(JSON.stringify({ ...answer, id: suspension.id ?? answer.id }));
  } catch {
    throw fail("bad_input", "answerEvent: the answer must be JSON data");
  }
  return { type, payload };
}

// Workflows' event types: letters, digits, `_` and `-`, at most 100 characters. A call id that
// fits names its event as it is; another (or a later round of a call that asks again) is named
// by a 64-bit FNV-1a digest, which no provider's call id (`call_…`, `toolu_…`) can look like.
const EVENT = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;
export function eventType(callId, round) {
  if (round === 1 && /^[A-Za-z0-9_][A-Za-z0-9_-]{0,79}$/.test(callId)) return callId;
  return "tnx-" + fnv(`${callId}\n${round}`);
}

function fnv(s) {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(s)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, "0");
}

// An event's payload as the loop's answer to the request it waits on. The event's type bound it
// to this call, so the request's id (made afresh on a replay) is set here. A payload that is no
// answer declines the call with a reason saying so: the run goes on, nothing is lost.
function answerOf(p, id) {
  if (p === null || typeof p !== "object" || typeof p.ok !== "boolean") return { id, ok: false, reason: "invalid answer event (answerEvent builds one)" };
  return { ...p, id };
}

// A wait's timeout: Workflows throws a `WorkflowTimeoutError` (its message says "timed out").
function isTimeout(e) {
  try {
    return e?.name === "WorkflowTimeoutError" || /timed out/i.test(e?.message ?? "");
  } catch {
    return false;
  }
}

// The `n`th time `id` is counted in `counts` (1 first), and its step name: `id`, then `id #2`…
function round(counts, id) {
  const n = (counts.get(id) ?? 0) + 1;
  counts.set(id, n);
  return [n, n > 1 ? `${id} #${n}` : `${id}`];
}

// Step names are at most 256 characters (a tool name and a call id fit; this keeps any other).
function short(name) {
  return name.length > 256 ? name.slice(0, 235) + " " + fnv(name) : name;
}
