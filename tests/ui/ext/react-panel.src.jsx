// The page's side written as a user writes it: @ai-sdk/react's useChat with portChatTransport,
// the relay tool answered in onToolCall. Bundled with esbuild by tests/ui/extension.test.mjs.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { portChatTransport } from "toolnexus-wasm/ui";

const transport = portChatTransport();

function App() {
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolOutput, status } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    // The tab answers the first selector last: each output on its own.
    onToolCall: ({ toolCall }) => {
      const wait = toolCall.input.selector == "#a" ? 40 : 5;
      setTimeout(() => addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }), wait);
    },
  });
  document.body.dataset.status = status;
  return (
    <>
      {messages.map((m) => (
        <div key={m.id} className="message" data-role={m.role}>
          {m.parts.map((p, i) =>
            p.type == "text" ? <p key={i} className="text">{p.text}</p>
            : p.type.startsWith("tool-") ? <p key={i} className="tool" data-state={p.state}>{p.type.slice(5)} {JSON.stringify(p.input)}</p>
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
