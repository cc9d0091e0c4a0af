// @ts-check
// The MCP entry's host calls (src/wasm_mcp/) beyond the loop entry's, built on its helpers
// (host.js, one module in the package for both entries): a request goes through `callModel`
// with a signal made as a run's, a wait is `guard`ed as a run's, and what fails here is host.js's
// ToolnexusError. What fails is settled into values for the Rust side, never a throw through
// Rust frames.
import { abortState, callModel, guard, readAll, runOptions, runSignal, fail, TOO_LARGE } from "./host.js";

// What a throw of the host's `token` callback becomes: a fixed text, never its message, which may
// hold a secret (a refresh token, a keychain path) and would reach the model as the call's result.
// The host sees its own error where it throws it: log it inside `token()`.
export const TOKEN_THREW = "it threw (its message is not passed on: it may hold a secret; log it inside token())";

// The options of `mcpTools` (or of another source, named by `what`): [JSON text of the data
// fields, fetch, token]. Throws a refusal's text.
export function mcpOptions(o, what) {
  if (o === null || typeof o !== "object") throw `${what} must be an object`;
  for (const k of ["fetch", "token"]) {
    if (o[k] != null && typeof o[k] !== "function") throw `${what}.${k} must be a function`;
  }
  let text;
  try {
    text = JSON.stringify(o, function (k, v) {
      return this === o && (k === "fetch" || k === "token") ? undefined : v;
    });
  } catch {}
  if (typeof text !== "string") throw `${what} must be JSON data besides fetch and token`;
  return [text, o.fetch ?? undefined, o.token ?? undefined];
}

// A run's signal (`runOptions`, host.js) for one request or operation: the caller's `signal` and
// a deadline of `ms` as one, ended (`endRun`) with the operation; `undefined` when there is
// neither. Throws for a `signal` that is not an AbortSignal.
// Without a caller's signal (the usual call) there is nothing to check: the run's signal is made
// as `runOptions` makes it, without reading an options object first.
export function mcpSignal(signal, ms) {
  if (signal != null) return runOptions({ signal }, true, ms)[1];
  return ms === undefined ? undefined : runSignal(undefined, ms);
}

// One request, through the loop's fetch helper (`callModel`, host.js): `head` is fetch's init as
// the core wrote it (src/sources/outgoing.rs: method, headers, `redirect: "manual"` when they
// carry credentials), `signal` the request's (the call's signal and the deadline as one, made as
// a run's), `max` the body cap. With `token`, the host's `token({ server, url })` is asked for the
// bearer token now and added here: it never reaches the wasm, so no state, result or error can
// hold it, and the request then follows no redirect either. With `whole`, a successful reply
// that is not an event stream (a JSON reply, an HTTP tool's body) is read to its end here: the
// wasm gets its bytes in one await instead of awaiting each read and the end. Resolves to
// [status, content-type, mcp-session-id, www-authenticate, body: a reader, bytes or a text]; or,
// as `callModel` says it, [NO_RESPONSE]: fetch gave no Response, [TOO_LARGE]: the body is longer
// than `max`. Rejects with a `host_callback` ToolnexusError when the token callback fails, else
// with what fetch threw (or the AbortError of `signal`).
export async function mcpSend(f, token, who, url, head, body, signal, max, whole) {
  let t, r, manual;
  if (token) {
    try {
      // Raced as fetch is: a callback that never answers ends at the deadline or abort.
      t = await guard(token.call(undefined, JSON.parse(who)), signal);
    } catch (e) {
      if (abortState(signal)) throw e;
      throw fail("host_callback", TOKEN_THREW);
    }
    if (typeof t !== "string") t = "";
    // fetch's own refusal would quote the token in its message; this one never does.
    if (!headerSafe(t)) throw fail("host_callback", "the token is not a valid header value (CR, LF, NUL or a character beyond U+00FF)");
  }
  const out = await callModel(
    (u, init) => {
      if (t) (init.headers.authorization = "Bearer " + t), (init.redirect = "manual");
      manual = init.redirect === "manual";
      // No async layer of its own: `callModel` awaits what fetch gives (a throw rejects there).
      return Promise.resolve(f ? f.call(globalThis, u, init) : fetch(u, init)).then((x) => (r = x));
    },
    url,
    head,
    body,
    signal,
    true,
    max,
  );
  const s = out[0];
  // A browser reports a refused redirect as an opaque response (`callModel` refuses it); Node
  // and workerd hand the 3xx back.
  if (manual && s >= 300 && s <= 399) {
    mcpCancel(out[2]);
    throw TypeError("redirect refused: the request carries credentials");
  }
  if (s < 100) return out;
  const h = (k) => {
    try {
      return r.headers.get(k) ?? undefined;
    } catch {}
  };
  const type = h("content-type") ?? "";
  /** @type {unknown} */
  let b = out[2];
  // Only a success: a refusal's body may go unread (a challenge, a lost session), and so may a
  // stream. A reader that gave no bytes gave an empty body.
  if (whole && s >= 200 && s <= 299 && !type.startsWith("text/event-stream") && typeof b === "object") {
    const parts = await readAll(b, max, signal);
    if (parts === false) return [TOO_LARGE];
    b = parts && parts.length === 1 ? parts[0] : join(parts || []);
  }
  return [s, type, h("mcp-session-id"), h("www-authenticate"), b];
}

// The chunks of a body as one array of bytes.
function join(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let n = 0;
  for (const p of parts) out.set(p, n), (n += p.length);
  return out;
}

function headerSafe(v) {
  return !/[\r\n\0\u0100-\uffff]/.test(v);
}

// The next chunk of the legacy transport's one event stream, read for the request POSTed last
// (its `signal`, raced as every wait of a run is): bytes, `undefined` at its end. A read given up
// on (its request aborted or past its deadline) stays pending on the reader and is the next
// read's, so no chunk is lost between requests; a read that ignored the signal waited forever.
const PENDING = Symbol();
export async function mcpRead(b, signal) {
  try {
    const x = await guard((b[PENDING] ??= b.read()), signal);
    b[PENDING] = undefined;
    return x?.done ? undefined : x?.value;
  } catch (e) {
    if (!abortState(signal)) b[PENDING] = undefined;
    throw e;
  }
}

// Stops a body no one reads to its end (a reader, or nothing for a text).
export function mcpCancel(b) {
  try {
    b.cancel().catch(() => {});
  } catch {}
}

// [scheme, hostname] of a URL as the WHATWG parser reads it (`2130706433` is 127.0.0.1, hosts
// lower-cased, IPv6 compressed), or [] when it does not parse.
export function mcpUrlHost(url) {
  try {
    const u = new URL(url);
    return [u.protocol, u.hostname];
  } catch {
    return [];
  }
}

// A message id for A2A.
export function mcpUuid() {
  try {
    return crypto.randomUUID();
  } catch {
    return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }
}
