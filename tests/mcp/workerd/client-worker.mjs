// A Worker that uses an MCP server's tools in a run: the package's workerd entries (the loop and
// toolnexus-wasm/mcp), the MCP server reached through a service binding passed as `fetch`, the
// scripted model in-process.
import { createClient, createToolkit } from "./pkg/workerd.js";
import { mcpTools } from "./pkg/mcp/workerd.js";
import { scriptedFetch } from "./scripted-logic.mjs";

const SCENARIOS = { edge: [{ calls: [["edge_where", {}], ["edge_shout", { text: "from a worker" }]] }, { text: "Edge: {{results}}" }] };

export default {
  async fetch(request, env) {
    try {
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
