//! Anthropic SSE events: `message_start`, `content_block_start` / `_delta`, `message_delta`
//! (stop reason, cumulative usage), `message_stop`, and in-stream `error`s.

use crate::error::{Error, Result};
use crate::provider::adapter::{Assembly, Delta, Part};
use serde_json::Value;

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    let v = asm.json(data)?;
    match v.get("type").and_then(Value::as_str).unwrap_or("") {
        "message_start" => {
            if let Some(u) = v.get("message").and_then(|m| m.get("usage")) {
                usage(asm, u);
            }
        }
        "content_block_start" => {
            let b = v.get("content_block").cloned().unwrap_or(Value::Null);
            let index = v.get("index").and_then(Value::as_u64).unwrap_or(asm.parts.len() as u64);
            let is_tool = b.get("type").and_then(Value::as_str) == Some("tool_use");
            let mut part = Part { index, is_tool, ..Part::default() };
            part.id = b.get("id").and_then(Value::as_str).unwrap_or("").to_string();
            part.name = b.get("name").and_then(Value::as_str).unwrap_or("").to_string();
            asm.parts.push(part);
        }
        "content_block_delta" => {
            let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
            let d = v.get("delta").cloned().unwrap_or(Value::Null);
            let Some(part) = asm.parts.iter_mut().find(|p| p.index == index) else {
                return Err(Error::parse(format!("Anthropic stream: delta for unknown content block {index}")));
            };
            match d.get("type").and_then(Value::as_str) {
                Some("text_delta") => {
                    let t = d.get("text").and_then(Value::as_str).unwrap_or("");
                    if !t.is_empty() {
                        part.text.push_str(t);
                        asm.text.push_str(t); // `part` holds `asm.parts`, so not `push_text`
                        deltas.push(Delta::Text(t.to_string()));
                    }
                }
                Some("input_json_delta") => part.arguments.push_str(d.get("partial_json").and_then(Value::as_str).unwrap_or("")),
                _ => {} // thinking and signature deltas are not modelled
            }
        }
        "message_delta" => {
            if let Some(r) = v.get("delta").and_then(|d| d.get("stop_reason")).and_then(Value::as_str) {
                asm.stop_reason = Some(r.to_string());
            }
            if let Some(u) = v.get("usage") {
                usage(asm, u);
            }
        }
        "message_stop" => asm.finished = true,
        "error" => return Err(asm.provider_error(v.get("error").unwrap_or(&v))),
        _ => {} // ping, content_block_stop
    }
    Ok(())
}

/// `message_delta` usage is cumulative: counts replace, not add.
fn usage(asm: &mut Assembly, u: &Value) {
    if let Some(p) = u.get("input_tokens").and_then(Value::as_u64) {
        asm.usage.prompt_tokens = p;
    }
    if let Some(c) = u.get("output_tokens").and_then(Value::as_u64) {
        asm.usage.completion_tokens = c;
    }
    asm.usage.total_tokens = asm.usage.prompt_tokens.saturating_add(asm.usage.completion_tokens);
}

/// The input arrives as JSON fragments; normalise it as the whole reply serialises `input`,
/// keeping the raw text if it is not valid JSON.
pub(super) fn arguments(raw: String) -> String {
    match crate::json::parse(if raw.trim().is_empty() { "{}" } else { &raw }) {
        Ok(v) => crate::json::to_text(&v),
        Err(_) => raw,
    }
}
