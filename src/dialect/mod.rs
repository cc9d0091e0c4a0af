//! Renders the neutral transcript as OpenAI or Anthropic messages (contract §a.11) and reads a
//! history in either dialect back. Reading decides the dialect per message from its own shape,
//! not from the client's style, so a history saved by one style loads under the other.

mod gemini;
mod read;
pub use read::{flatten, read, read_json};

use crate::message::Message;
use crate::provider::Style;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// The transcript as the given style presents it in `RunResult.messages`.
pub fn render(messages: &[Message], style: Style) -> Vec<Value> {
    match serde_json::to_value(Transcript { messages, style }) {
        Ok(Value::Array(a)) => a,
        _ => Vec::new(), // unreachable: the view serialises to an array of plain data
    }
}

/// A borrowed, serialisable view of the transcript in one dialect. Request bodies are written
/// straight from it: no intermediate JSON values, so a long history costs one pass per call.
pub struct Transcript<'a> {
    pub messages: &'a [Message],
    pub style: Style,
}

impl Serialize for Transcript<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.style {
            Style::OpenAi => s.collect_seq(self.messages.iter().flat_map(openai_views)),
            Style::Anthropic => s.collect_seq(self.messages.iter().filter_map(anthropic_view)),
            Style::Gemini => s.collect_seq(self.messages.iter().filter_map(gemini::view)),
        }
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum OpenAiView<'a> {
    Text { role: &'static str, content: &'a str },
    Assistant {
        role: &'static str,
        content: &'a str,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<OpenAiCall<'a>>,
    },
    Tool { role: &'static str, tool_call_id: &'a str, content: &'a str },
}

#[derive(Serialize)]
struct OpenAiCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: OpenAiFunction<'a>,
}

#[derive(Serialize)]
struct OpenAiFunction<'a> {
    name: &'a str,
    arguments: &'a str,
}

fn openai_views(m: &Message) -> Vec<OpenAiView<'_>> {
    match m {
        Message::System(t) => vec![OpenAiView::Text { role: "system", content: t }],
        Message::User(t) => vec![OpenAiView::Text { role: "user", content: t }],
        Message::Assistant(turn) => vec![OpenAiView::Assistant {
            role: "assistant",
            content: &turn.text,
            tool_calls: turn
                .calls
                .iter()
                .map(|c| OpenAiCall {
                    id: &c.id,
                    kind: "function",
                    function: OpenAiFunction { name: &c.name, arguments: &c.arguments },
                })
                .collect(),
        }],
        Message::Tool(outs) => outs
            .iter()
            .map(|o| OpenAiView::Tool { role: "tool", tool_call_id: &o.call_id, content: &o.output })
            .collect(),
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum AnthropicView<'a> {
    Text { role: &'static str, content: &'a str },
    Blocks { role: &'static str, content: Vec<AnthropicBlock<'a>> },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum AnthropicBlock<'a> {
    Text { text: &'a str },
    ToolUse { id: &'a str, name: &'a str, input: Map<String, Value> },
    ToolResult { tool_use_id: &'a str, content: &'a str, is_error: bool },
}

/// System messages are not Anthropic messages: they go to the body's `system` field.
fn anthropic_view(m: &Message) -> Option<AnthropicView<'_>> {
    match m {
        Message::System(_) => None,
        Message::User(t) => Some(AnthropicView::Text { role: "user", content: t }),
        Message::Assistant(turn) => {
            let mut blocks = Vec::with_capacity(turn.calls.len() + 1);
            if !turn.text.is_empty() {
                blocks.push(AnthropicBlock::Text { text: &turn.text });
            }
            for c in &turn.calls {
                blocks.push(AnthropicBlock::ToolUse { id: &c.id, name: &c.name, input: c.input_or_empty() });
            }
            Some(AnthropicView::Blocks { role: "assistant", content: blocks })
        }
        Message::Tool(outs) => Some(AnthropicView::Blocks {
            role: "user",
            content: outs
                .iter()
                .map(|o| AnthropicBlock::ToolResult { tool_use_id: &o.call_id, content: &o.output, is_error: o.is_error })
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{AssistantTurn, ToolCall, ToolOutput};
    use serde_json::json;

    fn sample() -> Vec<Message> {
        vec![
            Message::System("be brief".into()),
            Message::User("hi".into()),
            Message::Assistant(AssistantTurn {
                text: "checking".into(),
                calls: vec![ToolCall { id: "c1".into(), name: "lookup".into(), arguments: "{\"q\":1}".into() }],
            }),
            Message::Tool(vec![ToolOutput { call_id: "c1".into(), name: "lookup".into(), output: "42".into(), is_error: true }]),
            Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![] }),
        ]
    }

    #[test]
    fn openai_round_trip_keeps_everything_but_the_error_flag() {
        let v = render(&sample(), Style::OpenAi);
        assert_eq!(v[2]["tool_calls"][0]["function"]["arguments"], "{\"q\":1}");
        assert_eq!(v[3], json!({"role":"tool","tool_call_id":"c1","content":"42"}));
        let back = read(&v).unwrap();
        let Message::Tool(outs) = &back[3] else { panic!() };
        assert_eq!(outs[0].name, "lookup");
        assert!(!outs[0].is_error, "the openai tool message has no error flag");
    }

    #[test]
    fn anthropic_round_trip_keeps_the_error_flag_and_drops_system() {
        let v = render(&sample(), Style::Anthropic);
        assert_eq!(v.len(), 4);
        assert_eq!(v[1]["content"][1], json!({"type":"tool_use","id":"c1","name":"lookup","input":{"q":1}}));
        assert_eq!(v[2]["content"][0]["is_error"], true);
        let back = read(&v).unwrap();
        assert_eq!(back, sample()[1..].to_vec());
    }

    #[test]
    fn garbage_history_is_a_bad_state_error() {
        assert_eq!(read(&[json!(3)]).unwrap_err().code(), "bad_state");
        assert_eq!(read(&[json!({"role": "wizard"})]).unwrap_err().code(), "bad_state");
        assert_eq!(
            read(&[json!({"role":"assistant","tool_calls":[{"id":"x"}]})]).unwrap_err().code(),
            "bad_state"
        );
    }
}
