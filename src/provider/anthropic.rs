//! Anthropic messages (contract §f.2).

use super::{strip_slash, u64_at, ModelReply, ModelRequest, ProviderConfig};
use crate::dialect;
use crate::error::{Error, Result};
use crate::message::{AssistantTurn, Message, ToolCall, Usage};
use crate::provider::Style;
use serde_json::{json, Map, Value};

pub const VERSION: &str = "2023-06-01";
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, Value) {
    let base = strip_slash(&cfg.base_url);
    let url = if base.ends_with("/v1") { format!("{base}/messages") } else { format!("{base}/v1/messages") };
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-api-key".to_string(), k.to_string()));
    }
    headers.push(("anthropic-version".to_string(), VERSION.to_string()));
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    let mut body = Map::new();
    body.insert("model".into(), json!(cfg.model));
    body.insert("max_tokens".into(), json!(DEFAULT_MAX_TOKENS));
    body.insert("messages".into(), Value::Array(dialect::render(req.messages, Style::Anthropic)));
    let system = system_of(req);
    if !system.is_empty() {
        body.insert("system".into(), json!(system));
    }
    if !req.tools.is_empty() {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    (url, headers, Value::Object(body))
}

/// The configured system prompt plus any system messages a transcript from the OpenAI dialect
/// carried (they have no place among Anthropic messages), without repeating one.
fn system_of(req: &ModelRequest) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if !req.system.is_empty() {
        parts.push(req.system);
    }
    for m in req.messages {
        if let Message::System(s) = m {
            if !s.is_empty() && !parts.contains(&s.as_str()) {
                parts.push(s);
            }
        }
    }
    parts.join("\n\n")
}

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let blocks = v
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::parse("Anthropic reply has no content array"))?;
    let mut turn = AssistantTurn::default();
    for (i, b) in blocks.iter().enumerate() {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => turn.text.push_str(b.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => {
                let name = b
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::parse(format!("Anthropic content[{i}] tool_use has no name")))?;
                let input = b.get("input").cloned().unwrap_or_else(|| json!({}));
                turn.calls.push(ToolCall {
                    id: b.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                    name: name.to_string(),
                    arguments: serde_json::to_string(&input).unwrap_or_else(|_| "{}".into()),
                });
            }
            _ => {}
        }
    }
    let usage = v
        .get("usage")
        .map(|u| {
            let (p, c) = (u64_at(u, "input_tokens"), u64_at(u, "output_tokens"));
            Usage { prompt_tokens: p, completion_tokens: c, total_tokens: p + c }
        })
        .unwrap_or_default();
    let stop_reason = v.get("stop_reason").and_then(Value::as_str).map(str::to_string);
    Ok(ModelReply { turn, stop_reason, usage })
}
