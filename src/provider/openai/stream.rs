//! OpenAI SSE chunks: `choices[0].delta` text and `tool_calls` fragments keyed by `index`,
//! `finish_reason`, a final chunk with `usage`, then `[DONE]`.

use crate::error::Result;
use crate::json::str_at;
use crate::prelude::*;
use crate::provider::adapter::{Assembly, Delta, Part};
use serde_json::Value;

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    if data == "[DONE]" {
        asm.finished = true;
        return Ok(());
    }
    let v = asm.json(data)?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Err(asm.provider_error(err));
    }
    // Every report is a running total (see `Assembly::report_usage`): Groq sends its total in
    // `usage` and `x_groq.usage` of the finish chunk, then again in the usage-only chunk.
    for u in [v.get("usage"), v.get("x_groq").and_then(|x| x.get("usage"))] {
        if u.is_some_and(Value::is_object) {
            asm.report_usage(super::reply::usage_of(u));
        }
    }
    let Some(choice) = v.get("choices").and_then(Value::as_array).and_then(|c| c.first()) else {
        return Ok(());
    };
    if let Some(r) = str_at(choice, "finish_reason") {
        asm.stop_reason = Some(r.to_string());
    }
    let Some(delta) = choice.get("delta") else { return Ok(()) };
    if let Some(t) = str_at(delta, "content").filter(|t| !t.is_empty()) {
        asm.push_text(t, deltas);
    }
    // A refusal streams in its own field; it is the text, and the reply is marked refused.
    if let Some(t) = str_at(delta, "refusal").filter(|t| !t.is_empty()) {
        asm.refusal = true;
        asm.push_text(t, deltas);
    }
    for c in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let index = c.get("index").and_then(Value::as_u64).unwrap_or(0);
        if let Some(e) = super::dialect::foreign_call(index as usize, c) {
            return Err(e);
        }
        let pos = match asm.parts.iter().position(|p| p.index == index) {
            Some(p) => p,
            None => {
                asm.parts.push(Part { index, is_tool: true, ..Part::default() });
                asm.parts.len() - 1
            }
        };
        let part = &mut asm.parts[pos];
        if let Some(id) = str_at(c, "id").filter(|s| !s.is_empty()) {
            part.id = id.to_string();
        }
        if let Some(s) = crate::provider::common::google_signature(c) {
            part.signature = Some(s.to_string());
        }
        if let Some(f) = c.get("function") {
            part.name.push_str(str_at(f, "name").unwrap_or(""));
            part.arguments.push_str(str_at(f, "arguments").unwrap_or(""));
        }
    }
    Ok(())
}
