//! The OpenAI request: `POST {base}/chat/completions` with a bearer key.

use super::dialect::Messages;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{strip_slash, ToolDecl};
use serde::Serialize;
use serde_json::Value;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let url = format!("{}/chat/completions", strip_slash(&cfg.base_url));
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("Authorization".to_string(), format!("Bearer {k}")));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    // The system prompt lives in the transcript for this style.
    let tools: Vec<Tool> = req
        .tools
        .iter()
        .map(|t| Tool {
            kind: "function",
            function: ToolDecl { name: &t.name, description: &t.description, schema: &t.input_schema },
        })
        .collect();
    let body = Body {
        model: &cfg.model,
        messages: Messages(req.messages),
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
    messages: Messages<'a>,
    /// Omitted with `tool_choice` when there are no tools.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<bool>,
    /// The last chunk then carries the usage.
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct Tool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: ToolDecl<'a>,
}
