// A Worker with an agent Workflow, for tests/workflows: the agent prices an item with a JS tool
// (which reports each execution to the test's counter server, so executions are counted across
// runtime restarts) and clicks through the relay tool `click`, whose calls park the instance.
// Open suspensions are kept in KV by instance; routes start, list, answer and read instances.
import { WorkflowEntrypoint } from "cloudflare:workers";
import { defineTool, relayTool } from "./pkg/workerd.js";
import { answerEvent, runInWorkflow } from "./pkg/workflows/workerd.js";
import { kvBlobs, packState } from "./pkg/blobs.js";
import { agentTool } from "./pkg/agents.js";

export class Agent extends WorkflowEntrypoint {
  async run(event, step) {
    const env = this.env;
    const id = event.instanceId;
    const lookup = defineTool({
      name: "lookup_price",
      description: "The price of an item",
      inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
      run: async ({ item }, ctx) => {
        await fetch(`${env.COUNTER_URL}/tool?instance=${id}&call=${ctx.toolCallId}`, { method: "POST" });
        return `$3 for ${item}`;
      },
    });
    const click = relayTool("click", "Click an element", { type: "object", properties: { selector: { type: "string" } } });
    // `jsShot`: the screenshot is a JS tool's result (a 100 KB image), not a relay call's answer.
    const screenshot = event.payload.jsShot
      ? defineTool({ name: "screenshot", description: "A screenshot", run: async () => ({ output: "the tab", parts: [{ type: "image", mediaType: "image/png", data: png() }] }) })
      : relayTool("screenshot", "A screenshot of the tab", { type: "object" });
    // `agents`: two agent tools over the same tools, which the "#team" prompt runs side by side.
    const shop = (name) => agentTool({ name, description: "Buys an item", systemPrompt: `You are ${name}.`, tools: [lookup, click] });
    return runInWorkflow(step, {
      client: { style: env.STYLE, baseUrl: env.MODEL_URL, model: "scripted", apiKey: env.API_KEY },
      tools: event.payload.agents ? [shop("shop_a"), shop("shop_b")] : [lookup, click, screenshot],
      prompt: event.payload.prompt,
      waitTimeout: event.payload.waitTimeout ?? "1 hour",
      modelStep: { retries: { limit: 3, delay: "50 milliseconds", backoff: "constant" }, timeout: "1 minute" },
      onSuspend: (s) => env.OPEN.put(`${id}/${s.event}`, JSON.stringify(s)),
      onResolve: (s) => env.OPEN.delete(`${id}/${s.event}`),
      blobs: event.payload.blobs ? kvBlobs(env.BLOBS) : undefined,
    });
  }
}

const png = () => btoa(String.fromCharCode(...new Uint8Array(100 * 1024).fill(7)));

// The floor for bench/workflows.mjs: a Workflow that parks on one event and returns its payload.
export class Bare extends WorkflowEntrypoint {
  async run(event, step) {
    await step.do("ask", async () => this.env.OPEN.put(`${event.instanceId}/bare`, JSON.stringify({ event: "bare", id: "bare" })));
    const ev = await step.waitForEvent("wait", { type: "bare", timeout: "1 hour" });
    return { text: ev.payload.data.output };
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const id = url.searchParams.get("id");
    if (url.pathname === "/start") {
      const body = await request.json();
      const { prompt, waitTimeout, blobs, jsShot, agents } = body;
      const instance = await (body.bare ? env.BARE : env.AGENT).create({ id: body.id, params: { prompt, waitTimeout, blobs, jsShot, agents } });
      return Response.json({ id: instance.id });
    }
    if (url.pathname === "/open") {
      const { keys } = await env.OPEN.list({ prefix: `${id}/` });
      return Response.json(await Promise.all(keys.map(async (k) => JSON.parse(await env.OPEN.get(k.name)))));
    }
    if (url.pathname === "/answer") {
      const { suspension, answer: plain, pack } = await request.json();
      // `pack`: the answer's long strings go to the blob store first; the event carries keys.
      const answer = pack ? await packState(plain, kvBlobs(env.BLOBS)) : plain;
      await (await (url.searchParams.has("bare") ? env.BARE : env.AGENT).get(id)).sendEvent(answerEvent(suspension, answer));
      return Response.json({ sent: true });
    }
    if (url.pathname === "/status") {
      const s = await (await (url.searchParams.has("bare") ? env.BARE : env.AGENT).get(id)).status();
      // The local runtime lists each step's kept result: their sizes, as JSON, for the 1 MiB cap.
      const steps = (s.__LOCAL_DEV_STEP_OUTPUTS ?? []).map((o) => JSON.stringify(o ?? null).length);
      return Response.json({ status: s.status, output: s.output, error: s.error, steps });
    }
    return new Response("not found", { status: 404 });
  },
};
