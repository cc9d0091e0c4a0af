// The app each bundler builds (tests/bundlers/bundlers.test.mjs): the package from its tarball,
// through the root entry and the `full` alias, with the scripted model as an in-process fetch.
// It loads the wasm, runs a relay round trip (halt, then resume with the host's answer),
// iterates a stream, and checks the error class; `roundTrip` resolves to what it saw.
import * as root from "toolnexus-wasm";
import * as full from "toolnexus-wasm/full";
import { scriptedFetch } from "./scripted-logic.mjs";

export async function roundTrip(wasm) {
  await root.init(wasm);
  await full.init(wasm);
  const out = {};
  for (const [name, m] of [["root", root], ["full", full]]) {
    const client = m.createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted", apiKey: "k", fetch: scriptedFetch() });
    const toolkit = m.createToolkit({ tools: [
      m.defineTool({ name: "lookup_price", description: "price", inputSchema: { type: "object", properties: { item: { type: "string" } } }, run: async ({ item }) => `$3 for ${item}` }),
      m.relayTool("click", "click", { type: "object", properties: { selector: { type: "string" } } }),
    ] });
    const halted = JSON.parse(JSON.stringify(await client.run("#mixed", { toolkit })));
    const calls = m.relayCallsOf(halted.pending);
    const answer = m.relayAnswer(halted.pending.id, calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })));
    const done = await client.runWithAnswer({ toolkit, state: halted, answer });
    const events = [];
    for await (const e of client.stream("#hello")) events.push(e.type === "text" ? `text:${e.delta}` : e.type);
    let code;
    try {
      m.createClient({ baseUrl: "u", style: "openai", model: "m", baseURL: "u" });
    } catch (e) {
      code = e instanceof m.ToolnexusError ? e.code : `not a ToolnexusError: ${e}`;
    }
    out[name] = { halted: halted.status, done: done.status, text: done.text, events: events.join(" "), code };
  }
  return out;
}
