//! The OpenAI request: `POST {base}/chat/completions` with a bearer key.

use super::dialect::write_messages;
use crate::json::write_obj;
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
    write_obj(&mut out, |o| {
        o.str("model", &cfg.model);
        o.arr("messages", |a| write_messages(a, req.messages, Some(&cfg.model)));
        // `tools` and `tool_choice` are omitted when no tool is declared.
        if !req.tools.is_empty() {
            o.arr("tools", |a| {
                for t in req.tools {
                    a.obj(|d| {
                        d.str("type", "function").obj("function", |f| write_tool_decl(f, t, "parameters", &t.input_schema));
                    });
                }
            });
        }
        match req.tool_choice {
            ToolChoice::Auto if !req.tools.is_empty() => {
                o.str("tool_choice", "auto");
            }
            ToolChoice::Given(c) => {
                o.value("tool_choice", c);
            }
            _ => {}
        }
        o.u64_opt("max_tokens", req.max_tokens);
        if req.stream {
            // The last chunk then carries the usage.
            o.bool("stream", true).obj("stream_options", |s| {
                s.bool("include_usage", true);
            });
        }
    });
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
