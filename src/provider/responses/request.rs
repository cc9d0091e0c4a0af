//! The Responses request: `POST {base}/responses` with a bearer key.

use super::dialect::render;
use crate::json::{write_obj, Obj};
use crate::prelude::*;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash, write_tool_decl};
use serde_json::Value;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let url = format!("{}/responses", strip_slash(&cfg.base_url));
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("Authorization".to_string(), format!("Bearer {k}")));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    // System messages (and the configured prompt) are `instructions`, omitted when empty.
    let system = hoisted_system(req);
    let mut out = String::new();
    write_obj(&mut out, |o| {
        o.str("model", &cfg.model);
        if !system.is_empty() {
            o.str("instructions", &system);
        }
        o.value("input", &Value::Array(render(req.messages, Some(&cfg.model))));
        // `strict: false`: a declared schema need not meet strict mode's rules.
        if !req.tools.is_empty() {
            o.arr("tools", |a| {
                for t in req.tools {
                    a.obj(|d| {
                        d.str("type", "function");
                        write_tool_decl(d, t, "parameters", &t.input_schema);
                        d.bool("strict", false);
                    });
                }
            });
        }
        match req.tool_choice {
            ToolChoice::Auto if !req.tools.is_empty() => {
                o.str("tool_choice", "auto");
            }
            ToolChoice::Given(c) => choice(o, c),
            _ => {}
        }
        o.u64_opt("max_output_tokens", req.max_tokens);
        if req.stream {
            o.bool("stream", true);
        }
        // Stateless: nothing is kept on OpenAI's side, so reasoning must come back encrypted to
        // be replayed.
        o.bool("store", false);
        if reasons(&cfg.model) {
            o.arr("include", |a| {
                a.str("reasoning.encrypted_content");
            });
        }
    });
    (url, headers, out)
}

/// An OpenAI-style choice in the Responses spelling: `"auto"` / `"none"` / `"required"` as they
/// are (`"any"` is `"required"`), `{ function: { name } }` becomes `{ type: "function", name }`,
/// and any other object (already in this spelling: `{ type: "function", name }`,
/// `{ type: "allowed_tools", … }`) goes as given.
fn choice(o: &mut Obj, c: &Value) {
    if let Some(name) = forced(c) {
        o.obj("tool_choice", |c| {
            c.str("type", "function").str("name", name);
        });
        return;
    }
    match c {
        Value::String(s) if s == "any" => {
            o.str("tool_choice", "required");
        }
        Value::String(_) | Value::Object(_) => {
            o.value("tool_choice", c);
        }
        _ => {}
    }
}

/// Whether the model may be asked for encrypted reasoning. The API refuses the request
/// (`Encrypted content is not supported with this model`, 400) for models that do not reason:
/// the GPT-4 and GPT-3.5 families and the chat snapshots. Any other model is asked; a caller can
/// still override `include` through `requestParams`. A gateway's `vendor/model` is judged by
/// its last segment.
fn reasons(model: &str) -> bool {
    let name = crate::small::rsplit_once(model, "/").map_or(model, |(_, last)| last).to_ascii_lowercase();
    let plain = ["gpt-4", "gpt-3", "chatgpt-"].iter().any(|p| name.starts_with(p)) || crate::small::contains(&name, "-chat");
    !plain
}
