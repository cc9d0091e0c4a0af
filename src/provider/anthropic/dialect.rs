//! The Anthropic dialect of the transcript: `user` / `assistant` messages whose content is a
//! string or `text` / `tool_use` / `tool_result` blocks, written as a borrowed view and read
//! back. System messages are not Anthropic messages: they go to the body's `system` field.

use crate::message::{push_result, AssistantTurn, Message, ToolCall};
use crate::provider::common::{flatten, str_field};
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

/// The transcript as Anthropic messages, serialised straight from the neutral messages.
pub(crate) struct Messages<'a>(pub &'a [Message]);

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter_map(view))
    }
}

pub(super) fn render(messages: &[Message]) -> Vec<Value> {
    match serde_json::to_value(Messages(messages)) {
        Ok(Value::Array(a)) => a,
        _ => Vec::new(), // unreachable: the view serialises to an array of plain data
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum View<'a> {
    Text { role: &'static str, content: &'a str },
    Blocks { role: &'static str, content: Vec<Block<'a>> },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text { text: &'a str },
    ToolUse { id: &'a str, name: &'a str, input: Map<String, Value> },
    ToolResult { tool_use_id: &'a str, content: &'a str, is_error: bool },
}

fn view(m: &Message) -> Option<View<'_>> {
    match m {
        Message::System(_) => None,
        Message::User(t) => Some(View::Text { role: "user", content: t }),
        Message::Assistant(turn) => {
            let mut blocks = Vec::with_capacity(turn.calls.len() + 1);
            if !turn.text.is_empty() {
                blocks.push(Block::Text { text: &turn.text });
            }
            for c in &turn.calls {
                blocks.push(Block::ToolUse { id: &c.id, name: &c.name, input: c.input_or_empty() });
            }
            Some(View::Blocks { role: "assistant", content: blocks })
        }
        Message::Tool(outs) => Some(View::Blocks {
            role: "user",
            content: outs
                .iter()
                .map(|o| Block::ToolResult { tool_use_id: &o.call_id, content: &o.output, is_error: o.is_error })
                .collect(),
        }),
    }
}

/// An assistant message's content blocks: `text` and `tool_use` (its `input` serialised as the
/// call's arguments); other blocks (thinking, images) are not modelled and are dropped.
pub(crate) fn read_assistant_blocks(blocks: &[Value], turn: &mut AssistantTurn) {
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => turn.text.push_str(b.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => turn.calls.push(ToolCall {
                id: str_field(b, "id"),
                name: str_field(b, "name"),
                arguments: serde_json::to_string(b.get("input").unwrap_or(&json!({}))).unwrap_or_else(|_| "{}".into()),
            }),
            _ => {}
        }
    }
}

/// A user message's content blocks: each `tool_result` is a result (merged with the results
/// just before it), and the text of the other blocks, if any, one user message after them.
pub(crate) fn read_user_blocks(blocks: &[Value], out: &mut Vec<Message>) {
    let mut text = String::new();
    for b in blocks {
        if b.get("type").and_then(Value::as_str) == Some("tool_result") {
            let id = str_field(b, "tool_use_id");
            let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
            push_result(out, id, flatten(b.get("content").unwrap_or(&Value::Null)), is_error);
        } else if let Some(t) = b.get("text").and_then(Value::as_str) {
            text.push_str(t);
        }
    }
    if !text.is_empty() {
        out.push(Message::User(text));
    }
}
