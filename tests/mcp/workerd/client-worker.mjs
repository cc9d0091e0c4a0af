// A Worker that uses an MCP server's tools in a run: the package's workerd entries (the loop and
// toolnexus-wasm/mcp), the MCP server reached through a service binding passed as `fetch`, the
// scripted model in-process.
//   /          the tools of the SDK 1.x server (MCP) in a run
//   /halt      { prompt }: a run with the tools of the 2026-07-28 server (MCP2026), halted on
//              its question → { entry, state, sent } (the server entry and the run, as JSON
//              data; `sent`: the MCP methods this request sent)
//   /resume    { entry, state, answer }: the run resumed from that data → { result, sent }
import { createClient, createToolkit } from "./pkg/workerd.js";
import { mcpTools } from "./pkg/mcp/workerd.js";
import { scriptedFetch } from "./scripted-logic.mjs";

const SCENARIOS = {
  edge: [{ calls: [["edge_where", {}], ["edge_shout", { text: "from a worker" }]] }, { text: "Edge: {{results}}" }],
  greet: [{ calls: [["s_greet", { greeting: "Hi" }]] }, { text: "Said: {{results}}" }],
  survey: [{ calls: [["s_survey", {}]] }, { text: "Said: {{results}}" }],
};
const model = () => createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "k", fetch: scriptedFetch(SCENARIOS) });

export default {
  async fetch(request, env) {
    try {
      const path = new URL(request.url).pathname;
      const sent = [];
      const fetch = (url, init) => {
        sent.push(new Headers(init?.headers).get("mcp-method"));
        return env.MCP2026.fetch(url, init);
      };
      if (path === "/halt") {
        const { prompt } = await request.json();
        const tools = await mcpTools({ server: "s", url: "http://mcp2026.internal/mcp", fetch });
        const state = await model().run(prompt, { toolkit: createToolkit({ tools }) });
        return Response.json({ entry: tools.source, state, sent });
      }
      if (path === "/resume") {
        const { entry, state, answer } = await request.json();
        const tools = await mcpTools({ ...entry, fetch }); // from data: nothing is probed or listed
        const result = await model().runWithAnswer({ toolkit: createToolkit({ tools }), state, answer });
        return Response.json({ result, sent });
      }
      const tools = await mcpTools({ server: "edge", url: "http://mcp.internal/mcp", fetch: (url, init) => env.MCP.fetch(url, init) });
      const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "k", fetch: scriptedFetch(SCENARIOS) });
      const r = await client.run("#edge", { toolkit: createToolkit({ tools }) });
      await tools.close();
      return Response.json({ status: r.status, text: r.text, names: tools.map((t) => t.name) });
    } catch (e) {
      return Response.json({ error: e.message, code: e.code }, { status: 500 });
    }
  },
};
