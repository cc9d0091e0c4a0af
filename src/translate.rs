//! `translate`: an OpenAI chat request in, exactly one
//! call to the client's provider (OpenAI, Anthropic or Gemini), an OpenAI-shaped result out.
//! Nothing executes: no loop, no tools, no store, no `run`/`tool` metric. The call itself is the
//! loop's model call (`driver::model_call`): the same hooks (`beforeLLM` and `afterLLM` fire once
//! and their errors propagate), `requestParams`, `bodyTransform`, retries, abort and `llm`
//! metric. `translateStream` yields OpenAI `chat.completion.chunk` objects from any upstream.

use crate::dialect;
use crate::driver::{abortable, model_call, CallSubject, Env};
use crate::error::{Error, Result};
use crate::json::obj;
use crate::json::{str_at, str_in};
use crate::message::{Message, ToolCall, Usage};
use crate::prelude::*;
use crate::provider::{self, Finish, HttpRequest, ModelReply, ModelRequest, ProviderConfig, ToolChoice};
use crate::small::{borrow, borrow_mut};
use crate::tool::{ToolSource, ToolSpec, Toolkit};
use core::cell::{Cell, RefCell};
use serde_json::{Map, Value};

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
        let messages =
            o.get("messages").and_then(Value::as_array).ok_or_else(|| Error::bad_input("translate request.messages must be an array"))?;
        let mut tools: Vec<ToolSpec> = toolkit.tools().to_vec();
        for (i, t) in o.get("tools").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let f = t.get("function").unwrap_or(t);
            let name = str_at(f, "name").unwrap_or_default();
            if name.is_empty() {
                continue; // an entry without a name is skipped
            }
            let schema = f.get("parameters").or_else(|| f.get("input_schema")).filter(|s| s.is_object()).cloned();
            tools.push(
                ToolSpec {
                    name: name.to_string(),
                    description: str_at(f, "description").unwrap_or_default().to_string(),
                    input_schema: schema.unwrap_or_else(crate::tool::default_relay_schema),
                    source: ToolSource::Other("custom".into()),
                    agent: None,
                }
                .validated()
                .map_err(|e| Error::bad_input(format!("translate request.tools[{i}]: {}", e.message)))?,
            );
        }
        Ok(TranslateRequest {
            messages: dialect::read(messages)?,
            tools,
            tool_choice: o.get("toolChoice").or_else(|| o.get("tool_choice")).filter(|c| !c.is_null()).cloned(),
            system: str_in(o, "system").filter(|s| !s.is_empty()).map(str::to_string),
            max_tokens: o.get("maxTokens").or_else(|| o.get("max_tokens")).and_then(Value::as_u64).filter(|n| *n > 0),
        })
    }
}

/// The provider request for a translation; `system_prompt` is the client's, used when the
/// request brings none.
pub fn build(provider: &ProviderConfig, system_prompt: &str, req: &TranslateRequest, stream: bool) -> HttpRequest {
    let style = provider.style;
    let system = req.system.clone().unwrap_or_else(|| system_prompt.to_string());
    let mut messages = req.messages.clone();
    crate::provider::seed_system(style, &mut messages, &system);
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
    provider::build_request(provider, &model_req)
}

/// The reply's normalised finish in OpenAI's words: any tool call means `"tool_calls"`; a
/// refusal is `"content_filter"` (its text is also given as `refusal`); `"other"` is `"stop"`
/// (the provider's own word is `providerFinishReason`).
pub fn finish_reason(reply: &ModelReply) -> &'static str {
    if !reply.turn.calls.is_empty() {
        return "tool_calls";
    }
    match reply.finish {
        Finish::Length => "length",
        Finish::ContentFilter | Finish::Refusal => "content_filter",
        _ => "stop",
    }
}

/// A Gemini thought signature on a call, as Gemini's OpenAI-compatible endpoint carries it.
fn extra_content(c: &ToolCall) -> Option<Value> {
    let s = c.signature.as_deref()?;
    Some(obj(vec![("google", obj(vec![("thought_signature", s.into())]))]))
}

/// A call's arguments as sent on: `{}` for none.
fn arguments(c: &ToolCall) -> Value {
    Value::from(if c.arguments.trim().is_empty() { "{}" } else { c.arguments.as_str() })
}

fn tool_calls(reply: &ModelReply) -> Vec<Value> {
    let mut out = Vec::with_capacity(reply.turn.calls.len());
    for c in &reply.turn.calls {
        let mut fields = vec![("id", c.id.as_str().into()), ("name", c.name.as_str().into()), ("arguments", arguments(c))];
        if let Some(e) = extra_content(c) {
            fields.push(("extra_content", e));
        }
        out.push(obj(fields));
    }
    out
}

/// `{ text, toolCalls, finishReason, providerFinishReason?, refusal?, reasoning, usage, model,
/// raw? }`. A refusal's text is both `text` and `refusal`.
pub fn result(reply: &ModelReply, model: &str, raw: Option<Value>) -> Value {
    let mut o = Map::new();
    o.insert("text".into(), reply.turn.text.as_str().into());
    o.insert("toolCalls".into(), Value::Array(tool_calls(reply)));
    o.insert("finishReason".into(), finish_reason(reply).into());
    if let Some(r) = &reply.stop_reason {
        o.insert("providerFinishReason".into(), r.as_str().into());
    }
    if reply.refusal {
        o.insert("refusal".into(), reply.turn.text.as_str().into());
    }
    o.insert("reasoning".into(), reply.reasoning_text.as_str().into());
    o.insert("usage".into(), reply.usage.to_json());
    o.insert("model".into(), model.into());
    if let Some(r) = raw {
        o.insert("raw".into(), r);
    }
    Value::Object(o)
}

/// One `chat.completion.chunk`.
pub fn chunk(id: &str, model: &str, created: u64, delta: Value, finish: Option<&str>, usage: Option<Usage>) -> Value {
    let mut fields =
        vec![("id", id.into()), ("object", "chat.completion.chunk".into()), ("created", created.into()), ("model", model.into())];
    match usage {
        // The usage chunk: no choice, the counts last.
        Some(u) => {
            fields.push(("choices", Value::Array(Vec::new())));
            let counts = vec![
                ("prompt_tokens", u.prompt_tokens.into()),
                ("completion_tokens", u.completion_tokens.into()),
                ("total_tokens", u.total_tokens.into()),
            ];
            fields.push(("usage", obj(counts)));
        }
        None => {
            let choice = obj(vec![("index", 0u64.into()), ("delta", delta), ("finish_reason", finish.map_or(Value::Null, Value::from))]);
            fields.push(("choices", Value::Array(vec![choice])));
        }
    }
    obj(fields)
}

/// Runs one translation. With `chunks`, the upstream is streamed and each OpenAI chunk is handed
/// over as it is made (role first, text deltas, the tool calls, the finish, the usage).
pub async fn translate(
    provider: &ProviderConfig,
    system_prompt: &str,
    req: TranslateRequest,
    env: &Env<'_>,
    chunks: Option<&dyn Fn(Value)>,
) -> Result<Value> {
    let t =
        Translation { provider, system_prompt, env, chunks, req: RefCell::new(req), stream_id: RefCell::default(), out: Cell::default() };
    abortable(env.abort, Box::pin(model_call(provider, &t, chunks.is_some(), env))).await?;
    t.out.into_inner().ok_or_else(|| Error::internal("the translation ended without a reply"))
}

/// One translation as the model-call pipeline sees it.
struct Translation<'a, 'e> {
    provider: &'a ProviderConfig,
    system_prompt: &'a str,
    env: &'a Env<'e>,
    chunks: Option<&'a dyn Fn(Value)>,
    req: RefCell<TranslateRequest>,
    /// The chunk id and `created` second of a streamed translation, set when the stream opens.
    stream_id: RefCell<(String, u64)>,
    out: Cell<Option<Value>>,
}

impl Translation<'_, '_> {
    fn emit(&self, delta: Value, finish: Option<&str>, usage: Option<Usage>) {
        if let Some(emit) = self.chunks {
            let (id, created) = &*borrow(&self.stream_id);
            emit(chunk(id, &self.provider.model, *created, delta, finish, usage));
        }
    }
}

impl CallSubject for Translation<'_, '_> {
    fn turn(&self) -> u32 {
        0
    }
    fn working_copies(&self) -> (Vec<Value>, Vec<ToolSpec>) {
        let req = borrow(&self.req);
        (dialect::render(&req.messages, self.provider.style), req.tools.clone())
    }
    fn replace_working(&self, messages: Option<Vec<Message>>, tools: Option<Vec<ToolSpec>>) {
        let mut req = borrow_mut(&self.req);
        if let Some(m) = messages {
            req.messages = m;
        }
        if let Some(t) = tools {
            req.tools = t;
        }
    }
    fn request(&self, stream: bool) -> HttpRequest {
        build(self.provider, self.system_prompt, &borrow(&self.req), stream)
    }
    fn opened(&self) {
        *borrow_mut(&self.stream_id) = (format!("chatcmpl-{}", self.env.ids.next()), ((self.env.clock)() / 1000.0) as u64);
        self.emit(obj(vec![("role", "assistant".into()), ("content", "".into())]), None, None);
    }
    /// Text as `content`; readable reasoning as `reasoning_content`, the field OpenAI-compatible
    /// servers that stream reasoning use, so it never joins the answer.
    fn delta(&self, delta: crate::provider::Delta) {
        let (key, text) = match delta {
            crate::provider::Delta::Text(t) => ("content", t),
            crate::provider::Delta::Reasoning(t) => ("reasoning_content", t),
        };
        self.emit(obj(vec![(key, text.into())]), None, None);
    }
    fn keeps_raw(&self) -> bool {
        true
    }
    fn accept(&self, mut reply: ModelReply, raw: Option<&Value>) -> Result<()> {
        // Calls without ids (Gemini) get ids unique in this conversation: the caller echoes them
        // back as tool_call_id, and the next translation pairs results with calls by them.
        crate::run::assign_call_ids(&mut reply.turn.calls, borrow(&self.req).messages.len() as u32);
        if self.chunks.is_some() {
            if !reply.turn.calls.is_empty() {
                let mut calls = Vec::with_capacity(reply.turn.calls.len());
                for (i, c) in reply.turn.calls.iter().enumerate() {
                    let function = obj(vec![("name", c.name.as_str().into()), ("arguments", arguments(c))]);
                    let mut fields =
                        vec![("index", i.into()), ("id", c.id.as_str().into()), ("type", "function".into()), ("function", function)];
                    if let Some(e) = extra_content(c) {
                        fields.push(("extra_content", e));
                    }
                    calls.push(obj(fields));
                }
                self.emit(obj(vec![("tool_calls", Value::Array(calls))]), None, None);
            }
            self.emit(Value::Object(Map::new()), Some(finish_reason(&reply)), None);
            self.emit(Value::Null, None, Some(reply.usage));
        }
        self.out.set(Some(result(&reply, &self.provider.model, raw.cloned())));
        Ok(())
    }
}
