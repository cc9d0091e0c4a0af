// A Worker keeping conversations small with toolnexus-wasm/blobs: screenshots out of line in KV,
// R2, Durable Objects through BlobObject, or the storage of the Worker's own Durable Object.
//   POST /ask?backend=kv|r2|do|own  { id, prompt }   ask; "shot N" takes a ~100 KB screenshot
//                                                     (&plain: the conversation store without blobs)
//   GET  /raw?backend=…&id=…                          the conversation as its store holds it
//   GET  /keys?backend=kv|r2|own                      the keys the backend holds and their sizes
//   POST /put-plain?backend=own  { text }             a value put as it is (no chunks)
// Durable Object storage here keeps the production limit of 128 KiB a value (see limited()).
//   POST /blob?backend=…  { text }                    the text through the blob store: put, has, get
import { createClient, createToolkit, defineTool, kvStore, durableObjectStore, ConversationObject } from "./pkg/workerd.js";
import { withBlobs, kvBlobs, r2Blobs, durableObjectBlobs, blobKey, BlobObject } from "./pkg/blobs.js";


/** A ~`kb` KiB PNG (signature, then random bytes), base64. */
function screenshot(kb) {
  const bytes = new Uint8Array(kb * 1024);
  for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return btoa(text);
}

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "screenshot", description: "the tab", run: async () => ({ output: "captured", parts: [{ type: "image", data: screenshot(100), mediaType: "image/png" }] }) }),
] });

// The model: "shot …" asks for a screenshot; any other turn answers with the images it was sent.
const model = async (_url, init) => {
  const body = JSON.parse(init.body);
  const last = body.messages.at(-1);
  const shot = last.role === "user" && typeof last.content === "string" && last.content.startsWith("shot");
  const images = JSON.stringify(body.messages).split("data:image/png;base64,iVBORw0KGg").length - 1;
  const message = shot
    ? { role: "assistant", content: null, tool_calls: [{ id: `c${body.messages.length}`, type: "function", function: { name: "screenshot", arguments: "{}" } }] }
    : { role: "assistant", content: `I see ${images} images` };
  return Response.json({ choices: [{ index: 0, message, finish_reason: shot ? "tool_calls" : "stop" }] });
};

const client = (store) => createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "offline", fetch: model, store });

// A value of a KV-backed Durable Object is at most 128 KiB, as V8 serialises it (a string: one
// byte a character when all fit in Latin-1, else two). Miniflare does not enforce it; this does,
// so a value that would be refused in production is refused here.
const MAX_VALUE = 128 * 1024;
const bytes = (v) => (typeof v === "string" ? (/[^\u0000-\u00ff]/.test(v) ? 2 : 1) * v.length : JSON.stringify(v).length) + 16;
function limited(storage) {
  const check = (key, v) => {
    if (bytes(v) > MAX_VALUE) throw new RangeError(`Values cannot be larger than 131072 bytes (${key}: ${bytes(v)})`);
  };
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "put") {
        return (k, v) => {
          if (typeof k === "string") check(k, v);
          else for (const [key, value] of Object.entries(k)) check(key, value);
          return target.put(k, v);
        };
      }
      const f = target[prop];
      return typeof f === "function" ? f.bind(target) : f;
    },
  });
}

// The package's Durable Object classes over storage that keeps the production limit.
export class LimitedConversationObject extends ConversationObject {
  constructor(ctx) {
    super({ storage: limited(ctx.storage) });
  }
}
export class LimitedBlobObject extends BlobObject {
  constructor(ctx) {
    super({ storage: limited(ctx.storage) });
  }
}

/** The Worker's own Durable Object: its conversations and their blobs in its own storage. */
export class AgentObject {
  constructor(ctx) {
    this.storage = limited(ctx.storage);
    this.store = {
      get: async (id) => this.storage.get("conversation:" + id),
      save: async (id, state) => { await this.storage.put("conversation:" + id, state); },
      delete: async (id) => { await this.storage.delete("conversation:" + id); },
    };
    this.blobs = durableObjectBlobs(this.storage);
  }

  async fetch(request) {
    const url = new URL(request.url);
    const keys = async () => Object.fromEntries([...(await this.storage.list())].map(([k, v]) => [k, bytes(v)]));
    return handle(url, request, this.store, this.blobs, this.storage, keys);
  }
}

async function handle(url, request, store, blobs, storage, keys) {
  try {
    if (url.pathname === "/raw") return Response.json((await store.get(url.searchParams.get("id"))) ?? null);
    if (url.pathname === "/keys") return Response.json(await keys());
    const body = await request.json();
    if (url.pathname === "/ask") {
      const r = await client(url.searchParams.has("plain") ? store : withBlobs(store, blobs)).ask(body.prompt, { toolkit: toolkit(), id: body.id });
      return Response.json({ status: r.status, text: r.text });
    }
    if (url.pathname === "/put-plain") {
      await storage.put("plain", body.text);
      return Response.json({ ok: true });
    }
    if (url.pathname === "/blob") {
      const key = await blobKey(body.text);
      const before = await blobs.has(key);
      await blobs.put(key, body.text);
      const back = await blobs.get(key);
      return Response.json({ key, before, after: await blobs.has(key), same: back === body.text, length: back?.length });
    }
    return new Response("not found", { status: 404 });
  } catch (e) {
    return Response.json({ error: { code: e.code, message: e.message } }, { status: 500 });
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const backend = url.searchParams.get("backend");
    if (backend === "own") {
      const stub = env.AGENT.get(env.AGENT.idFromName("agent"));
      return stub.fetch(request);
    }
    const kvKeys = async () => Object.fromEntries(await Promise.all((await env.KV.list()).keys.map(async (k) => [k.name, (await env.KV.get(k.name)).length])));
    const r2Keys = async () => Object.fromEntries((await env.R2.list()).objects.map((o) => [o.key, o.size]));
    const [store, blobs, keys] = {
      kv: () => [kvStore(env.KV), kvBlobs(env.KV), kvKeys],
      r2: () => [kvStore(env.KV, { prefix: "r2-conv:" }), r2Blobs(env.R2), r2Keys],
      do: () => [durableObjectStore(env.CONVERSATIONS), durableObjectBlobs(env.BLOBS), async () => ({})],
    }[backend]();
    return handle(url, request, store, blobs, null, keys);
  },
};
