//! The whole Anthropic reply: `content` blocks, `stop_reason` and `usage`.
//!
//! `text` blocks make the answer and `tool_use` blocks the calls; every other block (`thinking`,
//! `redacted_thinking`, server tool blocks such as `server_tool_use` / `web_search_tool_result`)
//! is reasoning state kept verbatim, at its place among the calls, because the API wants it back
//! unchanged in the next request (a thinking block's `signature` is checked).

use crate::error::{Code, Error, Result};
use crate::json::str_at;
use crate::message::{AssistantTurn, Reasoning, ToolCall, Usage};
use crate::prelude::*;
use crate::provider::call::ModelReply;
use serde_json::{json, Value};

/// Between the readable texts of two `thinking` blocks: each block is a paragraph of its own
/// (interleaved thinking between tool calls would otherwise run sentences together).
pub(super) const THINKING_SEPARATOR: &str = "\n\n";

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let blocks = v.get("content").and_then(Value::as_array).ok_or_else(|| Error::parse("Anthropic reply has no content array"))?;
    let mut turn = AssistantTurn::default();
    let mut reasoning = Reasoning::new("anthropic");
    let mut reasoning_text = String::new();
    for (i, b) in blocks.iter().enumerate() {
        match str_at(b, "type") {
            Some("text") => turn.text.push_str(str_at(b, "text").unwrap_or("")),
            Some("tool_use") => {
                let name = b
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::parse(format!("Anthropic content[{i}] tool_use has no name")))?;
                let input = b.get("input").cloned().unwrap_or_else(|| json!({}));
                turn.calls.push(ToolCall {
                    id: str_at(b, "id").unwrap_or_default().to_string(),
                    name: name.to_string(),
                    arguments: crate::json::to_text(&input),
                    signature: None,
                });
            }
            Some(kind) => {
                if kind == "thinking" {
                    add_thinking(&mut reasoning_text, str_at(b, "thinking").unwrap_or(""));
                }
                reasoning.items.push((turn.calls.len(), b.clone()));
            }
            None => {} // not a block the API could take back either
        }
    }
    turn.reasoning = Some(reasoning); // `provider::finished` drops it when it holds nothing
    let mut usage = Usage::default();
    if let Some(u) = v.get("usage") {
        read_usage(u, &mut usage);
    }
    let stop_reason = str_at(v, "stop_reason").map(str::to_string);
    let refusal = stop_reason.as_deref() == Some("refusal");
    if refusal && turn.text.is_empty() && turn.calls.is_empty() {
        return Err(withheld(v.get("stop_details")));
    }
    shown(&turn.text, turn.calls.len(), turn.reasoning.as_ref().map_or(&[][..], |r| r.items.as_slice()), stop_reason.as_deref())?;
    Ok(ModelReply { turn, stop_reason, usage, reasoning_text, refusal, ..ModelReply::default() })
}

/// Blocks other than text, calls and thinking (server tool blocks such as `server_tool_use` /
/// `web_search_tool_result`, or a type not known here) are kept for the state but shown
/// nowhere: a reply of only such blocks, with no text and no call (a `pause_turn` in a server
/// tool's work, a new block type), would end the run as an empty success. It is an error naming
/// the block types and the stop reason.
pub(super) fn shown(text: &str, calls: usize, items: &[(usize, Value)], stop_reason: Option<&str>) -> Result<()> {
    if !text.is_empty() || calls > 0 {
        return Ok(());
    }
    let mut kinds: Vec<&str> = Vec::new();
    for (_, b) in items {
        let kind = str_at(b, "type").unwrap_or("(no type)");
        if !matches!(kind, "thinking" | "redacted_thinking") && !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.is_empty() {
        return Ok(());
    }
    let mut msg = String::from("the Anthropic reply has no text and no tool_use, only ");
    msg.push_str(&crate::small::join(&kinds, ", "));
    msg.push_str(" blocks, which this package keeps but cannot show or continue (stop_reason ");
    msg.push_str(stop_reason.unwrap_or("none"));
    msg.push_str("): an empty answer is not a success");
    Err(Error::parse(msg))
}

/// Appends one thinking block's readable text, a paragraph apart from the one before.
pub(super) fn add_thinking(out: &mut String, text: &str) {
    if !text.is_empty() {
        if !out.is_empty() {
            out.push_str(THINKING_SEPARATOR);
        }
        out.push_str(text);
    }
}

/// A refusal with no answer (no text, no call): there is no turn worth storing (an assistant
/// message that is empty, or thinking only, is a 400 on the next request), so it is an error
/// naming the reason and, when given, why.
pub(super) fn withheld(details: Option<&Value>) -> Error {
    let mut msg = String::from("Anthropic withheld the answer: stop_reason refusal");
    if let Some(why) = details.and_then(|d| d.get("explanation")).and_then(Value::as_str).filter(|s| !s.is_empty()) {
        msg.push_str(" (");
        msg.push_str(why);
        msg.push(')');
    }
    Error::new(Code::ProviderError, msg)
}

/// The counts a `usage` object states, over what `usage` had (a stream's `message_delta` restates
/// them cumulatively). `input_tokens` excludes what the cache read and wrote: `prompt_tokens` is
/// their sum, the whole prompt, as the other providers count it.
pub(super) fn read_usage(u: &Value, usage: &mut Usage) {
    let field = |k| u.get(k).and_then(Value::as_u64);
    if let Some(n) = field("cache_read_input_tokens") {
        usage.cache_read_tokens = n;
    }
    if let Some(n) = field("cache_creation_input_tokens") {
        usage.cache_write_tokens = n;
    }
    if let Some(p) = field("input_tokens") {
        usage.prompt_tokens = p.saturating_add(usage.cache_read_tokens).saturating_add(usage.cache_write_tokens);
    }
    if let Some(c) = field("output_tokens") {
        usage.completion_tokens = c;
    }
    usage.total_tokens = usage.prompt_tokens.saturating_add(usage.completion_tokens);
}
