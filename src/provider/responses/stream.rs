//! Responses SSE events, each a JSON object naming its own `type`: items open
//! (`response.output_item.added`) and close (`.done`, where a reasoning or server-run tool item
//! is whole), text, refusal, argument and reasoning-summary deltas arrive between, and the
//! response ends with `response.completed` or `response.incomplete`, or fails with
//! `response.failed` / `error`. Parts are keyed by `output_index`.

use super::reply::{custom_call, function_call, shown, stop_reason, unanswerable, unanswerable_error, usage_of, withheld, SUMMARY_BREAK};
use crate::error::{Code, Error, Result};
use crate::json::str_at;
use crate::message::{AssistantTurn, ToolCall};
use crate::prelude::*;
use crate::provider::adapter::{Assembly, Delta, Part};
use serde_json::Value;

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    let v = asm.json(data)?;
    let index = v.get("output_index").and_then(Value::as_u64).unwrap_or(0);
    let text = |key: &str| str_at(&v, key).unwrap_or("");
    match str_at(&v, "type").unwrap_or("") {
        "response.output_item.added" => {
            let item = v.get("item").unwrap_or(&Value::Null);
            if unanswerable(item) {
                return Err(unanswerable_error(str_at(item, "type").unwrap_or_default()));
            }
            if is_call(item) {
                part(asm, index).is_tool = true;
                set_call(asm, index, item, false);
            }
        }
        "response.output_item.done" => {
            let item = v.get("item").unwrap_or(&Value::Null);
            match str_at(item, "type") {
                // Text and refusals came as deltas.
                Some("message") => {}
                Some("function_call" | "custom_tool_call") => {
                    part(asm, index).is_tool = true;
                    set_call(asm, index, item, true);
                    if str_at(item, "type") == Some("custom_tool_call") {
                        // Kept to go back as it came (`reply::custom_call`), before its call.
                        let at = asm.parts.iter().filter(|p| p.is_tool && p.index < index).count();
                        asm.reasoning.items.push((at, item.clone()));
                    }
                }
                Some(kind) if unanswerable(item) => return Err(unanswerable_error(kind)),
                _ => {
                    // Placed after the calls opened before it, as the whole reply places it.
                    let at = asm.parts.iter().filter(|p| p.is_tool && p.index < index).count();
                    asm.reasoning.items.push((at, item.clone()));
                }
            }
        }
        "response.output_text.delta" => push_text(asm, text("delta"), false, deltas),
        "response.refusal.delta" => push_text(asm, text("delta"), true, deltas),
        "response.function_call_arguments.delta" => part(asm, index).arguments.push_str(text("delta")),
        "response.function_call_arguments.done" => {
            if let Some(a) = str_at(&v, "arguments") {
                part(asm, index).arguments = a.to_string();
            }
        }
        "response.reasoning_summary_part.added" if !asm.reasoning_text.is_empty() => asm.push_reasoning(SUMMARY_BREAK, deltas),
        "response.reasoning_summary_text.delta" => asm.push_reasoning(text("delta"), deltas),
        "response.completed" | "response.incomplete" => {
            let response = v.get("response").unwrap_or(&Value::Null);
            asm.report_usage(usage_of(response.get("usage")));
            asm.stop_reason =
                stop_reason(response).or_else(|| Some(text("type").strip_prefix("response.").unwrap_or(text("type")).to_string()));
            asm.finished = true;
            let so_far = AssistantTurn { text: asm.text.clone(), calls: Vec::new(), reasoning: None };
            if asm.calls_so_far() == 0 {
                withheld(asm.stop_reason.as_deref(), &so_far)?;
                let kept = AssistantTurn { reasoning: Some(core::mem::take(&mut asm.reasoning)), ..so_far };
                let judged = shown(&kept);
                asm.reasoning = kept.reasoning.unwrap_or_default();
                judged?;
            }
        }
        "response.failed" => {
            let response = v.get("response").unwrap_or(&Value::Null);
            return Err(match response.get("error").filter(|e| !e.is_null()) {
                Some(err) => asm.provider_error(err),
                None => Error::new(Code::ProviderError, "provider stream error: the response failed"),
            });
        }
        "error" => return Err(asm.provider_error(v.get("error").filter(|e| e.is_object()).unwrap_or(&v))),
        _ => {} // created, in_progress, content_part, *.done of text, annotations, server tool progress
    }
    Ok(())
}

fn is_call(item: &Value) -> bool {
    matches!(str_at(item, "type"), Some("function_call" | "custom_tool_call"))
}

/// The part for output item `index`, opened if new.
fn part(asm: &mut Assembly, index: u64) -> &mut Part {
    let pos = match asm.parts.iter().position(|p| p.index == index) {
        Some(p) => p,
        None => {
            asm.parts.push(Part { index, ..Part::default() });
            asm.parts.len() - 1
        }
    };
    &mut asm.parts[pos]
}

/// A call's id, name and, when the item carries them, its arguments (a `.done` item is whole;
/// a custom call's `input` comes whole there, its deltas are not needed).
fn set_call(asm: &mut Assembly, index: u64, item: &Value, whole: bool) {
    let call = match str_at(item, "type") {
        Some("custom_tool_call") if whole => custom_call(item),
        Some("custom_tool_call") => custom_call(item).map(|c| ToolCall { arguments: String::new(), ..c }),
        _ => function_call(item),
    };
    let Ok(call) = call else { return };
    let p = part(asm, index);
    if !call.id.is_empty() {
        p.id = call.id;
    }
    p.name = call.name;
    if !call.arguments.is_empty() {
        p.arguments = call.arguments;
    }
}

fn push_text(asm: &mut Assembly, t: &str, refusal: bool, deltas: &mut Vec<Delta>) {
    if !t.is_empty() {
        asm.refusal |= refusal;
        asm.push_text(t, deltas);
    }
}
