//! The OpenAI dialect of the transcript: `system` / `user` / `assistant` (with `tool_calls`) /
//! `tool` messages, rendered as values, written as request text, and read back. The
//! `tool_calls` reader here is the only one: replies and histories both use it.

use crate::json::write_str;
use crate::message::{push_result, Message, ToolCall, ToolOutput, ORIGIN_KEY};
use crate::prelude::*;

/// Whose reasoning state this dialect carries: Gemini's thought signatures, as
/// `extra_content.google.thought_signature` on a tool call (Gemini's OpenAI-compatible endpoint
/// sends and takes them so). OpenAI's own chat completions have none.
pub(crate) const SIGNATURES: &str = "gemini";
use crate::part::{ImageSpelling, Part, Spelling};
use crate::provider::common::{google_signature, split_content, str_field};
use serde_json::{Map, Value};

/// OpenAI chat parts: `text`, and `image_url` holding a URL (a data URL for bytes).
pub const PARTS: Spelling =
    Spelling { text: "{\"type\":\"text\",\"text\":", image: ImageSpelling::Url("{\"type\":\"image_url\",\"image_url\":{\"url\":", "}}") };

/// The transcript as OpenAI messages (a run's `messages`, what `beforeLLM` sees, a saved
/// state): the request's text (`write_messages`) read back as values. One writer for both keeps
/// them equal by construction.
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut text = String::new();
    write_messages(&mut text, messages, model);
    match crate::json::parse(&text) {
        Ok(Value::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// `tool` messages carry text only: the parts of a turn's results follow them as one `user`
/// message, in result order (read back, such a message of images only rejoins the last result).
fn result_parts(outs: &[ToolOutput]) -> Option<String> {
    let mut out = String::new();
    for o in outs {
        user_parts(&mut out, &o.parts);
    }
    (!out.is_empty()).then(|| out + "]}")
}

/// Appends these parts to `out`, the text of `{"role":"user","content":[` … (opened on the
/// first part; the caller closes it with `]}`).
fn user_parts(out: &mut String, parts: &[Part]) {
    for p in parts {
        out.push_str(if out.is_empty() { "{\"role\":\"user\",\"content\":[" } else { "," });
        p.write(out, &PARTS);
    }
}

/// A user message of parts, as JSON text.
fn user_message(parts: &[Part]) -> String {
    let mut out = String::new();
    user_parts(&mut out, parts);
    out + "]}"
}

/// The transcript as the request's `messages` array, written by hand: the fields of `render`,
/// in its order, as serde_json would write them (see `json::write_str`).
pub(crate) fn write_messages(out: &mut String, messages: &[Message], model: Option<&str>) {
    let mut first = true;
    let mut sep = |out: &mut String| out.push(if core::mem::take(&mut first) { '[' } else { ',' });
    let open = |out: &mut String, sep: &mut dyn FnMut(&mut String), role: &str| {
        sep(out);
        out.push_str("{\"role\":\"");
        out.push_str(role);
        out.push('"');
    };
    for m in messages {
        match m {
            Message::System(t) | Message::User(t) => {
                open(out, &mut sep, if matches!(m, Message::System(_)) { "system" } else { "user" });
                out.push_str(",\"content\":");
                write_str(out, t);
                out.push('}');
            }
            Message::UserParts(p) => {
                sep(out);
                out.push_str(&user_message(p));
            }
            Message::Assistant(turn) => {
                open(out, &mut sep, "assistant");
                out.push_str(",\"content\":");
                write_str(out, &turn.text);
                // Gemini's thought signatures ride on the calls as its OpenAI-compatible endpoint
                // sends them; only to a model that may take them back.
                let signed = turn.reasoning_for(SIGNATURES, model).filter(|_| turn.calls.iter().any(|c| c.signature.is_some()));
                if !turn.calls.is_empty() {
                    out.push_str(",\"tool_calls\":[");
                    for (i, c) in turn.calls.iter().enumerate() {
                        out.push_str(if i > 0 { ",{\"id\":" } else { "{\"id\":" });
                        write_str(out, &c.id);
                        out.push_str(",\"type\":\"function\",\"function\":{\"name\":");
                        write_str(out, &c.name);
                        out.push_str(",\"arguments\":");
                        write_str(out, &c.arguments);
                        out.push('}');
                        if let Some(s) = c.signature.as_deref().filter(|_| signed.is_some()) {
                            out.push_str(",\"extra_content\":{\"google\":{\"thought_signature\":");
                            write_str(out, s);
                            out.push_str("}}");
                        }
                        out.push('}');
                    }
                    out.push(']');
                }
                if let Some(r) = signed.filter(|_| model.is_none()) {
                    out.push_str(",\"");
                    out.push_str(ORIGIN_KEY);
                    out.push_str("\":");
                    crate::json::write_value(out, &r.origin_value());
                }
                out.push('}');
            }
            Message::Tool(outs) => {
                for o in outs {
                    open(out, &mut sep, "tool");
                    out.push_str(",\"tool_call_id\":");
                    write_str(out, &o.call_id);
                    out.push_str(",\"content\":");
                    write_str(out, &o.output);
                    out.push('}');
                }
                if let Some(images) = result_parts(outs) {
                    sep(out);
                    out.push_str(&images);
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
        let signature = google_signature(c).map(str::to_string);
        calls.push(ToolCall { id: str_field(c, "id"), name, arguments, signature });
    }
    Ok(())
}

/// A reply's tool call of a `type` other than `function` (a `custom` free-form call, a kind
/// added later): it cannot be read as a function call, and dropping it would end the run as an
/// empty success. The error names the kind and what to do. A call without `type` is a function
/// call (servers that omit it).
pub(crate) fn foreign_call(k: usize, call: &Value) -> Option<crate::error::Error> {
    let ty = call.get("type").and_then(Value::as_str).filter(|t| *t != "function")?;
    Some(crate::error::Error::parse(format!(
        "the OpenAI reply's tool_calls[{k}] is a \"{ty}\" call, which this package does not carry in chat completions: declare the tool as a toolkit (function) tool, or use the responses style, which carries custom calls"
    )))
}

/// A `tool` (or legacy `function`) message: one result, paired with its call by
/// `tool_call_id`. OpenAI has no error flag on results.
pub(crate) fn read_tool_message(obj: &Map<String, Value>, out: &mut Vec<Message>) -> Result<(), String> {
    let id = obj.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
    let (text, parts) = split_content(obj.get("content").unwrap_or(&Value::Null))?;
    push_result(out, id.to_string(), text, false, parts);
    Ok(())
}
