// A Worker whose chats run in a Durable Object (one per chat id) that keeps their answers
// (chatAnswers over the object's storage): POST /api/chat starts the run, the AI SDK's reconnect
// (GET /api/chat/<id>/stream) replays the answer and follows it. The model is env.MODEL_URL.
import { DurableObject } from "cloudflare:workers";
import { createClient } from "./pkg/workerd.js";
import { chatAnswers, fromUIMessages, toUIMessageStream, uiMessageStreamResponse } from "./pkg/ui.js";

export class Chat extends DurableObject {
  answers = chatAnswers({ storage: this.ctx.storage });

  async fetch(request) {
    const parts = new URL(request.url).pathname.split("/");
    if (request.method == "GET") return uiMessageStreamResponse(await this.answers.resume(parts[3]));
    const { id, messages } = await request.json();
    const next = fromUIMessages(messages);
    if (!("prompt" in next)) return new Response(null, { status: 204 });
    const client = createClient({ baseUrl: this.env.MODEL_URL, style: "openai", model: "m", apiKey: "k", retries: 0 });
    return uiMessageStreamResponse(this.answers.start(id, toUIMessageStream(client.stream(next.prompt, { history: next.history }))));
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const id = request.method == "GET" ? url.pathname.split("/")[3] : (await request.clone().json()).id;
    return env.CHATS.get(env.CHATS.idFromName(id)).fetch(request);
  },
};
