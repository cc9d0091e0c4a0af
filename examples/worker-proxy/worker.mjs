// An OpenAI-compatible proxy on Cloudflare Workers: any OpenAI client talks to it, and it routes
// each request to Anthropic, Gemini or OpenAI through toolnexus-wasm's `translate`. Keys come
// from Worker secrets and never appear in a response.
//
//   POST /v1/chat/completions   (stream: true supported; stream_options.include_usage honoured)
//   GET  /v1/models
//
// Routing: a model "anthropic/…" / "gemini/…" / "openai/…" picks the upstream explicitly
// (the prefix is removed); otherwise "claude…" goes to Anthropic, "gemini…" to Gemini, anything
// else to OpenAI. Bindings: ANTHROPIC_API_KEY, GEMINI_API_KEY, OPENAI_API_KEY (secrets) and
// optional ANTHROPIC_BASE_URL, GEMINI_BASE_URL, OPENAI_BASE_URL, MODELS (comma-separated ids
// for /v1/models). wrangler bundles the package's workerd entry (package.json, `npm install`).
import { createClient } from "toolnexus-wasm";

const UPSTREAMS = {
  anthropic: { style: "anthropic", base: "https://api.anthropic.com", key: "ANTHROPIC_API_KEY", url: "ANTHROPIC_BASE_URL" },
  gemini: { style: "gemini", base: "https://generativelanguage.googleapis.com", key: "GEMINI_API_KEY", url: "GEMINI_BASE_URL" },
  openai: { style: "openai", base: "https://api.openai.com/v1", key: "OPENAI_API_KEY", url: "OPENAI_BASE_URL" },
};

function route(model) {
  const slash = model.indexOf("/");
  if (slash > 0 && UPSTREAMS[model.slice(0, slash)]) return [UPSTREAMS[model.slice(0, slash)], model.slice(slash + 1)];
  if (model.startsWith("claude")) return [UPSTREAMS.anthropic, model];
  if (model.startsWith("gemini")) return [UPSTREAMS.gemini, model];
  return [UPSTREAMS.openai, model];
}

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const fail = (status, message, type = "invalid_request_error", code = null) => json(status, { error: { message, type, param: null, code } });

/** A ToolnexusError as an OpenAI error body; upstream HTTP statuses pass through. */
function upstreamError(e) {
  if (e.code === "bad_input") return fail(400, e.message);
  // A refused upstream redirect (3xx) is a bad gateway here, not a redirect for the caller.
  if (e.code === "provider_http" && e.status >= 400) return fail(e.status, e.message, e.status === 429 ? "rate_limit_error" : "upstream_error", e.code);
  if (e.code === "aborted") return fail(504, e.message, "timeout", e.code);
  return fail(502, e.message, "upstream_error", e.code ?? null);
}

function completion(model, r) {
  // A refusal is OpenAI's `refusal` field with `content` null; Gemini thought signatures ride on
  // the calls as `extra_content`, as Gemini's own OpenAI-compatible endpoint sends them.
  const message = { role: "assistant", content: r.refusal !== undefined || (r.text === "" && r.toolCalls.length) ? null : r.text };
  if (r.refusal !== undefined) message.refusal = r.refusal;
  if (r.toolCalls.length) {
    message.tool_calls = r.toolCalls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
      ...(c.extra_content ? { extra_content: c.extra_content } : {}),
    }));
  }
  return {
    id: `chatcmpl-${crypto.randomUUID()}`, object: "chat.completion", created: Math.floor(Date.now() / 1000), model,
    choices: [{ index: 0, message, finish_reason: r.finishReason, logprobs: null }],
    usage: { prompt_tokens: r.usage.promptTokens, completion_tokens: r.usage.completionTokens, total_tokens: r.usage.totalTokens },
  };
}

async function chat(request, env) {
  let body;
  try { body = await request.json(); } catch { return fail(400, "the request body is not JSON"); }
  if (typeof body?.model !== "string" || !body.model) return fail(400, "you must provide a model parameter");
  if (!Array.isArray(body.messages) || body.messages.length === 0) return fail(400, "messages must be a non-empty array");
  const [upstream, model] = route(body.model);
  const apiKey = env[upstream.key];
  if (!apiKey) return fail(500, `the proxy has no ${upstream.key} secret`, "server_error");
  let client; // the caller picks the model: one that cannot be sent (a Gemini model with `/`) is a 400
  try { client = createClient({ baseUrl: env[upstream.url] || upstream.base, style: upstream.style, model, apiKey, retries: 1 }); } catch (e) { return upstreamError(e); }
  const req = { messages: body.messages, tools: body.tools, toolChoice: body.tool_choice, maxTokens: body.max_completion_tokens ?? body.max_tokens, signal: request.signal };
  if (!body.stream) {
    try { return json(200, completion(body.model, await client.translate(req))); } catch (e) { return upstreamError(e); }
  }
  const includeUsage = body.stream_options?.include_usage === true;
  const iterator = client.translateStream(req)[Symbol.asyncIterator]();
  let first;
  try { first = await iterator.next(); } catch (e) { return upstreamError(e); } // errors before any byte get a status
  const enc = new TextEncoder();
  const stream = new ReadableStream({
    async start(controller) {
      const send = (chunk) => controller.enqueue(enc.encode(`data: ${JSON.stringify({ ...chunk, model: body.model })}\n\n`));
      try {
        for (let step = first; !step.done; step = await iterator.next()) {
          if (step.value.usage && !includeUsage) continue;
          send(step.value);
        }
        controller.enqueue(enc.encode("data: [DONE]\n\n"));
      } catch (e) {
        controller.enqueue(enc.encode(`data: ${JSON.stringify({ error: { message: e.message, type: "upstream_error", code: e.code ?? null } })}\n\n`));
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/v1/chat/completions" && request.method === "POST") return chat(request, env);
    if (pathname === "/v1/models" && request.method === "GET") {
      const ids = (env.MODELS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
      return json(200, { object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: route(id)[0].style })) });
    }
    return fail(404, `no route for ${request.method} ${pathname}`, "invalid_request_error", "not_found");
  },
};
