// The page's side written as a user writes it: @ai-sdk/react's useChat with portChatTransport,
// the relay tool answered in onToolCall (or, with `?manual` in the page's URL, by a click on the
// call's Answer button), an approval by a click on Allow. Bundled with esbuild by
// tests/ui/extension.test.mjs.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { portChatTransport } from "toolnexus-wasm/ui";

const transport = portChatTransport();
const manual = new URLSearchParams(location.search).has("manual");
// The tab answers the selectors out of order: #b first, then #c, #a last, each output on its own.
const delay = { "#a": 300, "#b": 5, "#c": 150 };
/** The selectors clicked, in the order they were (each tool call is run here once). */
globalThis.clicked = [];
/** The tool calls onToolCall was given. */
globalThis.toolCalls = [];

function App() {
  const [input, setInput] = useState("");
  const { id, messages, sendMessage, addToolOutput, addToolApprovalResponse, status } = useChat({
    transport,
    sendAutomaticallyWhen: (m) => lastAssistantMessageIsCompleteWithToolCalls(m) || lastAssistantMessageIsCompleteWithApprovalResponses(m),
    onToolCall: ({ toolCall }) => {
      globalThis.toolCalls.push(toolCall.toolName);
      if (toolCall.toolName != "click" || manual) return;
      setTimeout(() => click(toolCall), delay[toolCall.input.selector] ?? 5);
    },
  });
  const click = (call) => {
    globalThis.clicked.push(call.input.selector);
    addToolOutput({ tool: "click", toolCallId: call.toolCallId, output: `clicked ${call.input.selector}` });
  };
  document.body.dataset.status = status;
  document.body.dataset.chatId = id;
  return (
    <>
      {messages.map((m) => (
        <div key={m.id} className="message" data-role={m.role}>
          {m.parts.map((p, i) =>
            p.type == "text" ? <p key={i} className="text">{p.text}</p>
            : p.type.startsWith("tool-") ? (
              <p key={i} className="tool" data-state={p.state}>
                {p.type.slice(5)} {JSON.stringify(p.input)}
                {manual && p.type == "tool-click" && p.state == "input-available" && <button className="answer" onClick={() => click(p)}>Answer</button>}
                {p.state == "approval-requested" && <button className="allow" onClick={() => addToolApprovalResponse({ id: p.approval.id, approved: true })}>Allow</button>}
              </p>
            )
            : null,
          )}
        </div>
      ))}
      <form onSubmit={(e) => { e.preventDefault(); sendMessage({ text: input }); setInput(""); }}>
        <input id="prompt" value={input} onChange={(e) => setInput(e.target.value)} />
        <button id="send">Send</button>
      </form>
    </>
  );
}

createRoot(document.getElementById("root")).render(<App />);
