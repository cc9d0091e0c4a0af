// The side panel: the AI SDK's useChat (React) over portChatTransport. The relay tool runs
// here, in onToolCall: the title of the tab the user looks at.
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { portChatTransport } from "toolnexus-wasm/ui";

const transport = portChatTransport();

async function pageTitle() {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.title ?? "no tab";
}

function Part({ part }) {
  if (part.type === "text") return h("p", { className: "text" }, part.text);
  if (part.type.startsWith("tool-")) return h("p", { className: "tool", "data-state": part.state }, `${part.type.slice(5)} ${part.state === "output-available" ? `→ ${part.output}` : "…"}`);
  return null;
}

function Panel() {
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolOutput, status } = useChat({
    id: "side-panel",
    resume: true, // the answer under way when the panel was closed
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: async ({ toolCall }) => {
      if (toolCall.toolName === "page_title") addToolOutput({ tool: "page_title", toolCallId: toolCall.toolCallId, output: await pageTitle() });
    },
  });
  document.body.dataset.status = status;
  const send = (e) => {
    e.preventDefault();
    sendMessage({ text: input });
    setInput("");
  };
  return h("main", null,
    messages.map((m) => h("div", { key: m.id, className: "message", "data-role": m.role }, m.parts.map((p, i) => h(Part, { key: i, part: p })))),
    h("form", { onSubmit: send }, h("input", { id: "prompt", value: input, placeholder: "Ask the agent", onChange: (e) => setInput(e.target.value) }), " ", h("button", null, "Send")));
}

createRoot(document.getElementById("root")).render(h(Panel));
