//! The whole Anthropic reply: `content` blocks, `stop_reason` and `usage`.

use crate::error::{Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use crate::provider::call::ModelReply;
use crate::provider::common::u64_at;
use serde_json::{json, Value};

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let blocks = v.get("content").and_then(Value::as_array).ok_or_else(|| Error::parse("Anthropic reply has no content array"))?;
    let mut turn = AssistantTurn::default();
    for (i, b) in blocks.iter().enumerate() {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => turn.text.push_str(b.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => {
                let name = b
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::parse(format!("Anthropic content[{i}] tool_use has no name")))?;
                let input = b.get("input").cloned().unwrap_or_else(|| json!({}));
                turn.calls.push(ToolCall {
                    id: b.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                    name: name.to_string(),
                    arguments: crate::json::to_text(&input),
                    signature: None,
                });
            }
            _ => {}
        }
    }
    let usage = v
        .get("usage")
        .map(|u| {
            let (p, c) = (u64_at(u, "input_tokens"), u64_at(u, "output_tokens"));
            Usage { prompt_tokens: p, completion_tokens: c, total_tokens: p.saturating_add(c) }
        })
        .unwrap_or_default();
    let stop_reason = v.get("stop_reason").and_then(Value::as_str).map(str::to_string);
    Ok(ModelReply { turn, stop_reason, usage, ..ModelReply::default() })
}
