//! The Anthropic request: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.

use super::dialect::render;
use crate::json::{write_str, write_value};
use crate::prelude::*;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash, write_tool_decl};
use serde_json::Value;

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
    // Written by hand around the serde view of `messages` (see `json::write_str`).
    let mut out = String::from("{\"model\":");
    write_str(&mut out, &cfg.model);
    out.push_str(",\"max_tokens\":");
    crate::json::write_u64(&mut out, req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS));
    out.push_str(",\"messages\":");
    write_value(&mut out, &Value::Array(render(req.messages, Some(&cfg.model))));
    // Omitted when empty (as the Go reference does).
    if !system.is_empty() {
        out.push_str(",\"system\":");
        write_str(&mut out, &system);
    }
    // Anthropic names the schema `input_schema`.
    if !req.tools.is_empty() {
        out.push_str(",\"tools\":[");
        for (i, t) in req.tools.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_tool_decl(&mut out, t, "input_schema", &t.input_schema);
        }
        out.push(']');
    }
    if req.stream {
        out.push_str(",\"stream\":true");
    }
    if let ToolChoice::Given(c) = req.tool_choice {
        choice(&mut out, c);
    }
    out.push('}');
    (url, headers, out)
}

/// `"required"`/`"any"` → any, `"none"` → none, `{function:{name}}` → that tool; else omitted.
fn choice(out: &mut String, choice: &Value) {
    if let Some(name) = forced(choice) {
        out.push_str(",\"tool_choice\":{\"type\":\"tool\",\"name\":");
        write_str(out, name);
        out.push('}');
        return;
    }
    match choice.as_str() {
        Some("required" | "any") => out.push_str(",\"tool_choice\":{\"type\":\"any\"}"),
        Some("none") => out.push_str(",\"tool_choice\":{\"type\":\"none\"}"),
        _ => {}
    }
}
