//! The OpenAI request: `POST {base}/chat/completions` with a bearer key.

use super::dialect::write_messages;
use crate::json::{write_str, write_value};
use crate::message::Message;
use crate::prelude::*;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{strip_slash, write_tool_decl};

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let url = format!("{}/chat/completions", strip_slash(&cfg.base_url));
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("Authorization".to_string(), format!("Bearer {k}")));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));

    // The system prompt lives in the transcript for this style.
    let mut out = String::with_capacity(body_hint(req));
    out.push_str("{\"model\":");
    write_str(&mut out, &cfg.model);
    out.push_str(",\"messages\":");
    write_messages(&mut out, req.messages, Some(&cfg.model));
    // `tools` and `tool_choice` are omitted when no tool is declared.
    if !req.tools.is_empty() {
        out.push_str(",\"tools\":[");
        for (i, t) in req.tools.iter().enumerate() {
            out.push_str(if i > 0 { ",{\"type\":\"function\",\"function\":" } else { "{\"type\":\"function\",\"function\":" });
            write_tool_decl(&mut out, t, "parameters", &t.input_schema);
            out.push('}');
        }
        out.push(']');
    }
    match req.tool_choice {
        ToolChoice::Auto if !req.tools.is_empty() => out.push_str(",\"tool_choice\":\"auto\""),
        ToolChoice::Given(c) => {
            out.push_str(",\"tool_choice\":");
            write_value(&mut out, c);
        }
        _ => {}
    }
    if let Some(n) = req.max_tokens {
        out.push_str(",\"max_tokens\":");
        crate::json::write_u64(&mut out, n);
    }
    if req.stream {
        // The last chunk then carries the usage.
        out.push_str(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
    }
    out.push('}');
    (url, headers, out)
}

/// A first guess at the body's length, so that it is written into one buffer: the texts it
/// carries plus room for keys, ids and schemas.
fn body_hint(req: &ModelRequest) -> usize {
    // Loops, not `map(..).sum()` chains: each is its own copy in the wasm.
    let mut text = 0;
    for m in req.messages {
        match m {
            Message::System(t) | Message::User(t) => text += t.len() + 40,
            Message::UserParts(p) => {
                for p in p {
                    text += p.text().len() + 80;
                }
            }
            Message::Assistant(turn) => {
                text += turn.text.len() + 40;
                for c in &turn.calls {
                    text += c.arguments.len() + c.name.len() + 80;
                }
            }
            Message::Tool(outs) => {
                for o in outs {
                    text += o.output.len() + o.call_id.len() + 40 + o.parts.len() * 80;
                }
            }
        }
    }
    256 + text + req.tools.len() * 256
}
