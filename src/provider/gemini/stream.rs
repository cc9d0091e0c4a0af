//! Gemini SSE events. Each event is a whole partial response: its text parts are new text, its
//! thought parts new readable reasoning (and pieces of the turn's thought items), its
//! functionCall parts whole calls, its usageMetadata the running total. There is no end marker.
//! Everything goes through the same `candidate` reader as the whole reply, so a streamed reply
//! assembles to exactly the whole one: signatures land on the same calls and the same text part
//! (a signature often comes last, on an empty text part), thought pieces join into one item.

use super::finish::empty_is_answer;
use super::reply::{candidate, no_answer, push_thought, shown, usage_of};
use crate::error::Result;
use crate::message::AssistantTurn;
use crate::prelude::*;
use crate::provider::adapter::{Assembly, Delta, Part};

pub(super) fn on_event(data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
    let v = asm.json(data)?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Err(asm.provider_error(err));
    }
    let mut part = AssistantTurn::default();
    let mut thoughts = String::new();
    let reason = candidate(&v, &mut part, &mut thoughts)?;
    asm.push_reasoning(&thoughts, deltas);
    if !part.text.is_empty() {
        asm.push_text(&part.text, deltas);
    }
    // The event's items count its own calls; the calls of earlier events come before them.
    let before = asm.calls_so_far();
    if let Some(r) = part.reasoning {
        for (at, item) in r.items {
            push_thought(&mut asm.reasoning.items, before + at, item);
        }
        if r.text_signature.is_some() {
            asm.reasoning.text_signature = r.text_signature;
        }
    }
    for c in part.calls {
        let index = asm.parts.len() as u64;
        asm.parts.push(Part {
            index,
            is_tool: true,
            id: c.id,
            name: c.name,
            arguments: c.arguments,
            text: String::new(),
            signature: c.signature,
        });
    }
    // `usageMetadata` is the running total of each event (`Assembly::report_usage`).
    asm.report_usage(usage_of(&v));
    if let Some(r) = reason {
        // The last event ends the reply: judged on the whole of it, as the whole reply is.
        if asm.text.is_empty() && asm.calls_so_far() == 0 {
            if !empty_is_answer(&r) {
                return Err(no_answer(&v, &r));
            }
            shown(&asm.reasoning.items)?;
        }
        asm.stop_reason = Some(r);
    }
    Ok(())
}
