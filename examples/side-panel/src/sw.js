// The service worker of a side-panel extension. The toolkit is declared at module level and no
// `await init()` is needed (a service worker may not await at its top level): every async call
// loads the wasm first. Each open panel connects a port; each prompt it sends is streamed back.
import { createClient, createToolkit, defineTool, relayTool, relayCallsOf, relayAnswer, chromeStorageStore } from "toolnexus-wasm";

// The toolbar button opens the side panel (side_panel.default_path in the manifest).
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(console.error);

const toolkit = createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "The price of an item in the shop",
    inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    run: async ({ item }) => (item === "blue mug" ? "$12.50" : `no price for ${item}`) }),
  // No code here: its calls go to waitFor below, which answers them from the user's tab.
  relayTool("page_title", "The title of the page in the user's tab", { type: "object", properties: {} }),
] });

/** The title of the tab the user is looking at (the "tabs" permission lets the worker read it). */
async function pageTitle() {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.title ?? "no tab";
}

/** A client for the key (and base URL) in chrome.storage.local. */
async function client() {
  const { apiKey, baseUrl = "https://api.openai.com/v1" } = await chrome.storage.local.get(["apiKey", "baseUrl"]);
  return createClient({ baseUrl, style: "openai", model: "gpt-4o-mini", apiKey,
    store: chromeStorageStore(), // the conversation survives Chrome stopping the worker
    waitFor: async (request) => relayAnswer(request.id,
      await Promise.all(relayCallsOf(request).map(async (call) => ({ id: call.id, output: await pageTitle() })))),
  });
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== "agent") return;
  port.onMessage.addListener(async ({ prompt }) => {
    try {
      // Plain JSON events (text, tool_call, tool_result, pending, usage, done): postMessage-able.
      for await (const event of (await client()).stream(prompt, { toolkit, id: "side-panel" })) port.postMessage(event);
    } catch (e) {
      port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) });
    }
  });
});
