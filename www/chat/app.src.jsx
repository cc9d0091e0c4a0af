// The demo page's chat on the AI SDK's useChat. The loop runs in the page: the transport's
// sendMessages turns useChat's messages into the next run (fromUIMessages) and answers with its
// UI message stream (toUIMessageStream), against the embedded scripted model. The relay tools
// are useChat's client tools: a card per call, Allow performs it in the sandbox and answers
// with addToolOutput, Decline answers with an error; the halted run resumes once every call of
// the turn has its answer. Stop is useChat's stop, which aborts the run.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { init, createClient, createToolkit, relayTool } from "../../pkg/index.js";
import { fromUIMessages, toUIMessageStream } from "../../pkg/ui.js";
import { scriptedFetch, SCENARIOS } from "../../demo/scripted-logic.mjs";

const selector = { selector: { type: "string" } };
const toolkit = createToolkit({ tools: [
  relayTool("type", "Type text into the sandbox input matching a CSS selector", { type: "object", properties: { ...selector, text: { type: "string" } }, required: ["selector", "text"] }),
  relayTool("click", "Click the sandbox element matching a CSS selector", { type: "object", properties: selector, required: ["selector"] }),
  relayTool("read_text", "Read the text of the sandbox element matching a CSS selector", { type: "object", properties: selector, required: ["selector"] }),
] });
const client = createClient({ baseUrl: "https://scripted.invalid/v1", style: "openai", model: "scripted-openai", apiKey: "offline", fetch: scriptedFetch(SCENARIOS, { delayMs: 18 }) });

/** useChat's ChatTransport, with the loop in this page. */
const transport = {
  async sendMessages({ messages, abortSignal }) {
    const next = fromUIMessages(messages);
    if ("waiting" in next) return new ReadableStream({ start: (c) => c.close() }); // more answers to come
    if ("resume" in next) return toUIMessageStream(client.streamWithAnswer({ toolkit, ...next.resume, signal: abortSignal }), { shown: next.shown });
    return toUIMessageStream(client.stream(next.prompt, { toolkit, history: next.history, signal: abortSignal }));
  },
  reconnectToStream: async () => null,
};

/** Performs a relay call in the sandbox: its output, or throws what went wrong. */
function act(name, input) {
  const el = document.querySelector(`#sandbox ${input.selector}`);
  if (!el) throw new Error(`no element matches ${input.selector}`);
  if (name == "type") return (el.value = input.text), `typed "${input.text}"`;
  if (name == "click") return el.click(), `clicked ${input.selector}`;
  return el.innerText.trim().replace(/\n+/g, "; ");
}

function Tool({ part, answer }) {
  const name = part.type.slice(5);
  if (part.state == "input-available") {
    return (
      <div className="card">
        <b>The agent wants to act in the sandbox</b>
        <div className="calls">{name}({JSON.stringify(part.input)})</div>
        <button className="allow" onClick={() => answer(part, true)}>Allow</button>
        <button className="decline" onClick={() => answer(part, false)}>Decline</button>
      </div>
    );
  }
  if (part.state == "output-available") return <div className="msg tool">✓ {name}: {String(part.output)}</div>;
  if (part.state == "output-error") return <div className="msg tool">✗ {name}: {part.errorText}</div>;
  return <div className="msg tool">→ {name}({JSON.stringify(part.input)})</div>;
}

function App() {
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolOutput, status, stop, error } = useChat({ transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls });
  const answer = (part, allowed) => {
    const tool = part.type.slice(5);
    if (!allowed) return addToolOutput({ tool, toolCallId: part.toolCallId, state: "output-error", errorText: "declined by the person" });
    try {
      addToolOutput({ tool, toolCallId: part.toolCallId, output: act(tool, part.input) });
    } catch (e) {
      addToolOutput({ tool, toolCallId: part.toolCallId, state: "output-error", errorText: e.message });
    }
  };
  const last = messages.at(-1);
  const waiting = last?.role == "assistant" && last.parts.some((p) => p.type.startsWith("tool-") && p.state == "input-available");
  document.body.dataset.status = waiting && status == "ready" ? "waiting" : status;
  if (status == "ready" && last?.role == "assistant" && !waiting) document.body.dataset.answer = last.parts.filter((p) => p.type == "text").map((p) => p.text).join("");
  const busy = status == "submitted" || status == "streaming";
  return (
    <>
      <div id="chat" aria-live="polite">
        {messages.length == 0 && <div className="hint">Ask anything. Try: <button className="suggest" onClick={() => sendMessage({ text: "Add “Buy milk” to my list" })}>Add “Buy milk” to my list</button></div>}
        {messages.map((m) => m.parts.map((p, i) =>
          p.type == "text" ? <div key={`${m.id}-${i}`} className={`msg ${m.role}`}>{p.text}</div>
          : p.type.startsWith("tool-") ? <Tool key={`${m.id}-${i}`} part={p} answer={answer} />
          : null))}
        {busy && <div id="busy"><span className="dots"><i></i><i></i><i></i></span> Thinking</div>}
        {error && <div className="msg error">{String(error.message ?? error)}</div>}
      </div>
      <form id="ask" onSubmit={(e) => { e.preventDefault(); if (input.trim() && !busy) sendMessage({ text: input.trim() }), setInput(""); }}>
        <input id="prompt" autoComplete="off" placeholder="Ask the agent…" value={input} onChange={(e) => setInput(e.target.value)} disabled={busy} />
        {busy ? <button id="stop" type="button" onClick={() => stop()}>■ Stop</button> : <button id="send">Send</button>}
      </form>
    </>
  );
}

await init();
createRoot(document.getElementById("root")).render(<App />);
document.body.dataset.ready = "yes";
