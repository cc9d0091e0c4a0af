//! Anthropic messages (contract §f.2).

use super::{strip_slash, u64_at, ModelReply, ModelRequest, ProviderConfig, ToolChoice, ToolDecl};
use crate::dialect::Transcript;
use crate::error::{Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use crate::provider::Style;
use serde::Serialize;
use serde_json::{json, Value};

pub const VERSION: &str = "2023-06-01";
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let base = strip_slash(&cfg.base_url);
    let url = if base.ends_with("/v1") { format!("{base}/messages") } else { format!("{base}/v1/messages") };
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-api-key".to_string(), k.to_string()));
    }
    headers.push(("anthropic-version".to_string(), VERSION.to_string()));
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    let system = super::hoisted_system(req);
    let body = Body {
        model: &cfg.model,
        max_tokens: req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        messages: Transcript { messages: req.messages, style: Style::Anthropic },
        system: (!system.is_empty()).then_some(system.as_str()),
        tools: req.tools.iter().map(|t| ToolDecl { name: &t.name, description: &t.description, schema: &t.input_schema }).collect(),
        stream: req.stream.then_some(true),
        tool_choice: match req.tool_choice {
            ToolChoice::Given(c) => anthropic_choice(c),
            _ => None,
        },
    };
    (url, headers, serde_json::to_string(&body).unwrap_or_default())
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    max_tokens: u64,
    messages: Transcript<'a>,
    /// Omitted when empty (contract §f.2, Go behaviour).
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "anthropic_tools")]
    tools: Vec<ToolDecl<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
}

/// `"required"`/`"any"` → any, `"none"` → none, `{function:{name}}` → that tool; else omitted.
fn anthropic_choice(choice: &Value) -> Option<Value> {
    if let Some(name) = super::forced(choice) {
        return Some(json!({"type": "tool", "name": name}));
    }
    match choice.as_str()? {
        "required" | "any" => Some(json!({"type": "any"})),
        "none" => Some(json!({"type": "none"})),
        _ => None,
    }
}

/// Anthropic names the schema `input_schema`.
fn anthropic_tools<S: serde::Serializer>(tools: &[ToolDecl], s: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Decl<'a> {
        name: &'a str,
        description: &'a str,
        input_schema: &'a Value,
    }
    s.collect_seq(tools.iter().map(|t| Decl { name: t.name, description: t.description, input_schema: t.schema }))
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
