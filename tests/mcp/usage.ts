// `tsc -p tests/mcp/tsconfig.json` against the built package: the MCP entry's typings cover its
// exports, and wrong usage is a type error (the @ts-expect-error lines must stay errors).
import { createToolkit, ToolnexusError, type ErrorCode, type Suspension, type Tool } from "toolnexus-wasm";
import { init, mcpTools, httpTool, skillTool, builtinTools, a2aTools, ToolnexusError as McpError, authorizationGrant, exchangeCode, type McpServerEntry, type McpAuthorizationData } from "toolnexus-wasm/mcp";

export async function usage(): Promise<void> {
  await init();
  const tools = await mcpTools({ server: "s", url: "https://mcp.test/mcp", headers: { a: "${A}" }, env: { A: "1" }, timeoutMs: 5000, token: async ({ server }) => (server ? "t" : undefined) });
  const first: Tool = tools[0];
  const entry: McpServerEntry = tools.source;
  const again = await mcpTools({ ...entry, fetch: (u, i) => fetch(u, i) });
  await again.close();
  // OAuth: the package builds the URL and checks the response; the host exchanges and keeps tokens.
  const kept: { [server: string]: string } = {};
  const oauth = await mcpTools({
    server: "o", url: "https://mcp.test/mcp", oauth: { redirectUri: "https://x.chromiumapp.org/", clientMetadataUrl: "https://app.test/client.json" },
    token: async ({ server, grant }) => {
      if (grant) kept[server] = (await exchangeCode(grant, { timeoutMs: 10000 })).access_token;
      return kept[server];
    },
  });
  await oauth.close();
  const authErr: unknown = null;
  if (authErr instanceof Error && "authRequired" in authErr) {
    const req = authErr.authRequired as Parameters<typeof authorizationGrant>[0];
    const data = req.data as McpAuthorizationData | undefined;
    const g = authorizationGrant(req, "https://x.chromiumapp.org/?code=c&state=" + (data?.state ?? ""));
    const t: string = (await exchangeCode(g)).access_token;
    void t;
  }
  // @ts-expect-error redirectUri is required
  await mcpTools({ server: "o", url: "https://mcp.test/mcp", oauth: { clientId: "c" } });
  const h = httpTool({ name: "h", url: "https://a.test/{id}", method: "POST", body: "form", resultMode: "json", query: ["q"] });
  const defn: string = h.definition.url;
  const sk = skillTool([{ name: "k", body: "b" }], { sampleLimit: -1 });
  const prompt: string = sk.prompt;
  const agents: Tool[] = await a2aTools({ card: "https://agent.test/.well-known/agent-card.json", pollEvery: 500 });
  createToolkit({ tools: [first, h, sk, ...agents, ...builtinTools(["webfetch"], { maxBytes: 1000 })] });
  // needsApproval: true (kept in source and definition), or a function of the arguments and { name }
  const asking = await mcpTools({ server: "s", url: "https://mcp.test/mcp", needsApproval: async (args, { name }) => name === "s_delete" || "force" in args });
  const keeps: true | undefined = (await mcpTools({ server: "s", url: "https://mcp.test/mcp", needsApproval: true })).source.needsApproval;
  const rebuilt = await mcpTools(asking.source);
  const guarded = httpTool({ name: "g", url: "https://a.test/", needsApproval: true });
  const keptHttp: true | undefined = guarded.definition.needsApproval;
  httpTool({ ...guarded.definition, needsApproval: (args) => Object.keys(args).length > 0 });
  // @ts-expect-error true, false or a function
  httpTool({ name: "g", url: "u", needsApproval: "always" });
  void [keeps, rebuilt, keptHttp];
  // @ts-expect-error card is required
  await a2aTools({ pollEvery: 5 });
  // @ts-expect-error server is required
  await mcpTools({ url: "https://mcp.test/mcp" });
  // @ts-expect-error only the fetch-safe builtins exist
  builtinTools(["bash"]);
  // @ts-expect-error body is json, form or raw
  httpTool({ name: "h", url: "u", body: "xml" });
  // One class for both entries: an MCP listing's error, and the request to answer first.
  try {
    await mcpTools({ server: "s", url: "https://mcp.test/mcp" });
  } catch (e) {
    if (e instanceof ToolnexusError && e.code === "transport" && e.status === 401) {
      const ask: Suspension | undefined = e.authRequired;
      void ask;
    }
    const same: typeof ToolnexusError = McpError;
    const code: ErrorCode | undefined = same.is(e) ? e.code : undefined;
    void code;
  }
  void defn;
  void prompt;
}
