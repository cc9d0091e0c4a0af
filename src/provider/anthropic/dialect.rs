//! The Anthropic dialect of the transcript: `user` / `assistant` messages whose content is a
//! string or `text` / `tool_use` / `tool_result` blocks (and, in assistant turns, reasoning
//! blocks kept verbatim: `thinking`, `redacted_thinking`, server tool blocks), rendered as values
//! and read back. System messages are not Anthropic messages: they go to the body's `system` field.

use crate::json::obj;
use crate::json::str_at;
use crate::message::{push_result, AssistantTurn, Message, Reasoning, ToolCall, ORIGIN_KEY};
use crate::part::{ImageKeys, ImageSpelling, Part, Spelling};
use crate::prelude::*;
use crate::provider::common::{split_content, str_field};
use serde_json::Value;

/// Anthropic blocks: `text`, and `image` with a `base64` or `url` source.
pub const PARTS: Spelling = Spelling {
    text_type: "text",
    image: ImageSpelling::Keyed([
        ImageKeys { wrap_type: "base64", ..ImageKeys::new("image", "source", "media_type", "data") },
        ImageKeys { wrap_type: "url", ..ImageKeys::new("image", "source", "", "url") },
    ]),
};

/// The transcript as Anthropic messages (a run's `messages`, what `beforeLLM` sees, and the
/// request's `messages`), built as values directly: no serde view is compiled for it.
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        let (role, content) = match m {
            Message::System(_) => continue,
            Message::User(t) => ("user", Value::from(t.as_str())),
            Message::UserParts(p) => ("user", content_blocks(None, p)),
            Message::Assistant(turn) => {
                let reasoning = turn.reasoning_for("anthropic", model);
                let mut content = assistant_blocks(turn, reasoning);
                if let (Some(_), Value::Array(blocks)) = (model, &mut content) {
                    // The API checks a thinking block by its `signature` (a redacted one by its
                    // `data`) and refuses one without ("thinking.signature: Field required"): one
                    // that came without (a gateway that strips it) stays in the state and is left
                    // out of the request, as the API lets a client leave out earlier thinking.
                    blocks.retain(|b| !unsigned(b));
                }
                // An assistant message with no content is refused ("all messages must have
                // non-empty content"): a request leaves an empty turn out (an empty reply, or one
                // whose only blocks were another model's thinking); the API joins the user
                // messages around it into one turn, as it does any two in a row.
                if model.is_some() && content.as_array().is_some_and(Vec::is_empty) {
                    continue;
                }
                let mut msg = obj(vec![("role", Value::from("assistant")), ("content", content)]);
                // The state's view says whose reasoning this is, so it is never replayed elsewhere.
                if let (None, Some(r), Value::Object(fields)) = (model, reasoning, &mut msg) {
                    fields.insert(ORIGIN_KEY.to_string(), r.origin_value());
                }
                out.push(msg);
                continue;
            }
            Message::Tool(outs) => {
                let mut blocks = Vec::with_capacity(outs.len());
                for o in outs {
                    let id = Value::from(o.call_id.as_str());
                    // Images go inside the result; a text block may not be empty.
                    let content = match o.parts.is_empty() {
                        true => Value::from(o.output.as_str()),
                        false => content_blocks(Some(&o.output).filter(|t| !t.is_empty()), &o.parts),
                    };
                    blocks.push(obj(vec![
                        ("type", Value::from("tool_result")),
                        ("tool_use_id", id),
                        ("content", content),
                        ("is_error", Value::Bool(o.is_error)),
                    ]));
                }
                ("user", Value::Array(blocks))
            }
        };
        out.push(obj(vec![("role", Value::from(role)), ("content", content)]));
    }
    out
}

/// An assistant turn's blocks in the order the API gave them: the reasoning items before the
/// first call (so a thinking block opens the message, as the API requires when thinking is on),
/// the text, then each call preceded by the items that came before it, then the items after the
/// last call. `reasoning` is the turn's, when it may go where this rendering goes.
fn assistant_blocks(turn: &AssistantTurn, reasoning: Option<&Reasoning>) -> Value {
    let items = reasoning.map_or(0, |r| r.items.len());
    let mut blocks = Vec::with_capacity(turn.calls.len() + 1 + items);
    let items_before = |k: usize, blocks: &mut Vec<Value>| {
        if let Some(r) = reasoning {
            r.push_before(k, blocks);
        }
    };
    items_before(0, &mut blocks);
    if !turn.text.is_empty() {
        blocks.push(obj(vec![("type", Value::from("text")), ("text", Value::from(turn.text.as_str()))]));
    }
    for (k, c) in turn.calls.iter().enumerate() {
        if k > 0 {
            items_before(k, &mut blocks);
        }
        let (id, name) = (Value::from(c.id.as_str()), Value::from(c.name.as_str()));
        blocks.push(obj(vec![("type", Value::from("tool_use")), ("id", id), ("name", name), ("input", Value::Object(c.input_or_empty()))]));
    }
    if let Some(r) = reasoning {
        r.push_after(turn.calls.len(), &mut blocks);
    }
    Value::Array(blocks)
}

/// A thinking block without the signature the API checks it by, or a redacted one without its data.
fn unsigned(b: &Value) -> bool {
    let has = |k: &str| str_at(b, k).is_some_and(|s| !s.is_empty());
    match str_at(b, "type") {
        Some("thinking") => !has("signature"),
        Some("redacted_thinking") => !has("data"),
        _ => false,
    }
}

/// Content blocks: `text` (when given) then the parts.
fn content_blocks(text: Option<&String>, parts: &[Part]) -> Value {
    let mut out = Vec::with_capacity(parts.len() + 1);
    if let Some(t) = text {
        out.push(obj(vec![("type", Value::from("text")), ("text", Value::from(t.as_str()))]));
    }
    for p in parts {
        out.push(p.value(&PARTS));
    }
    Value::Array(out)
}

/// An assistant message's content blocks: `text` and `tool_use` (its `input` serialised as the
/// call's arguments); any other block (thinking, redacted thinking, server tool blocks) is
/// Anthropic reasoning state, kept verbatim after the calls read so far. The model that made it
/// is unknown here: a rendered state names it (`reasoningOrigin`, applied by `dialect::read`).
/// OpenAI content parts are no Anthropic blocks (this reader also reads OpenAI assistant content
/// arrays): they are dropped, as before, rather than replayed to Anthropic as reasoning.
pub(crate) fn read_assistant_blocks(blocks: &[Value], turn: &mut AssistantTurn) {
    for b in blocks {
        match str_at(b, "type") {
            Some("text") => turn.text.push_str(str_at(b, "text").unwrap_or("")),
            Some("tool_use") => turn.calls.push(ToolCall {
                id: str_field(b, "id"),
                name: str_field(b, "name"),
                arguments: b.get("input").map_or_else(|| "{}".into(), crate::json::to_text),
                signature: None,
            }),
            Some(kind) if OPENAI_PARTS.contains(&kind) => {}
            None => {}
            Some(_) => {
                let at = turn.calls.len();
                turn.reasoning.get_or_insert_with(|| Reasoning::new("anthropic")).items.push((at, b.clone()));
            }
        }
    }
}

/// OpenAI content part types an assistant message may carry (Chat Completions and Responses).
const OPENAI_PARTS: [&str; 6] = ["refusal", "output_text", "input_text", "image_url", "input_image", "input_audio"];

/// A user message's content blocks (Anthropic's, or OpenAI's content parts): each `tool_result`
/// is a result (merged with the results just before it), and the other blocks, if any, one user
/// message after them. A message of images only right after results is how the OpenAI dialect
/// carries result images, so it rejoins the last result.
pub(crate) fn read_user_blocks(blocks: &[Value], out: &mut Vec<Message>) -> Result<(), String> {
    let mut parts = Vec::new();
    let mut results = false;
    for b in blocks {
        if str_at(b, "type") == Some("tool_result") {
            results = true;
            let id = str_field(b, "tool_use_id");
            let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
            let (text, images) = split_content(b.get("content").unwrap_or(&Value::Null))?;
            push_result(out, id, text, is_error, images);
        } else {
            parts.push(Part::read(b)?);
        }
    }
    if let (false, Some(Message::Tool(outs))) = (results || parts.iter().any(|p| matches!(p, Part::Text(_))), out.last_mut()) {
        if let Some(last) = outs.last_mut().filter(|_| !parts.is_empty()) {
            last.parts.append(&mut parts);
        }
    }
    crate::message::push_user(out, parts, false);
    Ok(())
}
