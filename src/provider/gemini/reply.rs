//! The whole Gemini reply, and one candidate of a (partial) response, which the stream reads
//! event by event: text parts (thought parts skipped), `functionCall` parts, the finish reason,
//! `usageMetadata`, and the two ways an answer is withheld.

use super::finish::withheld;
use crate::error::{Code, Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use crate::provider::call::ModelReply;
use crate::provider::common::u64_at;
use serde_json::Value;

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    if v.get("candidates").is_none() && v.get("promptFeedback").is_none() {
        return Err(Error::parse("Gemini reply has no candidates"));
    }
    let mut turn = AssistantTurn::default();
    let reason = candidate(v, &mut turn)?;
    if reason.is_none() && turn.text.is_empty() && turn.calls.is_empty() {
        return Err(Error::parse("Gemini reply has an empty candidate list"));
    }
    Ok(ModelReply { turn, stop_reason: reason, usage: usage_of(v), ..ModelReply::default() })
}

pub(super) fn usage_of(v: &Value) -> Usage {
    let Some(u) = v.get("usageMetadata").filter(|u| u.is_object()) else { return Usage::default() };
    let (p, c) = (u64_at(u, "promptTokenCount"), u64_at(u, "candidatesTokenCount"));
    let total = u.get("totalTokenCount").and_then(Value::as_u64).unwrap_or(p.saturating_add(c));
    Usage { prompt_tokens: p, completion_tokens: c, total_tokens: total }
}

/// Text and calls of one (partial) response's first candidate; the finish reason if present.
pub(super) fn candidate(v: &Value, turn: &mut AssistantTurn) -> Result<Option<String>> {
    let Some(c) = v.get("candidates").and_then(Value::as_array).and_then(|c| c.first()) else {
        if let Some(reason) = v.get("promptFeedback").and_then(|f| f.get("blockReason")).and_then(Value::as_str) {
            return Err(Error::new(Code::ProviderError, format!("Gemini blocked the prompt: {reason}")));
        }
        return Ok(None);
    };
    for p in c.get("content").and_then(|c| c.get("parts")).and_then(Value::as_array).into_iter().flatten() {
        if p.get("thought").and_then(Value::as_bool) == Some(true) {
            continue; // thinking summaries are not part of the answer
        }
        if let Some(t) = p.get("text").and_then(Value::as_str) {
            turn.text.push_str(t);
        } else if let Some(f) = p.get("functionCall") {
            let name = f.get("name").and_then(Value::as_str).ok_or_else(|| Error::parse("Gemini functionCall has no name"))?;
            turn.calls.push(ToolCall {
                id: f.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                name: name.to_string(),
                arguments: f.get("args").map_or_else(|| "{}".into(), crate::json::to_text),
                signature: None,
            });
        }
    }
    let reason = c.get("finishReason").and_then(Value::as_str).map(str::to_string);
    if let Some(r) = reason.as_deref().filter(|r| withheld(r)) {
        if turn.text.is_empty() && turn.calls.is_empty() {
            return Err(Error::new(Code::ProviderError, format!("Gemini withheld the answer: finishReason {r}")));
        }
    }
    Ok(reason)
}
