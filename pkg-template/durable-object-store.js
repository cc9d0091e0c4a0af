// @ts-check
// Conversations in Durable Objects, both sides: `durableObjectStore` (the store a Worker gives
// its client) and `ConversationObject` (the class behind it, one conversation per object, where
// the revision check runs).

// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { fail } from "./host.js";
import { checkRevision } from "./api.js";
import { idOf } from "./stores.js";

/**
 * A Durable Object namespace binding whose class is `ConversationObject` (export it from your
 * Worker: `export { ConversationObject } from "toolnexus-wasm"`). One object per conversation
 * holds it in transactional storage and applies the revision check inside the object, which
 * runs one request at a time: two writers can never both win, from any isolate or location.
 */
export function durableObjectStore(namespace) {
  let ok;
  try {
    ok = typeof namespace?.idFromName === "function";
  } catch {}
  if (!ok) throw fail("bad_input", "durableObjectStore needs a Durable Object namespace binding");
  const call = async (id, op, state) => {
    const stub = namespace.get(namespace.idFromName(id));
    const res = await stub.fetch("https://conversation/", { method: "POST", body: JSON.stringify({ op, state }) });
    const body = await res.json();
    if (body.error) throw fail(body.error.code, body.error.message);
    return body.state ?? undefined;
  };
  return {
    get: async (id) => call(idOf(id), "get"),
    save: async (id, state) => { await call(idOf(id), "save", state); },
    delete: async (id) => { await call(idOf(id), "delete"); },
  };
}

/** The Durable Object class behind durableObjectStore: one conversation per object. */
export class ConversationObject {
  constructor(ctx) {
    this.storage = ctx.storage;
  }

  async fetch(request) {
    const { op, state } = await request.json();
    if (op === "get") return Response.json({ state: (await this.storage.get("state")) ?? null });
    if (op === "delete") { await this.storage.delete("state"); return Response.json({}); }
    if (op !== "save") return Response.json({ error: { code: "bad_input", message: `unknown op ${op}` } }, { status: 400 });
    // Requests to one object run one at a time (its input gate), so this read-check-write is
    // atomic against every other writer.
    try {
      checkRevision(await this.storage.get("state"), state);
    } catch (e) {
      return Response.json({ error: { code: e.code, message: e.message } }, { status: 409 });
    }
    await this.storage.put("state", state);
    return Response.json({});
  }
}
