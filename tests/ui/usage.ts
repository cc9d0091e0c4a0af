// The subpath's typings against the AI SDK's own (`ai`, pinned here): what a user writes with
// useChat type-checks under strict, and our chunks are the AI SDK's `UIMessageChunk`s.
import { AbstractChat, type ChatTransport, type UIMessage, type UIMessageChunk as AiChunk } from "ai";
import { createClient } from "toolnexus-wasm";
import { fromUIMessages, portChatTransport, serveChatPort, toUIMessageStream, toUIMessageStreamResponse, type UIMessageChunk } from "toolnexus-wasm/ui";

// Our transport is a ChatTransport, our chunk stream the AI SDK's.
const transport: ChatTransport<UIMessage> = portChatTransport();
const chunk: AiChunk = {} as UIMessageChunk;
declare class Chat extends AbstractChat<UIMessage> {}
declare const chat: Chat;
void [transport, chunk, chat];

const client = createClient({ style: "openai", model: "gpt-4.1-mini", apiKey: "sk-..." });
export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: UIMessage[] };
  const next = fromUIMessages(messages);
  if ("waiting" in next) return new Response(null, { status: 204 });
  if ("resume" in next) return toUIMessageStreamResponse(client.streamWithAnswer(next.resume), { shown: next.shown });
  return toUIMessageStreamResponse(client.stream(next.prompt, { history: next.history }), { headers: { "x-chat": "1" } });
}
serveChatPort(({ messages }) => {
  const next = fromUIMessages(messages);
  const stream: ReadableStream<AiChunk> = "prompt" in next ? toUIMessageStream(client.stream(next.prompt)) : new ReadableStream();
  return stream as ReadableStream<UIMessageChunk>;
});
