//! The Responses request: `POST {base}/responses` with a bearer key.

use super::dialect::render;
use crate::json::{write_str, write_value};
use crate::prelude::*;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash};
use serde_json::Value;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let url = format!("{}/responses", strip_slash(&cfg.base_url));
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("Authorization".to_string(), format!("Bearer {k}")));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    let mut out = String::from("{\"model\":");
    write_str(&mut out, &cfg.model);
    // System messages (and the configured prompt) are `instructions`, omitted when empty.
    let system = hoisted_system(req);
    if !system.is_empty() {
        out.push_str(",\"instructions\":");
        write_str(&mut out, &system);
    }
    out.push_str(",\"input\":");
    write_value(&mut out, &Value::Array(render(req.messages, Some(&cfg.model))));
    // `strict: false`: a declared schema need not meet strict mode's rules.
    if !req.tools.is_empty() {
        out.push_str(",\"tools\":[");
        for (i, t) in req.tools.iter().enumerate() {
            out.push_str(if i > 0 { ",{\"type\":\"function\",\"name\":" } else { "{\"type\":\"function\",\"name\":" });
            write_str(&mut out, &t.name);
            out.push_str(",\"description\":");
            write_str(&mut out, &t.description);
            out.push_str(",\"parameters\":");
            write_value(&mut out, &t.input_schema);
            out.push_str(",\"strict\":false}");
        }
        out.push(']');
    }
    match req.tool_choice {
        ToolChoice::Auto if !req.tools.is_empty() => out.push_str(",\"tool_choice\":\"auto\""),
        ToolChoice::Given(c) => choice(&mut out, c),
        _ => {}
    }
    if let Some(n) = req.max_tokens {
        out.push_str(",\"max_output_tokens\":");
        crate::json::write_u64(&mut out, n);
    }
    if req.stream {
        out.push_str(",\"stream\":true");
    }
    // Stateless: nothing is kept on OpenAI's side, so reasoning must come back encrypted to be
    // replayed.
    out.push_str(",\"store\":false");
    if reasons(&cfg.model) {
        out.push_str(",\"include\":[\"reasoning.encrypted_content\"]");
    }
    out.push('}');
    (url, headers, out)
}

/// An OpenAI-style choice in the Responses spelling: `"auto"` / `"none"` / `"required"` as they
/// are (`"any"` is `"required"`), `{ function: { name } }` becomes `{ type: "function", name }`,
/// and any other object (already in this spelling: `{ type: "function", name }`,
/// `{ type: "allowed_tools", … }`) goes as given.
fn choice(out: &mut String, c: &Value) {
    if let Some(name) = forced(c) {
        out.push_str(",\"tool_choice\":{\"type\":\"function\",\"name\":");
        write_str(out, name);
        out.push('}');
        return;
    }
    match c {
        Value::String(s) if s == "any" => out.push_str(",\"tool_choice\":\"required\""),
        Value::String(_) | Value::Object(_) => {
            out.push_str(",\"tool_choice\":");
            write_value(out, c);
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
