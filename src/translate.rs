//! `translate` (contract Part 2 §e with Part 1 decisions): an OpenAI chat request in, exactly one
//! call to the client's provider (OpenAI, Anthropic or Gemini), an OpenAI-shaped result out.
//! Nothing executes: no loop, no tools, no store, no `run`/`tool` metric. `beforeLLM` and
//! `afterLLM` fire once and their errors propagate. `translateStream` yields OpenAI
//! `chat.completion.chunk` objects from any upstream.

use crate::dialect;
use crate::driver::{hook_failed, with_retries, Delivered, Env, RetryPolicy};
use crate::error::{Error, Result};
use crate::hooks::{merge_params, Hook};
use crate::message::{Message, Usage};
use crate::metrics::Metric;
use crate::provider::{self, HttpRequest, ModelReply, ModelRequest, StreamAssembler, Style, ToolChoice};
use crate::run::RunConfig;
use crate::tool::{ToolSpec, Toolkit};
use serde_json::{json, Map, Value};

pub struct TranslateRequest {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: Option<Value>,
    pub system: Option<String>,
    pub max_tokens: Option<u64>,
}

impl TranslateRequest {
    /// `{ messages, tools?, toolChoice?, system?, maxTokens? }`; the toolkit's declarations come
    /// before `tools`. Assistant `tool_calls` arguments may be objects as well as strings.
    pub fn from_json(v: &Value, toolkit: &Toolkit) -> Result<TranslateRequest> {
        let o = v.as_object().ok_or_else(|| Error::bad_input("translate needs a request object { messages, ... }"))?;
        let messages = o
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::bad_input("translate request.messages must be an array"))?;
        let mut tools: Vec<ToolSpec> = toolkit.tools().to_vec();
        for (i, t) in o.get("tools").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let f = t.get("function").unwrap_or(t);
            let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
            if name.is_empty() {
                continue; // an entry without a name is skipped (contract §e)
            }
            let schema = f.get("parameters").or_else(|| f.get("input_schema")).filter(|s| s.is_object()).cloned();
            tools.push(
                ToolSpec {
                    name: name.to_string(),
                    description: f.get("description").and_then(Value::as_str).unwrap_or_default().to_string(),
                    input_schema: schema.unwrap_or_else(|| json!({"type": "object", "properties": {}})),
                    source: "custom".into(),
                }
                .validated()
                .map_err(|e| Error::bad_input(format!("translate request.tools[{i}]: {}", e.message)))?,
            );
        }
        Ok(TranslateRequest {
            messages: dialect::read(messages)?,
            tools,
            tool_choice: o.get("toolChoice").or_else(|| o.get("tool_choice")).filter(|c| !c.is_null()).cloned(),
            system: o.get("system").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string),
            max_tokens: o.get("maxTokens").or_else(|| o.get("max_tokens")).and_then(Value::as_u64).filter(|n| *n > 0),
        })
    }
}

/// The provider request for a translation.
pub fn build(cfg: &RunConfig, req: &TranslateRequest, stream: bool) -> HttpRequest {
    let style = cfg.provider.style;
    let system = req.system.clone().unwrap_or_else(|| cfg.system_prompt.clone());
    let mut messages = req.messages.clone();
    if style == Style::OpenAi && !system.is_empty() && !messages.iter().any(|m| matches!(m, Message::System(_))) {
        messages.insert(0, Message::System(system.clone()));
    }
    let model_req = ModelRequest {
        system: &system,
        messages: &messages,
        tools: &req.tools,
        stream,
        tool_choice: match &req.tool_choice {
            Some(c) => ToolChoice::Given(c),
            None => ToolChoice::Omit,
        },
        max_tokens: req.max_tokens,
    };
    provider::build_request(&cfg.provider, &model_req)
}

/// Any tool call means `"tool_calls"`; otherwise the provider's reason mapped to OpenAI's.
pub fn finish_reason(has_calls: bool, stop: Option<&str>) -> &'static str {
    if has_calls {
        return "tool_calls";
    }
    match stop.unwrap_or("") {
        "length" | "max_tokens" => "length",
        "content_filter" | "refusal" => "content_filter",
        other => provider::gemini_finish_reason(other).unwrap_or("stop"),
    }
}

fn tool_calls(reply: &ModelReply) -> Vec<Value> {
    reply
        .turn
        .calls
        .iter()
        .map(|c| json!({"id": c.id, "name": c.name, "arguments": if c.arguments.trim().is_empty() { "{}" } else { c.arguments.as_str() }}))
        .collect()
}

/// `{ text, toolCalls, finishReason, usage, model, raw? }`.
pub fn result(reply: &ModelReply, model: &str, raw: Option<Value>) -> Value {
    let mut o = Map::new();
    o.insert("text".into(), json!(reply.turn.text));
    o.insert("toolCalls".into(), Value::Array(tool_calls(reply)));
    o.insert("finishReason".into(), json!(finish_reason(!reply.turn.calls.is_empty(), reply.stop_reason.as_deref())));
    o.insert("usage".into(), serde_json::to_value(reply.usage).unwrap_or(Value::Null));
    o.insert("model".into(), json!(model));
    if let Some(r) = raw {
        o.insert("raw".into(), r);
    }
    Value::Object(o)
}

/// One `chat.completion.chunk`.
pub fn chunk(id: &str, model: &str, created: u64, delta: Value, finish: Option<&str>, usage: Option<Usage>) -> Value {
    let mut o = json!({"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    if let Some(u) = usage {
        o["choices"] = json!([]);
        o["usage"] = json!({"prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens, "total_tokens": u.total_tokens});
    }
    o
}

/// Runs one translation. With `chunks`, the upstream is streamed and each OpenAI chunk is handed
/// over as it is made (role first, text deltas, the tool calls, the finish, the usage).
pub async fn translate(cfg: &RunConfig, mut req: TranslateRequest, env: &Env<'_>, chunks: Option<&dyn Fn(Value)>) -> Result<Value> {
    let t0 = (env.clock)();
    let model = cfg.provider.model.clone();
    if let Some(h) = env.hook(Hook::BeforeLlm) {
        let messages = dialect::render(&req.messages, cfg.provider.style);
        if let Some(change) = h.before_llm(messages, &req.tools, &model, 0).await.map_err(hook_failed("beforeLLM"))? {
            if let Some(m) = change.messages {
                req.messages = dialect::read(&m)?;
            }
            if let Some(t) = change.tools {
                req.tools = t;
            }
        }
    }
    let mut http = build(cfg, &req, chunks.is_some());
    if cfg.request_params.is_some() || env.hook(Hook::BodyTransform).is_some() {
        let mut body: Value = serde_json::from_str(&http.body).map_err(|e| Error::internal(e.to_string()))?;
        if let Some(p) = &cfg.request_params {
            merge_params(&mut body, p);
        }
        if let Some(h) = env.hook(Hook::BodyTransform) {
            if let Some(b) = h.transform_body(body.clone()).await.map_err(hook_failed("bodyTransform"))? {
                body = b;
            }
        }
        http.body = body.to_string();
    }
    let policy = RetryPolicy { retries: cfg.retries, base_ms: cfg.retry_base_ms, secret: cfg.provider.api_key.clone() };
    let outcome = one_call(cfg, http, env, &policy, chunks, &model, req.messages.len() as u32).await;
    let usage = outcome.as_ref().map(|(_, r)| r.usage).unwrap_or_default();
    env.emit(Metric::Llm {
        model: model.clone(),
        status: if outcome.is_ok() { "ok" } else { "error" },
        ms: (env.clock)() - t0,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
    });
    let (raw, mut reply) = outcome?;
    // Calls without ids (Gemini) get ids unique in this conversation: the caller echoes them
    // back as tool_call_id, and the next translation pairs results with calls by them.
    crate::run::assign_call_ids(&mut reply.turn.calls, req.messages.len() as u32);
    if let Some(h) = env.hook(Hook::AfterLlm) {
        let response = raw.clone().unwrap_or_else(|| json!({"streamed": true, "usage": reply.usage}));
        h.after_llm(response, &model, 0).await.map_err(hook_failed("afterLLM"))?;
    }
    Ok(result(&reply, &model, raw))
}

async fn one_call(
    cfg: &RunConfig,
    http: HttpRequest,
    env: &Env<'_>,
    policy: &RetryPolicy,
    chunks: Option<&dyn Fn(Value)>,
    model: &str,
    turn_id: u32,
) -> Result<(Option<Value>, ModelReply)> {
    let Some(emit) = chunks else {
        let Delivered::Whole(resp) = with_retries(policy, http, env, false).await? else {
            return Err(Error::internal("a whole reply was asked for"));
        };
        let reply = provider::parse_response(&cfg.provider, &resp)?;
        return Ok((serde_json::from_str(&resp.body).ok(), reply));
    };
    let Delivered::Stream(mut resp) = with_retries(policy, http, env, true).await? else {
        return Err(Error::internal("a streamed reply was asked for"));
    };
    let id = format!("chatcmpl-{}", env.ids.next());
    let created = ((env.clock)() / 1000.0) as u64;
    emit(chunk(&id, model, created, json!({"role": "assistant", "content": ""}), None, None));
    let mut assembler = StreamAssembler::new(&cfg.provider);
    while let Some(bytes) = resp.body.next_chunk().await? {
        for delta in assembler.push(&bytes)? {
            emit(chunk(&id, model, created, json!({"content": delta}), None, None));
        }
    }
    let mut reply = assembler.finish()?;
    crate::run::assign_call_ids(&mut reply.turn.calls, turn_id);
    if !reply.turn.calls.is_empty() {
        let calls: Vec<Value> = tool_calls(&reply)
            .into_iter()
            .enumerate()
            .map(|(i, c)| json!({"index": i, "id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}))
            .collect();
        emit(chunk(&id, model, created, json!({"tool_calls": calls}), None, None));
    }
    let finish = finish_reason(!reply.turn.calls.is_empty(), reply.stop_reason.as_deref());
    emit(chunk(&id, model, created, json!({}), Some(finish), None));
    emit(chunk(&id, model, created, Value::Null, None, Some(reply.usage)));
    Ok((None, reply))
}
