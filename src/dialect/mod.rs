//! The neutral side of the dialects: [`render`] shows the transcript in a client's style, and
//! [`read`] takes a history in any dialect back, deciding the dialect per message from its own
//! shape, not from the client's style, so a history saved by one style loads under another.
//! The views and readers themselves live in each provider's folder (`provider/<p>/dialect.rs`);
//! this module only dispatches to them.

use crate::prelude::*;
mod read;
pub use crate::provider::flatten;
pub use read::{read, read_json};

use crate::message::Message;
use crate::provider::dispatch::adapter;
use crate::style::Style;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The transcript as the given style presents it in `RunResult.messages`.
pub fn render(messages: &[Message], style: Style) -> Vec<Value> {
    adapter(style).render(messages)
}

/// The transcript as [`render`] gives it, written as the elements of a JSON array (a run's result).
pub fn write(a: &mut crate::json::Arr, messages: &[Message], style: Style) {
    adapter(style).write_transcript(a, messages)
}

/// A borrowed view of the transcript in one dialect, serialisable as that dialect's message
/// array. Request bodies do not go through it: each adapter writes its own view straight into
/// the body, with no intermediate JSON values.
pub struct Transcript<'a> {
    pub messages: &'a [Message],
    pub style: Style,
}

impl Serialize for Transcript<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_seq(render(self.messages, self.style))
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
                calls: vec![ToolCall { id: "c1".into(), name: "lookup".into(), arguments: "{\"q\":1}".into(), signature: None }],
                reasoning: None,
            }),
            Message::Tool(vec![ToolOutput {
                call_id: "c1".into(),
                name: "lookup".into(),
                output: "42".into(),
                is_error: true,
                parts: vec![],
            }]),
            Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![], reasoning: None }),
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
        assert_eq!(read(&[json!({"role":"assistant","tool_calls":[{"id":"x"}]})]).unwrap_err().code(), "bad_state");
    }
}
