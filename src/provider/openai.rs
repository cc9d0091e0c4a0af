//! OpenAI chat completions (contract §f.1).

use super::{strip_slash, u64_at, ModelReply, ModelRequest, ProviderConfig, ToolChoice, ToolDecl};
use crate::dialect::{self, Transcript};
use crate::error::{Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use crate::provider::Style;
use serde::Serialize;
use serde_json::Value;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let url = format!("{}/chat/completions", strip_slash(&cfg.base_url));
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("Authorization".to_string(), format!("Bearer {k}")));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    // The system prompt lives in the transcript for this style (contract §b.4).
    let tools: Vec<OpenAiTool> = req.tools.iter().map(|t| OpenAiTool {
        kind: "function",
        function: ToolDecl { name: &t.name, description: &t.description, schema: &t.input_schema },
    }).collect();
    let body = Body {
        model: &cfg.model,
        messages: Transcript { messages: req.messages, style: Style::OpenAi },
        tool_choice: match req.tool_choice {
            ToolChoice::Auto if !tools.is_empty() => Some(Value::from("auto")),
            ToolChoice::Given(c) => Some(c.clone()),
            _ => None,
        },
        max_tokens: req.max_tokens,
        tools,
        stream: req.stream.then_some(true),
        stream_options: req.stream.then_some(StreamOptions { include_usage: true }),
    };
    (url, headers, serde_json::to_string(&body).unwrap_or_default())
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    messages: Transcript<'a>,
    /// Omitted with `tool_choice` when there are no tools (contract §b.13).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<OpenAiTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<bool>,
    /// The last chunk then carries the usage (contract §f.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct OpenAiTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: ToolDecl<'a>,
}

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let choices = v
        .get("choices")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::parse("OpenAI reply has no choices array"))?;
    let usage = usage_of(v.get("usage"));
    // Empty choices is a final, empty answer (contract §b.6, Go behaviour).
    let Some(first) = choices.first() else {
        return Ok(ModelReply { turn: AssistantTurn::default(), stop_reason: None, usage });
    };
    let message = first
        .get("message")
        .filter(|m| m.is_object())
        .ok_or_else(|| Error::parse("OpenAI reply choices[0] has no message object"))?;
    let text = dialect::flatten(message.get("content").unwrap_or(&Value::Null));
    let mut calls = Vec::new();
    if let Some(list) = message.get("tool_calls").and_then(Value::as_array) {
        for (i, c) in list.iter().enumerate() {
            let f = c
                .get("function")
                .ok_or_else(|| Error::parse(format!("OpenAI tool_calls[{i}] has no function")))?;
            let name = f
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::parse(format!("OpenAI tool_calls[{i}] has no function name")))?;
            let arguments = match f.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            calls.push(ToolCall { id, name: name.to_string(), arguments });
        }
    }
    let stop_reason = first.get("finish_reason").and_then(Value::as_str).map(str::to_string);
    Ok(ModelReply { turn: AssistantTurn { text, calls }, stop_reason, usage })
}

fn usage_of(u: Option<&Value>) -> Usage {
    let Some(u) = u.filter(|u| u.is_object()) else { return Usage::default() };
    let prompt = u64_at(u, "prompt_tokens");
    let completion = u64_at(u, "completion_tokens");
    let total = u.get("total_tokens").and_then(Value::as_u64).unwrap_or(prompt + completion);
    Usage { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total }
}
