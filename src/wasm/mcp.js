// The host calls of the MCP entry (src/wasm/mcp.rs), each settled into plain values: what fails
// here is a typed error on the Rust side, never a throw through Rust frames.

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

// The signal of one request: the tool call's signal and the per-request deadline (none for 0),
// combined.
function requestSignal(user, ms) {
  const s = [];
  if (user !== null && typeof user === "object") s.push(user);
  if (ms > 0) s.push(deadline(Math.max(1, Math.ceil(ms))));
  if (s.length < 2) return s[0];
  try {
    return AbortSignal.any(s);
  } catch {}
  const c = new AbortController();
  for (const x of s) {
    if (x.aborted) return c.abort(x.reason), c.signal;
    x.addEventListener("abort", () => c.abort(x.reason), { once: true });
  }
  return c.signal;
}

// A signal that aborts with a TimeoutError after `ms` (whole, positive). `AbortSignal.timeout`
// throws on a fraction and some hosts lack it; a throw here once meant no deadline at all.
function deadline(ms) {
  try {
    return AbortSignal.timeout(ms);
  } catch {}
  const c = new AbortController();
  setTimeout(() => c.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
  return c.signal;
}

// One HTTP request. Resolves to [status, content-type, mcp-session-id, www-authenticate, reader
// or text]; rejects with [kind, message]: kind 0 a failed fetch, 1 the caller's abort, 2 the
// deadline, 3 the token callback. With `auth`, the host's `token({ server, url })` is asked for
// the bearer token now: it never reaches the wasm, so no state, result or error can hold it.
const PLAIN = new Set(["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"]);

export async function mcpSend(f, token, who, auth, method, url, headers, body, user, ms) {
  const signal = requestSignal(user, ms);
  const init = { method, headers: JSON.parse(headers) };
  if (body !== undefined) init.body = body;
  if (signal) init.signal = signal;
  if (auth && token) {
    let t;
    try {
      t = await token.call(undefined, JSON.parse(who));
    } catch (e) {
      throw [3, e instanceof Error ? e.message : String(e)];
    }
    if (typeof t === "string" && t) {
      if (!headerSafe(t)) throw [3, "the token is not a valid header value (CR, LF, NUL or a character beyond U+00FF)"];
      init.headers.authorization = "Bearer " + t;
    }
  }
  // fetch's own refusal quotes the value (a key, a token) in its message; this one never does.
  for (const k of Object.keys(init.headers)) {
    if (!headerSafe(init.headers[k])) throw [0, `header ${k} is not a valid header value (CR, LF, NUL or a character beyond U+00FF)`];
  }
  // Credentials stay on their origin: a request that carries a token or any header beyond the
  // protocol's own (an API key from `headers` or `env`) does not follow redirects, which would
  // re-send them to wherever the server points. A plain request (webfetch) follows them.
  const own = init.redirect === undefined && Object.keys(init.headers).some((k) => !PLAIN.has(k.toLowerCase()));
  if (own) init.redirect = "manual";
  let r;
  try {
    r = await (f ? f.call(globalThis, url, init) : fetch(url, init));
  } catch (e) {
    throw failure(e, signal);
  }
  const s = r !== null && typeof r === "object" ? Number(r.status) : 0;
  // A browser reports a refused redirect as status 0 ("opaqueredirect"); Node and workerd as the 3xx.
  if (own && (r?.type === "opaqueredirect" || (s >= 300 && s <= 399))) throw [0, "redirect refused: the request carries credentials"];
  if (!(s >= 100 && s <= 599)) throw [0, "fetch gave no Response"];
  const h = (k) => {
    try {
      return r.headers.get(k) ?? undefined;
    } catch {}
  };
  let b;
  try {
    b = r.body !== null && typeof r.body === "object" ? r.body.getReader() : await r.text();
  } catch (e) {
    throw failure(e, signal);
  }
  return [s, h("content-type") ?? "", h("mcp-session-id"), h("www-authenticate"), b, signal];
}

function headerSafe(v) {
  return typeof v === "string" && !/[\r\n\0\u0100-\uffff]/.test(v);
}

function failure(e, signal) {
  if (signal?.aborted) return [signal.reason?.name === "TimeoutError" ? 2 : 1, ""];
  return [0, e instanceof Error ? e.message : String(e)];
}

// The next chunk of a body: bytes, `undefined` at its end. Rejects as `mcpSend` does.
// A read given up on (its signal aborted) stays pending on the reader and is the next read's,
// so no chunk is lost: a legacy session's one stream is read for one request after another,
// each with its own deadline, and a read that ignored the signal waited forever.
export async function mcpRead(b, signal) {
  try {
    const p = (b.__toolnexusRead ??= b.read());
    let x;
    if (signal !== null && typeof signal === "object") {
      if (signal.aborted) throw signal.reason;
      let stop;
      const aborted = new Promise((_, no) => signal.addEventListener("abort", (stop = () => no(signal.reason)), { once: true }));
      try {
        x = await Promise.race([p, aborted]);
      } finally {
        signal.removeEventListener("abort", stop);
      }
    } else x = await p;
    b.__toolnexusRead = undefined;
    return x?.done ? undefined : x?.value;
  } catch (e) {
    if (!signal?.aborted) b.__toolnexusRead = undefined;
    throw failure(e, signal);
  }
}

export function mcpCancel(b) {
  try {
    b.cancel().catch(() => {});
  } catch {}
}

// Resolves after `ms`, or as soon as `signal` aborts.
export function mcpSleep(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    try {
      signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
    } catch {}
  });
}

export function mcpAborted(signal) {
  return Boolean(signal?.aborted);
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
