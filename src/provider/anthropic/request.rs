//! The Anthropic request: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.

use super::dialect::Messages;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash, ToolDecl};
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

    let system = hoisted_system(req);
    let body = Body {
        model: &cfg.model,
        max_tokens: req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        messages: Messages(req.messages),
        system: (!system.is_empty()).then_some(system.as_str()),
        tools: req
            .tools
            .iter()
            .map(|t| ToolDecl { name: &t.name, description: &t.description, schema: &t.input_schema })
            .collect(),
        stream: req.stream.then_some(true),
        tool_choice: match req.tool_choice {
            ToolChoice::Given(c) => choice(c),
            _ => None,
        },
    };
    (url, headers, serde_json::to_string(&body).unwrap_or_default())
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    max_tokens: u64,
    messages: Messages<'a>,
    /// Omitted when empty (as the Go reference does).
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "tools")]
    tools: Vec<ToolDecl<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
}

/// `"required"`/`"any"` → any, `"none"` → none, `{function:{name}}` → that tool; else omitted.
fn choice(choice: &Value) -> Option<Value> {
    if let Some(name) = forced(choice) {
        return Some(json!({"type": "tool", "name": name}));
    }
    match choice.as_str()? {
        "required" | "any" => Some(json!({"type": "any"})),
        "none" => Some(json!({"type": "none"})),
        _ => None,
    }
}

/// Anthropic names the schema `input_schema`.
fn tools<S: serde::Serializer>(tools: &[ToolDecl], s: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Decl<'a> {
        name: &'a str,
        description: &'a str,
        input_schema: &'a Value,
    }
    s.collect_seq(tools.iter().map(|t| Decl { name: t.name, description: t.description, input_schema: t.schema }))
}
