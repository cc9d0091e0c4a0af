//! The whole OpenAI reply: `choices[0].message` and `usage`.

use super::dialect::{foreign_call, read_tool_calls};
use crate::error::{Error, Result};
use crate::json::str_at;
use crate::message::{AssistantTurn, Usage};
use crate::prelude::*;
use crate::provider::call::ModelReply;
use crate::provider::common::{flatten, u64_at};
use serde_json::Value;

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let choices = v.get("choices").and_then(Value::as_array).ok_or_else(|| Error::parse("OpenAI reply has no choices array"))?;
    let usage = usage_of(v.get("usage"));
    // Empty choices is a final, empty answer (as the Go reference reads it).
    let Some(first) = choices.first() else {
        return Ok(ModelReply { usage, ..ModelReply::default() });
    };
    let message =
        first.get("message").filter(|m| m.is_object()).ok_or_else(|| Error::parse("OpenAI reply choices[0] has no message object"))?;
    // A refusal comes in its own field, with `content` null: it is the answer's text, marked.
    let refusal = str_at(message, "refusal").filter(|r| !r.is_empty());
    let text = refusal.map_or_else(|| flatten(message.get("content").unwrap_or(&Value::Null)), str::to_string);
    let mut calls = Vec::new();
    if let Some(list) = message.get("tool_calls").and_then(Value::as_array) {
        if let Some(e) = list.iter().enumerate().find_map(|(k, c)| foreign_call(k, c)) {
            return Err(e);
        }
        read_tool_calls(list, true, &mut calls).map_err(|(i, missing)| Error::parse(format!("OpenAI tool_calls[{i}] has no {missing}")))?;
    }
    let stop_reason = str_at(first, "finish_reason").map(str::to_string);
    let refusal = refusal.is_some();
    Ok(ModelReply { turn: AssistantTurn { text, calls, reasoning: None }, stop_reason, usage, refusal, ..ModelReply::default() })
}

/// `usage` of a reply or of the last stream chunk; `total_tokens` when sent, else the sum.
pub(super) fn usage_of(u: Option<&Value>) -> Usage {
    let Some(u) = u.filter(|u| u.is_object()) else { return Usage::default() };
    let prompt = u64_at(u, "prompt_tokens");
    let completion = u64_at(u, "completion_tokens");
    let total = u.get("total_tokens").and_then(Value::as_u64).unwrap_or(prompt.saturating_add(completion));
    let reasoning = u.get("completion_tokens_details").map_or(0, |d| u64_at(d, "reasoning_tokens"));
    let cached = u.get("prompt_tokens_details").map_or(0, |d| u64_at(d, "cached_tokens"));
    Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: total,
        reasoning_tokens: reasoning,
        cache_read_tokens: cached,
        cache_write_tokens: 0,
    }
}
