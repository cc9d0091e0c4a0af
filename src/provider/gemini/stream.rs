//! Gemini SSE events. Each event is a whole partial response: its text parts are new text, its
//! functionCall parts whole calls, its usageMetadata the running total. There is no end marker.

use super::reply::{candidate, usage_of};
use crate::error::Result;
use crate::message::{AssistantTurn, Usage};
use crate::provider::adapter::{Assembly, Delta, Part};

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    let v = asm.json(data)?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Err(asm.provider_error(err));
    }
    let mut part = AssistantTurn::default();
    let reason = candidate(&v, &mut part)?;
    if !part.text.is_empty() {
        asm.push_text(&part.text, deltas);
    }
    for c in part.calls {
        let index = asm.parts.len() as u64;
        asm.parts.push(Part { index, is_tool: true, id: c.id, name: c.name, arguments: c.arguments, text: String::new(), signature: c.signature });
    }
    let usage = usage_of(&v);
    if usage != Usage::default() {
        asm.usage = usage;
    }
    if reason.is_some() {
        asm.stop_reason = reason;
    }
    Ok(())
}
