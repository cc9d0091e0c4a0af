//! The OpenAI dialect of the transcript: `system` / `user` / `assistant` (with `tool_calls`) /
//! `tool` messages, rendered as values, written as request text, and read back. The
//! `tool_calls` reader here is the only one: replies and histories both use it.

use crate::json::write_str;
use crate::message::{push_result, Message, ToolCall};
use crate::provider::common::{flatten, str_field};
use serde_json::{Map, Value};

/// The transcript as OpenAI messages (a run's `messages`, what `beforeLLM` sees), built as
/// values directly: no serde view is compiled for it, and the request body writes the same
/// fields in the same order (`write_messages`).
pub(crate) fn render(messages: &[Message]) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        match m {
            Message::System(t) => out.push(entry("system", "content", t)),
            Message::User(t) => out.push(entry("user", "content", t)),
            Message::Assistant(turn) => {
                let Value::Object(mut o) = entry("assistant", "content", &turn.text) else { continue };
                if !turn.calls.is_empty() {
                    // A loop, not a `collect`: each `collect` of a closure's values is its own copy.
                    let mut calls = Vec::with_capacity(turn.calls.len());
                    for c in &turn.calls {
                        let mut f = Map::new();
                        f.insert("name".into(), Value::String(c.name.clone()));
                        f.insert("arguments".into(), Value::String(c.arguments.clone()));
                        let mut call = Map::new();
                        call.insert("id".into(), Value::String(c.id.clone()));
                        call.insert("type".into(), Value::from("function"));
                        call.insert("function".into(), Value::Object(f));
                        calls.push(Value::Object(call));
                    }
                    o.insert("tool_calls".into(), Value::Array(calls));
                }
                out.push(Value::Object(o));
            }
            Message::Tool(outs) => {
                for r in outs {
                    let Value::Object(mut o) = entry("tool", "tool_call_id", &r.call_id) else { continue };
                    o.insert("content".into(), Value::String(r.output.clone()));
                    out.push(Value::Object(o));
                }
            }
        }
    }
    out
}

/// `{ role, <key>: text }`.
fn entry(role: &str, key: &str, text: &str) -> Value {
    let mut o = Map::new();
    o.insert("role".into(), Value::from(role));
    o.insert(key.into(), Value::from(text));
    Value::Object(o)
}

/// The transcript as the request's `messages` array, written by hand: the fields of `render`,
/// in its order, as serde_json would write them (see `json::write_str`).
pub(crate) fn write_messages(out: &mut String, messages: &[Message]) {
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

/// Reads `tool_calls` entries into `calls`. On a malformed entry, `Err((k, missing))` names the
/// entry and what it lacks (`"function"`, or `"function name"` when `name_required`); the caller
/// words the error, as a reply and a history fail with different codes. Arguments stay the raw
/// string the provider sent; a history entry without a name reads as `""`.
pub(crate) fn read_tool_calls(list: &[Value], name_required: bool, calls: &mut Vec<ToolCall>) -> Result<(), (usize, &'static str)> {
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
            Some(other) => crate::json::to_text(other),
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
