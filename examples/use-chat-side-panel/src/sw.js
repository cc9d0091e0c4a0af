// The service worker: the loop runs here, and serveChatPort answers the panel's useChat over a
// chrome.runtime port (toolnexus-wasm/ui). `resumable`: closing the panel does not stop the
// answer, and the panel opened again shows it (useChat's `resume`).
import { createClient, createToolkit, defineTool, relayTool } from "toolnexus-wasm";
import { fromUIMessages, serveChatPort, toUIMessageStream } from "toolnexus-wasm/ui";

// The toolbar button opens the side panel (side_panel.default_path in the manifest).
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(console.error);

const toolkit = createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "The price of an item in the shop",
    inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    run: async ({ item }) => (item === "blue mug" ? "$12.50" : `no price for ${item}`) }),
  // No code here: the panel's useChat runs it (onToolCall) and answers with addToolOutput.
  relayTool("page_title", "The title of the page in the user's tab", { type: "object", properties: {} }),
] });

serveChatPort(async ({ messages }) => {
  const { apiKey, baseUrl = "https://api.openai.com/v1" } = await chrome.storage.local.get(["apiKey", "baseUrl"]);
  const client = createClient({ baseUrl, style: "openai", model: "gpt-4o-mini", apiKey });
  const next = fromUIMessages(messages);
  if ("waiting" in next) return new ReadableStream({ start: (c) => c.close() }); // more outputs to come
  if ("resume" in next) return toUIMessageStream(client.streamWithAnswer({ toolkit, ...next.resume }), { shown: next.shown });
  return toUIMessageStream(client.stream(next.prompt, { toolkit, history: next.history }));
}, { resumable: true });
