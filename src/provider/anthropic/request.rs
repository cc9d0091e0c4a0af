//! The Anthropic request: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.

use super::dialect::render;
use crate::json::{write_obj, Obj};
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
    let mut out = String::new();
    write_obj(&mut out, |o| {
        o.str("model", &cfg.model);
        o.u64("max_tokens", req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS));
        o.value("messages", &Value::Array(render(req.messages, Some(&cfg.model))));
        // Omitted when empty (as the Go reference does).
        if !system.is_empty() {
            o.str("system", &system);
        }
        // Anthropic names the schema `input_schema`.
        if !req.tools.is_empty() {
            o.arr("tools", |a| {
                for t in req.tools {
                    a.obj(|d| write_tool_decl(d, t, "input_schema", &t.input_schema));
                }
            });
        }
        if req.stream {
            o.bool("stream", true);
        }
        if let ToolChoice::Given(c) = req.tool_choice {
            choice(o, c);
        }
    });
    (url, headers, out)
}

/// `"required"`/`"any"` → any, `"none"` → none, `{function:{name}}` → that tool; else omitted.
fn choice(o: &mut Obj, choice: &Value) {
    if let Some(name) = forced(choice) {
        o.obj("tool_choice", |c| {
            c.str("type", "tool").str("name", name);
        });
        return;
    }
    let ty = match choice.as_str() {
        Some("required" | "any") => "any",
        Some("none") => "none",
        _ => return,
    };
    o.obj("tool_choice", |c| {
        c.str("type", ty);
    });
}
