// @ts-check
import { cancel, readAll } from "./body.js";
import { guard } from "./signal.js";
import { drained } from "./stream.js";

// One model call: fetch, status, then (only on a refusal) the wait the provider asked for, in
// ms as text (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date, which
// `Date.parse` reads in all its forms), then the body: the text, or with `stream` the body's
// reader when it has one. The status is below any HTTP one when there is none: NO_RESPONSE,
// fetch gave no Response; TOO_LARGE, the body is longer than `max` bytes (a declared length is
// refused before reading; a body is read through its reader, cancelled past the cap, so a huge
// reply never reaches the wasm memory). The numbers are the core's (src/ops.rs, whose tests
// read them here).
export const NO_RESPONSE = 0, TOO_LARGE = 1;
/** @typedef {[status: number, retryAfter?: string, body?: string | ReadableStreamDefaultReader<Uint8Array> | 0]} ModelReply */
/** @returns {Promise<ModelReply>} */
export async function callModel(f, url, head, body, signal, stream, max) {
  await drained(signal);
  // An agent's child's call names its delegate calls (`callPath`), for a host's own `fetch` only.
  const { callPath, ...init } = JSON.parse(head);
  init.body = body;
  if (signal?.public) init.signal = signal.public;
  // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
  const r = await guard(f ? f.call(globalThis, url, init, callPath && { callPath }) : fetch(url, init), signal);
  // Number(): a mock's status may be a numeric string, as the typed binding used to accept.
  const s = r !== null && typeof r === "object" ? Number(r.status) : 0;
  if (!(s >= 100 && s <= 599)) {
    // A browser hides a redirect under `redirect: "manual"` (status 0); by the fetch standard
    // that is a network error, and so it is here. The key was not sent on.
    if (r?.type === "opaqueredirect") throw TypeError("redirect refused");
    return [NO_RESPONSE];
  }
  let ra, b;
  try {
    if (s >= 400) {
      const a = r.headers.get("retry-after");
      ra = r.headers.get("retry-after-ms") ?? (a && String(isNaN(a) ? Math.max(0, Date.parse(a) - Date.now()) : a * 1000));
    }
    if (r.headers.get("content-length") > max) return cancel(r.body), [TOO_LARGE];
  } catch {}
  // A body that gives no reader (none, a mock's, a locked one) is read whole: `text()` then
  // reports what is wrong with it, if anything.
  try {
    b = r.body.getReader();
  } catch {
    const t = await guard(r.text(), signal);
    return t?.length > max ? [TOO_LARGE] : [s, ra, t];
  }
  if (stream) return [s, ra, b];
  // The whole body, read here rather than through `readChunk`: one await per chunk.
  const parts = await readAll(b, max, signal);
  // A reader that gave no bytes (`0`: not a string, refused by the edge), or past the cap.
  if (!parts) return parts === 0 ? [s, ra, 0] : [TOO_LARGE];
  return [s, ra, parts.length < 2 ? UTF8.decode(parts[0]) : await new Blob(/** @type {BlobPart[]} */ (parts)).text()];
}

// Whole bodies only (no `stream` option): one decoder serves every call.
const UTF8 = new TextDecoder();
