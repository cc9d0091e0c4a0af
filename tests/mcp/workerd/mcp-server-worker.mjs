// An MCP server in workerd: the official SDK's web-standard Streamable HTTP transport (stateless,
// JSON replies), bundled by esbuild for the test. Its tools answer with where they ran.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const TOOLS = [
  { name: "where", description: "Says where it runs", inputSchema: { type: "object", properties: {} } },
  { name: "shout", description: "Upper-cases the text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
];

function server() {
  const s = new Server({ name: "workerd-mcp", version: "1.0.0" }, { capabilities: { tools: {} } });
  s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  s.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args = {} } = req.params;
    if (name === "where") return { content: [{ type: "text", text: `workerd (${typeof WebSocketPair === "function" ? "Workers runtime" : "elsewhere"})` }] };
    if (name === "shout") return { content: [{ type: "text", text: String(args.text).toUpperCase() }] };
    return { isError: true, content: [{ type: "text", text: `no tool ${name}` }] };
  });
  return s;
}

export default {
  async fetch(request) {
    if (new URL(request.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server().connect(transport);
    return transport.handleRequest(request);
  },
};
