//! The OpenAI dialect of the transcript: `system` / `user` / `assistant` (with `tool_calls`) /
//! `tool` messages, rendered as values, written as request text, and read back. The
//! `tool_calls` reader here is the only one: replies and histories both use it.

use crate::json::{str_at, str_in};
use crate::json::{write_arr, Arr};
use crate::message::{push_result, Message, ToolCall, ORIGIN_KEY};
use crate::prelude::*;

/// Whose reasoning state this dialect carries: Gemini's thought signatures, as
/// `extra_content.google.thought_signature` on a tool call (Gemini's OpenAI-compatible endpoint
/// sends and takes them so). OpenAI's own chat completions have none.
pub(crate) const SIGNATURES: &str = "gemini";
use crate::part::{ImageKeys, ImageSpelling, Part, Spelling};
use crate::provider::common::{google_signature, split_content, str_field};
use serde_json::{Map, Value};

/// OpenAI chat parts: `text`, and `image_url` holding a URL (a data URL for bytes).
pub const PARTS: Spelling = Spelling { text_type: "text", image: ImageSpelling::Url(ImageKeys::new("image_url", "image_url", "", "url")) };

/// The transcript as OpenAI messages (a run's `messages`, what `beforeLLM` sees, a saved
/// state): the request's text (`write_messages`) read back as values. One writer for both keeps
/// them equal by construction.
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut text = String::new();
    write_arr(&mut text, |a| write_messages(a, messages, model));
    match crate::json::parse(&text) {
        Ok(Value::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// A `user` message of these parts.
fn user_message<'p>(a: &mut Arr, parts: impl IntoIterator<Item = &'p Part>) {
    a.obj(|o| {
        o.str("role", "user").arr("content", |c| {
            for p in parts {
                c.value(&p.value(&PARTS));
            }
        });
    });
}

/// The transcript as the request's `messages` array: the fields of `render`, in its order.
pub(crate) fn write_messages(a: &mut Arr, messages: &[Message], model: Option<&str>) {
    for m in messages {
        match m {
            Message::System(t) | Message::User(t) => {
                a.obj(|o| {
                    o.str("role", if matches!(m, Message::System(_)) { "system" } else { "user" }).str("content", t);
                });
            }
            Message::UserParts(p) => user_message(a, p),
            Message::Assistant(turn) => {
                // Gemini's thought signatures ride on the calls as its OpenAI-compatible endpoint
                // sends them; only to a model that may take them back.
                let signed = turn.reasoning_for(SIGNATURES, model).filter(|_| turn.calls.iter().any(|c| c.signature.is_some()));
                a.obj(|o| {
                    o.str("role", "assistant").str("content", &turn.text);
                    if !turn.calls.is_empty() {
                        o.arr("tool_calls", |a| {
                            for c in &turn.calls {
                                a.obj(|o| {
                                    o.str("id", &c.id).str("type", "function").obj("function", |f| {
                                        f.str("name", &c.name).str("arguments", &c.arguments);
                                    });
                                    if let Some(s) = c.signature.as_deref().filter(|_| signed.is_some()) {
                                        o.obj("extra_content", |e| {
                                            e.obj("google", |g| {
                                                g.str("thought_signature", s);
                                            });
                                        });
                                    }
                                });
                            }
                        });
                    }
                    if let Some(r) = signed.filter(|_| model.is_none()) {
                        o.value(ORIGIN_KEY, &r.origin_value());
                    }
                });
            }
            Message::Tool(outs) => {
                for out in outs {
                    a.obj(|o| {
                        o.str("role", "tool").str("tool_call_id", &out.call_id).str("content", &out.output);
                    });
                }
                // `tool` messages carry text only: the parts of a turn's results follow them as
                // one `user` message, in result order (read back, such a message of images only
                // rejoins the last result).
                if outs.iter().any(|o| !o.parts.is_empty()) {
                    user_message(a, outs.iter().flat_map(|o| &o.parts));
                }
            }
        }
    }
}

/// Reads `tool_calls` entries into `calls`. On a malformed entry, `Err((k, missing))` names the
/// entry and what it lacks (`"function"`, or `"function name"` when `name_required`); the caller
/// words the error, as a reply and a history fail with different codes. Arguments stay the raw
/// string the provider sent; a history entry without a name reads as `""`.
pub(crate) fn read_tool_calls(list: &[Value], name_required: bool, calls: &mut Vec<ToolCall>) -> Result<(), (usize, &'static str)> {
    for (k, c) in list.iter().enumerate() {
        let f = c.get("function").ok_or((k, "function"))?;
        let name = match str_at(f, "name") {
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
    let ty = str_at(call, "type").filter(|t| *t != "function")?;
    Some(crate::error::Error::parse(format!(
        "the OpenAI reply's tool_calls[{k}] is a \"{ty}\" call, which this package does not carry in chat completions: declare the tool as a toolkit (function) tool, or use the responses style, which carries custom calls"
    )))
}

/// A `tool` (or legacy `function`) message: one result, paired with its call by
/// `tool_call_id`. OpenAI has no error flag on results.
pub(crate) fn read_tool_message(obj: &Map<String, Value>, out: &mut Vec<Message>) -> Result<(), String> {
    let id = str_in(obj, "tool_call_id").unwrap_or_default();
    let (text, parts) = split_content(obj.get("content").unwrap_or(&Value::Null))?;
    push_result(out, id.to_string(), text, false, parts);
    Ok(())
}
