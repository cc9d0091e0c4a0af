// @ts-check
// Errors: the package's one error class, the one helper that makes its errors, and the text of
// whatever a host value threw.

// The class of every error the package throws. The edge constructs it (convert.rs `js_error`,
// through `fail`) and pkg-template/exports.js re-exports it, so `instanceof ToolnexusError` holds
// for all of them.
export class ToolnexusError extends Error {
  constructor(message, code, options) {
    super(message, options);
    this.name = "ToolnexusError";
    this.code = code;
    if (options?.status) this.status = options.status;
  }
  // Also true for an error of another copy of the package (a second bundle, another realm).
  static is(e) {
    return e?.name === "ToolnexusError" && typeof e.code === "string";
  }
}

/**
 * The package's one error helper, for the edge and every module of the package: a
 * `ToolnexusError` with the stable `code`. `extra` is the HTTP status (a number: the edge's call,
 * as a number crosses into JS cheaper than an object), or `{ cause }`, where an `undefined` cause
 * is no cause (the error then has no `cause` property).
 * @param {string} code
 * @param {string} message
 * @param {number | { cause?: unknown }} [extra]
 */
export function fail(code, message, extra) {
  return new ToolnexusError(message, code, typeof extra == "number" ? { status: extra } : extra?.cause === undefined ? undefined : extra);
}

// The message of whatever a host value threw: an Error's message with what its `cause` says,
// a string, else the value as JSON. Read so that nothing about the value (a revoked Proxy, a
// getter that throws, a message that is not a string, a Symbol) can throw again: the edge would
// carry that throw through Rust frames.
export function messageOf(e) {
  try {
    if (e instanceof Error && typeof e.message === "string") return e.message + causeOf(e.cause, 3);
  } catch {}
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {}
  return "unknown error";
}

// What an error's `cause` adds, as ` (code: message)`, a few levels deep: Node's fetch says only
// "fetch failed" and puts what failed (ECONNREFUSED, ENOTFOUND, a TLS error) there. Browsers give
// no cause; their message is all there is.
function causeOf(c, depth) {
  try {
    if (depth && c != null) {
      const code = typeof c.code === "string" ? c.code : "";
      const m = c instanceof Error && typeof c.message === "string" ? c.message : typeof c === "string" ? c : "";
      const text = !code || m.includes(code) ? m : m ? `${code}: ${m}` : code;
      if (text) return ` (${text}${causeOf(c.cause, depth - 1)})`;
    }
  } catch {}
  return "";
}
