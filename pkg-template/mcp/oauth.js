// @ts-check
// The host's side of MCP authorization, in JS so that no token ever enters the wasm: the package
// builds the authorization URL and checks the response (`authorizationGrant`, and the same
// checks when a suspension is answered with `{ callbackUrl }`); the host exchanges the code here
// and keeps the tokens, handing the access token back through `mcpTools`' `token` callback.

import { authorizationGrant as check } from "./toolnexus_mcp.js";
// The package's one error helper; scripts/build.sh points this import at the edge's snippet.
import { fail } from "../host.js";

const MAX_REPLY = 64 * 1024;

/**
 * `authorizationGrant(request, callbackUrl)`: the grant for `exchangeCode`, after checking the
 * URL the browser came back to against an `authorization` request with a ready `url` (its
 * `state`, and its RFC 9207 `iss`). Throws a `bad_input` error with `refusal` otherwise.
 */
export function authorizationGrant(request, callbackUrl) {
  return check(request, callbackUrl);
}

/**
 * `await exchangeCode(grant, { fetch?, timeoutMs?, signal? })`: the token request for a grant
 * (`token({ server, url, grant })`, or `authorizationGrant`): POSTs the code with its PKCE
 * verifier and `resource` to the token endpoint and resolves to the token response (`{
 * access_token, token_type, expires_in?, refresh_token?, scope? }`) for the host to keep.
 */
export async function exchangeCode(grant, options = {}) {
  const what = "exchangeCode(grant)";
  if (grant === null || typeof grant !== "object") throw fail("bad_input", `${what}: grant must be the object token() was given`);
  for (const k of ["tokenEndpoint", "code", "codeVerifier", "redirectUri", "clientId", "resource"]) {
    if (typeof grant[k] !== "string" || !grant[k]) throw fail("bad_input", `${what}: grant.${k} must be a non-empty string`);
  }
  let url;
  try {
    url = new URL(grant.tokenEndpoint);
  } catch {}
  const loopback = (h) => h === "localhost" || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
  if (!url || !(url.protocol === "https:" || (url.protocol === "http:" && loopback(url.hostname))) || url.username || url.password) {
    throw fail("bad_input", `${what}: grant.tokenEndpoint must be an https URL`);
  }
  const body = new URLSearchParams({
    grant_type: "authorization_code", code: grant.code, redirect_uri: grant.redirectUri,
    client_id: grant.clientId, code_verifier: grant.codeVerifier, resource: grant.resource,
  });
  const ms = options.timeoutMs ?? 30000;
  if (!(ms > 0 && ms <= 2147483647)) throw fail("bad_input", `${what}: timeoutMs must be a positive number of milliseconds`);
  const { signal, stop } = deadline(Math.max(1, Math.round(ms)), options.signal);
  let r, text;
  try {
    // The body holds the code and verifier: a redirect would re-send them elsewhere, so none is followed.
    r = await (options.fetch ?? fetch)(url.href, {
      method: "POST", body: body.toString(), redirect: "manual", signal,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    });
    text = await capped(r, MAX_REPLY);
  } catch (e) {
    if (signal.aborted) throw fail("aborted", `${what}: ${signal.reason?.name === "TimeoutError" ? `timeout after ${ms}ms` : "aborted"}`);
    throw fail("transport", `${what}: the token request failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    stop();
  }
  if (text === undefined) throw fail("transport", `${what}: the token endpoint's reply is larger than 64 KiB`);
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {}
  if (!(r.status >= 200 && r.status <= 299)) {
    // Only the OAuth error code (its own charset) is quoted: never a body, which may echo the code.
    const code = typeof reply?.error === "string" && /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(reply.error) ? `: ${reply.error}` : "";
    throw fail("transport", `${what}: the token endpoint answered HTTP ${r.status || "redirect"}${code}`, r.status);
  }
  if (reply === null || typeof reply !== "object" || typeof reply.access_token !== "string" || !reply.access_token) {
    throw fail("transport", `${what}: the token endpoint's reply has no access_token`);
  }
  if (typeof reply.token_type !== "string" || reply.token_type.toLowerCase() !== "bearer") {
    throw fail("transport", `${what}: the token endpoint issued a token that is not a bearer token`);
  }
  return reply;
}

// A signal that aborts with a TimeoutError after `ms`, or when `user` aborts (hosts may lack
// AbortSignal.timeout or AbortSignal.any); `stop()` clears the timer once the request is done.
function deadline(ms, user) {
  const c = new AbortController();
  const t = setTimeout(() => c.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
  const follow = () => c.abort(user.reason);
  if (user?.aborted) c.abort(user.reason);
  else user?.addEventListener?.("abort", follow, { once: true });
  return { signal: c.signal, stop: () => (clearTimeout(t), user?.removeEventListener?.("abort", follow)) };
}

// The body as text, or undefined past `max` bytes.
async function capped(r, max) {
  if (!r.body) {
    const t = await r.text();
    return t.length > max ? undefined : t;
  }
  const reader = r.body.getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    parts.push(value);
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) all.set(p, (at += p.byteLength) - p.byteLength);
  return new TextDecoder().decode(all);
}
