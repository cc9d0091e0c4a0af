// @ts-check
// Signed states (`stateSecret`): HMAC-SHA256 through WebCrypto over the state's JSON text
// without its `signature` member, which then carries the MAC (base64). The text is canonical:
// every object's keys sorted (`canonical`), so a copy that went through storage keeps its MAC
// even when the store reorders keys (Postgres `jsonb` does; a structured clone and JSON do not).
// States signed before that, over JSON.stringify's own order, still verify: `open` tries that
// text too. The MAC's input starts with what the state is for (`run` for a halted result, `#` +
// the conversation id for a stored state) so that neither can pose as the other, nor one
// conversation's state as another's. Verification is `crypto.subtle.verify`, which compares in
// constant time. See docs/decisions/state.md ("Signed states") and docs/decisions/attack-findings.md.

// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { fail, runResult } from "./host.js";
import { OP } from "./api.js";

// Each signing client's signer, set by createClient and read by its loop operations.
const secrets = new WeakMap();
const UTF8 = new TextEncoder();

/** `client` signs and verifies with `sig` (createClient, once it has made the wasm client). */
export const signWith = (client, sig) => secrets.set(client, sig);

/** The signer of `client`, or undefined when it has no `stateSecret`. */
export const signerOf = (client) => secrets.get(client);

// JSON text with every object's keys in sorted order (JSON data only: what a state is).
const canonical = (v) =>
  JSON.stringify(v, (_, x) => (x && typeof x == "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

/** The signer for a `stateSecret` (one secret, or a list whose first signs), checked now. */
export function signer(secret) {
  // `Array.from`: a hole (`[NEW, , OLD]`) is an entry like any other, refused below; `every`
  // alone would skip it and leave a key list with a hole for `open` to trip on.
  const list = Array.isArray(secret) ? Array.from(secret) : [secret];
  const subtle = globalThis.crypto?.subtle;
  const bad = list.findIndex((s) => !(typeof s == "string" && s.length > 15));
  if (!list.length || bad >= 0) {
    const which = Array.isArray(secret) ? (list.length ? `entry ${bad} of the list is ${list[bad] === undefined ? "missing (a hole or undefined)" : "not a string of 16+ characters"}` : "the list is empty") : "it is not a string of 16+ characters";
    throw fail("bad_input", `stateSecret: ${which}: give a string of 16+ characters, or a list of such (newest first, every entry a secret)`);
  }
  if (!subtle) throw fail("bad_input", "stateSecret needs crypto.subtle (WebCrypto), which this host does not have");
  const keys = Promise.all(list.map((s) => subtle.importKey("raw", UTF8.encode(s), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])));
  const input = (label, text) => UTF8.encode(label + "\n" + text);
  return {
    // A copy of `state` with its signature.
    seal: async (label, state) => ({ ...state, signature: btoa(String.fromCharCode(...new Uint8Array(await subtle.sign("HMAC", (await keys)[0], input(label, canonical(state)))))) }),
    // `state` without its signature, or `bad_state`.
    async open(label, state, what) {
      let signature, rest, mac, texts;
      try {
        ({ signature, ...rest } = state);
        mac = Uint8Array.from(atob(signature), (c) => c.charCodeAt(0));
        texts = [canonical(rest), JSON.stringify(rest)];
      } catch {}
      for (const k of mac ? await keys : []) for (const t of texts) if (await subtle.verify("HMAC", k, mac, input(label, t))) return rest;
      throw fail("bad_state", `${what} has ${signature ? "a wrong" : "no"} signature (stateSecret is set)`);
    },
  };
}

// Every save signed, every read verified; a missing conversation stays missing. The MAC's label
// is `#` + the id: never `run`, and the text after it has no raw newline to blur the boundary.
export function signedStore(s, sig) {
  return {
    get: async (id) => {
      const v = await s.get(id);
      return v == null ? v : sig.open("#" + id, v, "the stored conversation " + id);
    },
    save: async (id, state) => s.save(id, await sig.seal("#" + id, state)),
    delete: (id) => s.delete(id),
  };
}

// With a secret: a resume's `state` is verified before the wasm sees it (a stored conversation,
// a `streamWithAnswer` with an `id`, is verified by the store), and a halted result is signed
// before the caller sees it: a stream's `done` event is held back until then, and pushed whole.
// `history` + `pending` carry no signature: refused.
export async function signedOp(sig, kind, a, op, s) {
  const push = s?.push;
  let done;
  if (s) s.push = (t, m) => (m === undefined ? push.call(s, t) : (done = runResult(t, m)));
  if (kind == OP.runWithAnswer || (kind == OP.streamWithAnswer && !a?.id)) a = { ...a, state: await sig.open("run", a?.state, "the state") };
  let r = (await op(a)) ?? done;
  if (r?.status == "pending") r = await sig.seal("run", r);
  if (s && r) push.call(s, JSON.stringify({ type: "done", result: r }));
  return r;
}
