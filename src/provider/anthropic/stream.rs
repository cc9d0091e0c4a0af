//! Anthropic SSE events: `message_start`, `content_block_start` / `_delta` / `_stop`,
//! `message_delta` (stop reason, cumulative usage), `message_stop`, and in-stream `error`s.
//!
//! Blocks other than `text` and `tool_use` (thinking, redacted thinking, server tool blocks) are
//! assembled into the same verbatim items the whole reply gives: the start event's block, its
//! `thinking_delta`s and `signature_delta`s appended to its `thinking` and `signature`, and its
//! `input_json_delta`s parsed into `input` when the block stops. A redacted block arrives whole
//! in its start event.

use super::reply::{shown, withheld, THINKING_SEPARATOR};
use crate::error::{Error, Result};
use crate::json::str_at;
use crate::prelude::*;
use crate::provider::adapter::{Assembly, Delta, Part};
use serde_json::Value;

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    let v = asm.json(data)?;
    match str_at(&v, "type").unwrap_or("") {
        "message_start" => {
            if let Some(u) = v.get("message").and_then(|m| m.get("usage")) {
                usage(asm, u);
            }
        }
        "content_block_start" => start(asm, &v, deltas),
        "content_block_delta" => {
            let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
            let d = v.get("delta").unwrap_or(&Value::Null);
            let Some(pos) = asm.parts.iter().position(|p| p.index == index) else {
                return Err(Error::parse(format!("Anthropic stream: delta for unknown content block {index}")));
            };
            let slot = slot(&asm.parts, pos);
            let text = |key| str_at(d, key).unwrap_or("");
            match (str_at(d, "type"), slot) {
                (Some("text_delta"), None) => {
                    let t = text("text");
                    if !t.is_empty() {
                        if let Some(p) = asm.parts.get_mut(pos) {
                            p.text.push_str(t);
                        }
                        asm.push_text(t, deltas);
                    }
                }
                (Some("input_json_delta"), _) => {
                    if let Some(p) = asm.parts.get_mut(pos) {
                        p.arguments.push_str(text("partial_json"));
                    }
                }
                (Some("thinking_delta"), Some(k)) => {
                    let t = text("thinking");
                    if let Some(fresh) = thinking_block(asm, k).and_then(|item| append(item, "thinking", t)) {
                        readable(asm, fresh, t, deltas);
                    }
                }
                (Some("signature_delta"), Some(k)) => {
                    if let Some(item) = thinking_block(asm, k) {
                        append(item, "signature", text("signature"));
                    }
                }
                _ => {} // citations, and deltas that do not fit their block
            }
        }
        "content_block_stop" => {
            let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
            if let Some(pos) = asm.parts.iter().position(|p| p.index == index) {
                settle(asm, pos)?;
            }
        }
        "message_delta" => {
            let d = v.get("delta").unwrap_or(&Value::Null);
            if let Some(r) = str_at(d, "stop_reason") {
                asm.stop_reason = Some(r.to_string());
                asm.refusal = r == "refusal";
                // Every block has come by now: a refusal with no answer is withheld, as whole.
                if asm.refusal && asm.text.is_empty() && asm.calls_so_far() == 0 {
                    return Err(withheld(d.get("stop_details")));
                }
                shown(&asm.text, asm.calls_so_far(), &asm.reasoning.items, Some(r))?;
            }
            if let Some(u) = v.get("usage") {
                usage(asm, u);
            }
        }
        "message_stop" => {
            // A block whose stop event was lost still gets its input.
            for pos in 0..asm.parts.len() {
                settle(asm, pos)?;
            }
            asm.finished = true;
        }
        "error" => return Err(asm.provider_error(v.get("error").unwrap_or(&v))),
        _ => {} // ping
    }
    Ok(())
}

/// Opens a block: a call, a text block, or (any other type) a verbatim item placed after the
/// calls opened so far. A text block's part has no name, so a part with a name that is not a
/// call is an item's (see [`slot`]).
fn start(asm: &mut Assembly, v: &Value, deltas: &mut Vec<Delta>) {
    let b = v.get("content_block").unwrap_or(&Value::Null);
    let index = v.get("index").and_then(Value::as_u64).unwrap_or(asm.parts.len() as u64);
    let mut part = Part { index, ..Part::default() };
    match str_at(b, "type") {
        Some("tool_use") => {
            part.is_tool = true;
            part.id = str_at(b, "id").unwrap_or("").to_string();
            part.name = str_at(b, "name").unwrap_or("").to_string();
        }
        Some("text") | None => {}
        Some(kind) => {
            part.name = kind.to_string();
            asm.reasoning.items.push((asm.calls_so_far(), b.clone()));
            if kind == "thinking" {
                readable(asm, true, str_at(b, "thinking").unwrap_or(""), deltas);
            }
        }
    }
    asm.parts.push(part);
}

/// Which of `asm.reasoning.items` the part at `pos` fills, if it is an item's: items are pushed
/// only by [`start`], one per named non-call part, in the same order.
fn slot(parts: &[Part], pos: usize) -> Option<usize> {
    let is_item = |p: &Part| !p.is_tool && !p.name.is_empty();
    parts.get(pos).filter(|p| is_item(p)).map(|_| parts.iter().take(pos).filter(|p| is_item(p)).count())
}

/// Item `k` if it is a `thinking` block: the only one thinking and signature deltas may change.
fn thinking_block(asm: &mut Assembly, k: usize) -> Option<&mut Value> {
    asm.reasoning.items.get_mut(k).map(|(_, item)| item).filter(|item| str_at(item, "type") == Some("thinking"))
}

/// Appends to an item's string member (created if missing); whether it was empty before, or
/// `None` when the item is not an object.
fn append(item: &mut Value, key: &str, text: &str) -> Option<bool> {
    let m = item.as_object_mut()?;
    match m.get_mut(key) {
        Some(Value::String(s)) => {
            let fresh = s.is_empty();
            s.push_str(text);
            Some(fresh)
        }
        _ => {
            m.insert(key.to_string(), Value::from(text));
            Some(true)
        }
    }
}

/// Readable thinking as it arrives, split into paragraphs as `reply::add_thinking` joins whole
/// blocks: the separator goes before the first text of a block that is not the first to have any.
fn readable(asm: &mut Assembly, fresh_block: bool, text: &str, deltas: &mut Vec<Delta>) {
    if text.is_empty() {
        return;
    }
    if fresh_block && !asm.reasoning_text.is_empty() {
        asm.push_reasoning(THINKING_SEPARATOR, deltas);
    }
    asm.push_reasoning(text, deltas);
}

/// A server tool block's streamed input, parsed into its `input` as the whole reply has it.
fn settle(asm: &mut Assembly, pos: usize) -> Result<()> {
    let Some(k) = slot(&asm.parts, pos) else { return Ok(()) };
    let Some(part) = asm.parts.get_mut(pos) else { return Ok(()) };
    let (raw, index) = (core::mem::take(&mut part.arguments), part.index);
    if raw.trim().is_empty() {
        return Ok(());
    }
    let input = crate::json::parse(&raw)
        .map_err(|e| Error::parse(format!("Anthropic stream: content block {index} input is not valid JSON ({e})")))?;
    if let Some(m) = asm.reasoning.items.get_mut(k).and_then(|(_, item)| item.as_object_mut()) {
        m.insert("input".to_string(), input);
    }
    Ok(())
}

/// `message_delta` usage is cumulative: the counts it states replace `message_start`'s, never
/// add to them (see `Assembly::report_usage` for the other providers).
fn usage(asm: &mut Assembly, u: &Value) {
    super::reply::read_usage(u, &mut asm.usage);
}

/// The input arrives as JSON fragments; normalise it as the whole reply serialises `input`,
/// keeping the raw text if it is not valid JSON.
pub(super) fn arguments(raw: String) -> String {
    match crate::json::parse(if raw.trim().is_empty() { "{}" } else { &raw }) {
        Ok(v) => crate::json::to_text(&v),
        Err(_) => raw,
    }
}
