// An agent that runs as a Cloudflare Workflow instance: toolnexus-wasm's loop inside
// `WorkflowEntrypoint.run`, through `toolnexus-wasm/workflows`. Each model call and each JS tool
// call is a step; each call that waits for a person (a relay call the browser performs, an
// approval) parks the instance as `step.waitForEvent` until its answer arrives as an event,
// minutes or days later, in whatever isolate. The open suspensions are listed in KV.
//
//   POST /agents                          { prompt }              start an instance → 201 { id }
//   GET  /agents/:id                                               → { id, status, output?, error? }
//   GET  /agents/:id/suspensions                                   → its open suspensions, in the order asked
//   POST /agents/:id/suspensions/:event   { ok, data?, reason? }  answer one → 202 { sent: true }
//   DELETE /agents/:id                                             end it (terminate) → { id, status }
//
// Bindings (wrangler.toml): AGENT (this Workflow, class Agent) and OPEN (a KV namespace: the open
// suspensions as `<instance>/<event>`, and the blob store, `toolnexus-blob:sha256:…`, that keeps
// screenshots and other long strings out of events and step results). The model: API_KEY (a
// secret), STYLE, BASE_URL, MODEL; without API_KEY the embedded scripted model answers, offline.
// ACCESS_TOKEN (a secret), when set, is required as `Authorization: Bearer …` on every route;
// ALLOW_ORIGIN (default *) is the CORS origin, for pages and for the MV3 extension example
// (examples/extension), which can use this Worker as its backend. See README.md.
import { WorkflowEntrypoint } from "cloudflare:workers";
import { defineTool, relayTool } from "toolnexus-wasm";
import { answerEvent, runInWorkflow } from "toolnexus-wasm/workflows";
import { kvBlobs, packState } from "toolnexus-wasm/blobs";
import { scriptedFetch } from "../../demo/scripted-logic.mjs"; // the offline stand-in: drop it in your project

const object = (properties) => ({ type: "object", properties, required: Object.keys(properties) });
const text = { type: "string" };

/** Two tools run here (one only once the person approves it); the relay tools run in the person's tab. */
const tools = () => [
  defineTool({ name: "lookup_price", description: "The price of an item in the shop", inputSchema: object({ item: text }),
    run: async ({ item }) => ({ "red mug": "$9.90", "blue mug": "$12.50" })[item] ?? `no price for ${item}` }),
  defineTool({ name: "place_order", description: "Order an item for someone (the person approves it first)", inputSchema: object({ item: text, name: text }),
    needsApproval: true, run: async ({ item, name }) => `order placed: ${item} for ${name}` }),
  relayTool("click", "Click the element matching a CSS selector in the user's tab", object({ selector: text })),
  relayTool("type", "Type text into the input matching a CSS selector", object({ selector: text, text })),
  relayTool("read_text", "Read the text of the element matching a CSS selector", object({ selector: text })),
  relayTool("navigate", "Open a URL in the user's tab", object({ url: text })),
  relayTool("screenshot", "See the visible part of the user's tab (a PNG image)", object({})),
];

const PROVIDERS = {
  openai: ["https://api.openai.com/v1", "gpt-4o-mini"],
  responses: ["https://api.openai.com/v1", "gpt-5-mini"],
  anthropic: ["https://api.anthropic.com", "claude-3-5-haiku-latest"],
  gemini: ["https://generativelanguage.googleapis.com", "gemini-2.0-flash"],
};

/** createClient's options: the provider in the environment, or the scripted model (offline). */
function model(env) {
  if (!env.API_KEY) return { style: "openai", baseUrl: "https://scripted.invalid/v1", model: "scripted", apiKey: "offline", fetch: scriptedFetch() };
  const style = env.STYLE ?? "openai";
  const [baseUrl, name] = PROVIDERS[style] ?? [];
  return { style, baseUrl: env.BASE_URL ?? baseUrl, model: env.MODEL ?? name, apiKey: env.API_KEY };
}

export class Agent extends WorkflowEntrypoint {
  async run(event, step) {
    const { env } = this;
    const id = event.instanceId;
    return runInWorkflow(step, {
      client: model(env),
      tools: tools(),
      prompt: event.payload.prompt,
      waitTimeout: env.WAIT_TIMEOUT ?? "1 day",
      blobs: kvBlobs(env.OPEN),
      // Each runs once, in a step of its own: publish the suspension (one after another, in the
      // order the run asked: `seq`), and drop it once answered or expired (the answer route drops
      // it too, so the listing is current at once).
      onSuspend: (s) => env.OPEN.put(`${id}/${s.event}`, JSON.stringify(s)),
      onResolve: (s) => env.OPEN.delete(`${id}/${s.event}`),
    });
  }
}

const ID = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/; // instance ids and event types alike

/** Whether `request` carries `Authorization: Bearer <token>`, compared in constant time. */
function authorized(request, token) {
  const enc = new TextEncoder();
  const [got, want] = [enc.encode(request.headers.get("authorization") ?? ""), enc.encode(`Bearer ${token}`)];
  return got.byteLength === want.byteLength && crypto.subtle.timingSafeEqual(got, want);
}

export default {
  async fetch(request, env) {
    const cors = {
      "access-control-allow-origin": env.ALLOW_ORIGIN ?? "*",
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": "authorization, content-type",
    };
    const json = (status, body) => Response.json(body, { status, headers: cors });
    const problem = (status, code, message) => json(status, { error: { code, message } });
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    if (env.ACCESS_TOKEN && !authorized(request, env.ACCESS_TOKEN)) return problem(401, "unauthorized", "send Authorization: Bearer <ACCESS_TOKEN>");

    const url = new URL(request.url);
    const [, root, id, sub, event, ...rest] = url.pathname.split("/");
    const route = `${request.method} ${[root, id && ":id", sub, event && ":event"].filter(Boolean).join("/")}`;
    if (root !== "agents" || rest.length || (sub && sub !== "suspensions")) return problem(404, "not_found", `no route ${url.pathname}`);
    if (route === "POST agents") {
      const body = await request.json().catch(() => null);
      if (typeof body?.prompt !== "string" || !body.prompt.trim()) return problem(400, "bad_request", "send { prompt }");
      const instance = await env.AGENT.create({ params: { prompt: body.prompt } });
      return json(201, { id: instance.id });
    }
    if (!ID.test(id ?? "") || (event !== undefined && !ID.test(event))) return problem(404, "not_found", `no route ${url.pathname}`);
    let instance;
    try {
      instance = await env.AGENT.get(id);
    } catch {
      return problem(404, "not_found", `no agent ${id}`);
    }
    if (route === "GET agents/:id") {
      const s = await instance.status();
      return json(200, { id, status: s.status, output: s.output, error: s.error });
    }
    if (route === "DELETE agents/:id") {
      // A person stopped it: the instance ends where it waits, and nothing is left to answer.
      if (!["complete", "errored", "terminated"].includes((await instance.status()).status)) await instance.terminate();
      const { keys } = await env.OPEN.list({ prefix: `${id}/` });
      await Promise.all(keys.map((k) => env.OPEN.delete(k.name)));
      return json(200, { id, status: (await instance.status()).status });
    }
    if (route === "GET agents/:id/suspensions") {
      const { keys } = await env.OPEN.list({ prefix: `${id}/` });
      const open = await Promise.all(keys.map((k) => env.OPEN.get(k.name, "json")));
      return json(200, open.filter(Boolean).sort((a, b) => a.seq - b.seq));
    }
    if (route === "POST agents/:id/suspensions/:event") {
      const key = `${id}/${event}`;
      const suspension = await env.OPEN.get(key, "json");
      if (!suspension) return problem(404, "not_open", `agent ${id} has no open suspension ${event} (answered, expired, or never asked)`);
      let answer;
      try {
        answer = await request.json();
        answerEvent(suspension, answer); // checks it
      } catch (e) {
        return problem(400, "bad_answer", `send { ok: true, data? } or { ok: false, reason }: ${e?.message ?? e}`);
      }
      // A screenshot's bytes go to the blob store: the event, and the step that keeps it, carry its key.
      await instance.sendEvent(answerEvent(suspension, await packState(answer, kvBlobs(env.OPEN))));
      await env.OPEN.delete(key);
      return json(202, { sent: true, event });
    }
    return problem(405, "method_not_allowed", `${request.method} ${url.pathname}`);
  },
};
