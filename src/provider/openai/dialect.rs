//! The OpenAI dialect of the transcript: `system` / `user` / `assistant` (with `tool_calls`) /
//! `tool` messages, written as a borrowed view and read back. The `tool_calls` reader here is
//! the only one: replies and histories both use it.

use crate::message::{push_result, AssistantTurn, Message, ToolCall};
use crate::json::write_str;
use crate::provider::common::{flatten, str_field};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// The transcript as OpenAI messages, serialised straight from the neutral messages.
pub(crate) struct Messages<'a>(pub &'a [Message]);

impl Serialize for Messages<'_> {
    /// Element by element: a message is one view, a tool message one view per result, and no
    /// list of views is built per message (this runs over the whole transcript every call).
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(None)?;
        for m in self.0 {
            match m {
                Message::Tool(outs) => {
                    for o in outs {
                        seq.serialize_element(&View::Tool { role: "tool", tool_call_id: &o.call_id, content: &o.output })?;
                    }
                }
                Message::System(t) => seq.serialize_element(&View::Text { role: "system", content: t })?,
                Message::User(t) => seq.serialize_element(&View::Text { role: "user", content: t })?,
                Message::Assistant(turn) => seq.serialize_element(&assistant(turn))?,
            }
        }
        seq.end()
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
    Assistant {
        role: &'static str,
        content: &'a str,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<Call<'a>>,
    },
    Tool { role: &'static str, tool_call_id: &'a str, content: &'a str },
}

#[derive(Serialize)]
struct Call<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: Function<'a>,
}

#[derive(Serialize)]
struct Function<'a> {
    name: &'a str,
    arguments: &'a str,
}

/// The transcript as the request's `messages` array, written by hand (byte for byte what the
/// serde view above gives; see `json::write_str`).
pub(super) fn write_messages(out: &mut String, messages: &[Message]) {
    let mut first = true;
    let mut open = |out: &mut String, role: &str| {
        out.push_str(if std::mem::take(&mut first) { "[{\"role\":\"" } else { ",{\"role\":\"" });
        out.push_str(role);
        out.push('"');
    };
    for m in messages {
        match m {
            Message::System(t) | Message::User(t) => {
                open(out, if matches!(m, Message::System(_)) { "system" } else { "user" });
                out.push_str(",\"content\":");
                write_str(out, t);
                out.push('}');
            }
            Message::Assistant(turn) => {
                open(out, "assistant");
                out.push_str(",\"content\":");
                write_str(out, &turn.text);
                if !turn.calls.is_empty() {
                    out.push_str(",\"tool_calls\":[");
                    for (i, c) in turn.calls.iter().enumerate() {
                        out.push_str(if i > 0 { ",{\"id\":" } else { "{\"id\":" });
                        write_str(out, &c.id);
                        out.push_str(",\"type\":\"function\",\"function\":{\"name\":");
                        write_str(out, &c.name);
                        out.push_str(",\"arguments\":");
                        write_str(out, &c.arguments);
                        out.push_str("}}");
                    }
                    out.push(']');
                }
                out.push('}');
            }
            Message::Tool(outs) => {
                for o in outs {
                    open(out, "tool");
                    out.push_str(",\"tool_call_id\":");
                    write_str(out, &o.call_id);
                    out.push_str(",\"content\":");
                    write_str(out, &o.output);
                    out.push('}');
                }
            }
        }
    }
    if first {
        out.push('[');
    }
    out.push(']');
}

/// The view of an assistant turn.
fn assistant(turn: &AssistantTurn) -> View<'_> {
    View::Assistant {
        role: "assistant",
        content: &turn.text,
        tool_calls: turn
            .calls
            .iter()
            .map(|c| Call { id: &c.id, kind: "function", function: Function { name: &c.name, arguments: &c.arguments } })
            .collect(),
    }
}

/// Reads `tool_calls` entries into `calls`. On a malformed entry, `Err((k, missing))` names the
/// entry and what it lacks (`"function"`, or `"function name"` when `name_required`); the caller
/// words the error, as a reply and a history fail with different codes. Arguments stay the raw
/// string the provider sent; a history entry without a name reads as `""`.
pub(crate) fn read_tool_calls(
    list: &[Value],
    name_required: bool,
    calls: &mut Vec<ToolCall>,
) -> Result<(), (usize, &'static str)> {
    for (k, c) in list.iter().enumerate() {
        let f = c.get("function").ok_or((k, "function"))?;
        let name = match f.get("name").and_then(Value::as_str) {
            Some(n) => n.to_string(),
            None if name_required => return Err((k, "function name")),
            None => String::new(),
        };
        let arguments = match f.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        calls.push(ToolCall { id: str_field(c, "id"), name, arguments });
    }
    Ok(())
}

/// A `tool` (or legacy `function`) message: one result, paired with its call by
/// `tool_call_id`. OpenAI has no error flag on results.
pub(crate) fn read_tool_message(obj: &Map<String, Value>, out: &mut Vec<Message>) {
    let id = obj.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
    push_result(out, id.to_string(), flatten(obj.get("content").unwrap_or(&Value::Null)), false);
}
