// The main job: the agent loop from the built npm package, in Node, against the scripted model on
// 127.0.0.1 (the real OpenAI chat, OpenAI Responses, Anthropic and Gemini wire formats, no
// network, no key). For each style it shows
//   1. a relay call resolved in-process by the host, later, through waitFor;
//   2. a durable halt: the pending result goes through JSON (as into chrome.storage or KV), and a
//      brand-new client and toolkit resume it with runWithAnswer.
import { createClient, createToolkit, defineTool, relayTool, relayCallsOf, relayAnswer, isRelayRequest } from "../pkg/node.js";
import { startScriptedModel } from "./scripted-model.mjs";

const log = (...a) => console.log(...a);
const prices = { "blue mug": "$12.50", "red mug": "$9.90" };

// A real tool runs here; the relay tool `click` is declaration-only: the host executes it.
function makeToolkit() {
  return createToolkit({
    tools: [
      defineTool({
        name: "lookup_price",
        description: "Look up the price of an item in the shop catalogue",
        inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
        run: async ({ item }) => prices[item] ?? `no price for ${item}`,
      }),
      relayTool("click", "Click an element in the user's browser tab", {
        type: "object", properties: { selector: { type: "string" } }, required: ["selector"],
      }),
    ],
  });
}

// Stands in for a content script clicking in a real tab: it answers some time later.
function clickInTab(call) {
  return new Promise((resolve) => setTimeout(() => resolve({ id: call.id, output: `clicked ${call.input.selector}`, isError: false }), 50));
}

const model = await startScriptedModel();
log(`scripted model on ${model.url} (offline, deterministic)\n`);
const prompt = "Find the price of the blue mug and add it to the cart";

try {
  for (const style of ["openai", "responses", "anthropic", "gemini"]) {
    const baseUrl = style === "openai" || style === "responses" ? `${model.url}/v1` : model.url;
    log(`=== style: ${style} ===`);

    // 1. In-process: waitFor returns a Promise the host resolves whenever the click is done.
    const live = createClient({
      baseUrl, style, model: `scripted-${style}`, apiKey: "demo-key", systemPrompt: "You are a shopping assistant.",
      waitFor: async (request) => {
        const calls = relayCallsOf(request);
        log(`  waitFor: ${request.kind} → host runs ${calls.map((c) => `${c.name}(${c.arguments})`).join(", ")}`);
        const results = await Promise.all(calls.map(clickInTab));
        return relayAnswer(request.id, results);
      },
    });
    const r1 = await live.run(prompt, { toolkit: makeToolkit() });
    log(`  in-process run: status=${r1.status} finishReason=${r1.finishReason} (${r1.providerFinishReason}) turns=${r1.turns} tokens=${r1.usage.totalTokens}`);
    if (r1.reasoning) log(`  reasoning (never part of the answer): ${JSON.stringify(r1.reasoning)}`);
    for (const c of r1.toolCalls) log(`    tool ${c.name} ${JSON.stringify(c.args)} → ${c.output}`);
    log(`  answer: ${r1.text}\n`);

    // 2. Durable: no waitFor, so the relay call halts the run with status "pending".
    const first = createClient({ baseUrl, style, model: `scripted-${style}`, apiKey: "demo-key" });
    const halted = await first.run(prompt, { toolkit: makeToolkit() });
    log(`  durable run: status=${halted.status}, pending.kind=${halted.pending.kind}, relay=${isRelayRequest(halted.pending)}`);
    const stored = JSON.stringify(halted); // what a host writes to chrome.storage / KV
    log(`  stored state: ${stored.length} bytes, schemaVersion=${halted.schemaVersion}, contains key: ${stored.includes("demo-key")}`);

    // ...later, in another process: a new client and a new toolkit, only the JSON survives.
    const state = JSON.parse(stored);
    const results = await Promise.all(relayCallsOf(state.pending).map(clickInTab));
    const second = createClient({ baseUrl, style, model: `scripted-${style}`, apiKey: "demo-key" });
    const resumed = await second.runWithAnswer({ toolkit: makeToolkit(), state, answer: relayAnswer(state.pending.id, results) });
    log(`  resumed: status=${resumed.status} turns=${resumed.turns} messages=${resumed.messages.length}${style === "responses" ? " (the encrypted reasoning items went back with it)" : ""}`);
    log(`  answer: ${resumed.text}\n`);
    if (r1.status !== "done" || halted.status !== "pending" || resumed.status !== "done") throw new Error("demo did not complete");
  }
  log(`the scripted model received ${model.requests.length} requests; every transcript it saw was balanced`);
} finally {
  await model.close();
}
