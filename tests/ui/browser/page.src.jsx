// @ai-sdk/react's useChat as a user writes it, against a Worker over HTTP (DefaultChatTransport):
// relay calls answered in onToolCall with addToolOutput (the first selector answered last),
// approvals with buttons, and a "hold" mode where the page answers a call only when the person
// clicks (the durable halt case). Bundled with esbuild by tests/ui/browser.test.mjs.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls } from "ai";

const params = new URLSearchParams(location.search);
const store = params.has("store");
const hold = params.has("hold");
const dup = params.has("dup"); // the test's proxy sends each resume twice, as a retrying network would
const answered = (globalThis.answered = []);

function App() {
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolOutput, addToolApprovalResponse, status, error } = useChat({
    transport: new DefaultChatTransport({ api: "/api/chat", body: { store, dup } }),
    sendAutomaticallyWhen: (o) => lastAssistantMessageIsCompleteWithToolCalls(o) || lastAssistantMessageIsCompleteWithApprovalResponses(o),
    onToolCall: ({ toolCall }) => {
      if (hold || toolCall.toolName != "click") return;
      const wait = { "#a": 60, "#b": 30 }[toolCall.input.selector] ?? 1;
      setTimeout(() => { answered.push(toolCall.input.selector); addToolOutput({ tool: "click", toolCallId: toolCall.toolCallId, output: `clicked ${toolCall.input.selector}` }); }, wait);
    },
  });
  document.body.dataset.status = status;
  if (error) document.body.dataset.error = String(error);
  return (
    <>
      {messages.map((m) => (
        <div key={m.id} className="message" data-role={m.role}>
          {m.parts.map((p, i) =>
            p.type == "text" ? <p key={i} className="text">{p.text}</p>
            : p.type.startsWith("tool-") ? (
              <p key={i} className="tool" data-state={p.state}>
                {p.type.slice(5)} {JSON.stringify(p.input)}
                {p.state == "approval-requested" && <button className="approve" onClick={() => addToolApprovalResponse({ id: p.approval.id, approved: true })}>Approve</button>}
                {hold && p.state == "input-available" && <button className="perform" onClick={() => addToolOutput({ tool: "click", toolCallId: p.toolCallId, output: `clicked ${p.input.selector}` })}>Perform</button>}
              </p>)
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
