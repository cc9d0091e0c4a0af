// The 2026-07-28 test server in workerd: the official `@modelcontextprotocol/server` 2.x's
// fetch-style handler with the tools of tools2026.mjs, bundled by esbuild for the test. Stateless
// by the revision's design, so every isolate answers alike.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { factory } from "../tools2026.mjs";

const handler = createMcpHandler(factory({ requests: [], retries: [] }));

export default {
  fetch(request) {
    if (new URL(request.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
    return handler.fetch(request);
  },
};
