// @ts-check
// The host's side of an MCP authorization request (src/wasm_mcp/auth.rs): randomness and SHA-256
// from WebCrypto, present in pages, extension service workers, Workers and Node 20+, and the
// hand-over of a checked code to the host's `token` callback.
import { abortState, guard, fail } from "./host.js";
import { TOKEN_THREW } from "./mcp.js";

// `n` random bytes, or undefined without crypto.getRandomValues.
export function mcpRandom(n) {
  try {
    return crypto.getRandomValues(new Uint8Array(n));
  } catch {}
}

// SHA-256 of a text's UTF-8 bytes, or undefined without crypto.subtle (an insecure context).
export async function mcpSha256(text) {
  try {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  } catch {}
}

// Asks `token({ server, url, grant })` once, raced by `signal` as `mcpSend` races `token`: the
// host exchanges the code (`exchangeCode`) and keeps the tokens. Its return value is not read
// here; the call that follows asks `token` again. Rejects with a `host_callback` ToolnexusError.
export async function mcpGrant(token, who, grant, signal) {
  if (typeof token !== "function") throw fail("host_callback", "no token callback is configured to take the authorization code");
  try {
    await guard(token.call(undefined, { ...JSON.parse(who), grant: JSON.parse(grant) }), signal);
  } catch (e) {
    if (abortState(signal)) throw e;
    throw fail("host_callback", TOKEN_THREW);
  }
}
