//! The Responses dialect of the transcript: `input` items. User and system messages are
//! `{ role, content }`; an assistant turn is several items: its reasoning and server-run tool
//! items (verbatim), one `message` with an `output_text` part, and a `function_call` per call;
//! results are `function_call_output` items paired by `call_id`. Rendered as values and read
//! back, a run of items grouping into one assistant turn.
//!
//! Where a turn's items go: the ones that came before any call (`Reasoning::before(0)`), then the
//! text, then each call after the items that came before it, then the items after the last call.
//! The neutral turn keeps one text, so an item the model wrote between its text and its first
//! call is replayed before the text.

use super::reply::{content_text, custom_call, function_call, keep_item};
use super::PROVIDER;
use crate::json::obj;
use crate::json::{str_at, str_in};
use crate::message::{push_result, AssistantTurn, Message, Reasoning, ToolOutput, ORIGIN_KEY};
use crate::part::{parts_value, ImageKeys, ImageSpelling, Spelling};
use crate::prelude::*;
use crate::provider::common::split_content;
use serde_json::{Map, Value};

/// Responses content: `input_text`, and `input_image` whose `image_url` is the URL itself (a data
/// URL for bytes).
pub const PARTS: Spelling =
    Spelling { text_type: "input_text", image: ImageSpelling::Url(ImageKeys::new("input_image", "", "", "image_url")) };

/// The transcript as `input` items: `model: None` for the state and a run's result (system
/// messages kept as items, this provider's reasoning tagged with its origin on the first item
/// of its turn), `Some(model)` for a request (system messages go to `instructions`; reasoning
/// only from that model, untagged).
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    let mut after_turn = false;
    // The calls of the last turn that went as `custom_tool_call` items: their results are
    // `custom_tool_call_output`s.
    let mut custom: Vec<&str> = Vec::new();
    for m in messages {
        match m {
            Message::System(t) if model.is_none() => out.push(role_item("system", Value::from(t.as_str()))),
            Message::System(_) => {}
            Message::User(t) => out.push(role_item("user", Value::from(t.as_str()))),
            Message::UserParts(p) => out.push(role_item("user", parts_value(p, &PARTS))),
            Message::Assistant(turn) => custom = assistant(turn, model, after_turn, &mut out),
            Message::Tool(outs) => {
                for o in outs {
                    out.push(result(o, custom.contains(&o.call_id.as_str())));
                }
            }
        }
        after_turn = matches!(m, Message::Assistant(_));
    }
    out
}

fn role_item(role: &str, content: Value) -> Value {
    obj(vec![("role", Value::from(role)), ("content", content)])
}

/// One assistant turn's items (see the module comment for their order). `after_turn`: the
/// message before it is an assistant turn too (a history whose calls got no results), which
/// the state marks with the turn's message even when empty: items alone would read back as
/// part of the turn before. Gives the ids of the calls that went as their kept
/// `custom_tool_call` item rather than as a `function_call`.
fn assistant<'t>(turn: &'t AssistantTurn, model: Option<&str>, after_turn: bool, out: &mut Vec<Value>) -> Vec<&'t str> {
    let reasoning = turn.reasoning_for(PROVIDER, model).filter(|r| !r.items.is_empty());
    let mut custom = Vec::new();
    for (_, item) in reasoning.iter().flat_map(|r| r.items.iter()) {
        if str_at(item, "type") == Some("custom_tool_call") {
            if let Some(id) = str_at(item, "call_id") {
                custom.push(id);
            }
        }
    }
    let items = |k: usize, out: &mut Vec<Value>| {
        if let Some(r) = reasoning {
            r.push_before(k, out);
        }
    };
    let start = out.len();
    items(0, out);
    // An empty turn stays one (empty) message in the state, so that it reads back; a request
    // leaves it out.
    if !turn.text.is_empty() || (model.is_none() && (turn.calls.is_empty() || after_turn) && out.len() == start) {
        let part = obj(vec![("type", Value::from("output_text")), ("text", Value::from(turn.text.as_str()))]);
        out.push(obj(vec![("type", Value::from("message")), ("role", Value::from("assistant")), ("content", Value::Array(vec![part]))]));
    }
    for (k, c) in turn.calls.iter().enumerate() {
        if k > 0 {
            items(k, out);
        }
        if custom.contains(&c.id.as_str()) {
            continue; // its item, just placed before it, is the call
        }
        out.push(obj(vec![
            ("type", Value::from("function_call")),
            ("call_id", Value::from(c.id.as_str())),
            ("name", Value::from(c.name.as_str())),
            ("arguments", Value::from(c.arguments.as_str())),
        ]));
    }
    if let Some(r) = reasoning {
        r.push_after(turn.calls.len(), out);
    }
    match (model, reasoning) {
        (Some(_), _) => {
            // Requests go with `store: false`: an item sent by its id alone is looked up among
            // the stored ones, and OpenAI answers 404 ("Items are not persisted when `store` is
            // set to false"). A reasoning item travels on its `encrypted_content`; one that came
            // without it (a gateway or deployment that ignores `include`) stays in the state,
            // for display and `translate`, and is left out of the request.
            // A custom call goes without its item id for the same reason, as function calls do.
            let mut k = start;
            while k < out.len() {
                if unpersisted(&out[k]) {
                    out.remove(k);
                    continue;
                }
                if let Some(Value::Object(item)) = out.get_mut(k).filter(|v| str_at(v, "type") == Some("custom_tool_call")) {
                    *item = crate::small::without_key(item, "id");
                }
                k += 1;
            }
            // The API refuses a reasoning item that nothing of its response follows (a reply cut
            // while it was still reasoning).
            while out.len() > start && out.last().and_then(|v| v.get("type")).and_then(Value::as_str) == Some("reasoning") {
                out.pop();
            }
        }
        (None, Some(r)) => {
            if let Some(Value::Object(first)) = out.get_mut(start) {
                first.insert(ORIGIN_KEY.into(), r.origin_value());
            }
        }
        (None, None) => {}
    }
    custom
}

/// A reasoning item that only its id could name: no `encrypted_content` to carry it.
fn unpersisted(item: &Value) -> bool {
    str_at(item, "type") == Some("reasoning") && !str_at(item, "encrypted_content").is_some_and(|s| !s.is_empty())
}

/// A `function_call_output` (a `custom_tool_call_output` for a custom call): the text, or,
/// with images, a list of `input_text` and `input_image` parts. The API has no error flag for
/// results.
fn result(o: &ToolOutput, custom: bool) -> Value {
    let output = match o.parts.is_empty() {
        true => Value::from(o.output.as_str()),
        false => {
            let mut parts = Vec::with_capacity(o.parts.len() + 1);
            if !o.output.is_empty() {
                parts.push(obj(vec![("type", Value::from("input_text")), ("text", Value::from(o.output.as_str()))]));
            }
            if let Value::Array(images) = parts_value(&o.parts, &PARTS) {
                parts.extend(images);
            }
            Value::Array(parts)
        }
    };
    let ty = if custom { "custom_tool_call_output" } else { "function_call_output" };
    obj(vec![("type", Value::from(ty)), ("call_id", Value::from(o.call_id.as_str())), ("output", output)])
}

/// Whether a history entry is a Responses item, read by [`read_item`]: an item with a `type` and
/// no `role` (a call, a result, reasoning, or any other output item, which carries an `id`), or
/// an assistant `message` (or an assistant message whose content has `output_text` parts).
pub(crate) fn is_item(o: &Map<String, Value>) -> bool {
    let ty = str_in(o, "type");
    match (str_in(o, "role"), ty) {
        (None, Some("function_call" | "function_call_output" | "custom_tool_call_output" | "reasoning" | "message")) => true,
        (None, Some(_)) => o.get("id").is_some_and(Value::is_string),
        (Some("assistant"), Some("message")) => true,
        // An assistant message without a `type` is a Responses item by its `output_text` parts
        // (chat completions and Anthropic spell text parts `text`; both have `refusal` parts).
        (Some("assistant"), None) => o.get("content").and_then(Value::as_array).is_some_and(|c| {
            let ty = |p: &Value, t: &str| str_at(p, "type") == Some(t);
            c.iter().any(|p| ty(p, "output_text")) && !c.iter().any(|p| ty(p, "text"))
        }),
        _ => false,
    }
}

/// The assistant turn that consecutive items are building, if any.
#[derive(Default)]
pub(crate) struct ItemRun {
    /// The last message read is a turn made of items, open to more of them.
    open: bool,
    /// That turn has had its message.
    message: bool,
}

/// Reads one Responses item into `out`. Items of one assistant turn follow each other; a new
/// turn starts at an item tagged with its origin (the first item of a turn with reasoning), and
/// at a message after the turn's message or calls (a turn renders one message, before its
/// calls). Reasoning and other items are kept verbatim, less the origin tag.
pub(crate) fn read_item(o: &Map<String, Value>, out: &mut Vec<Message>, run: &mut ItemRun) -> Result<(), String> {
    let ty = str_in(o, "type");
    if matches!(ty, Some("function_call_output" | "custom_tool_call_output")) {
        let (text, parts) = split_content(o.get("output").unwrap_or(&Value::Null))?;
        push_result(out, str_field_of(o, "call_id"), text, false, parts);
        *run = ItemRun::default();
        return Ok(());
    }
    let origin = Reasoning::from_origin(o.get(ORIGIN_KEY));
    let is_message = matches!(ty, Some("message") | None);
    let continues = match out.last() {
        Some(Message::Assistant(t)) => run.open && origin.is_none() && !(is_message && (run.message || !t.calls.is_empty())),
        _ => false,
    };
    if !continues {
        out.push(Message::Assistant(AssistantTurn::default()));
        *run = ItemRun { open: true, message: false };
    }
    let Some(Message::Assistant(turn)) = out.last_mut() else { return Err("no assistant turn to add an item to".into()) };
    if let Some(origin) = origin {
        let r = turn.reasoning.get_or_insert_with(|| Reasoning::new(PROVIDER));
        r.provider = origin.provider;
        r.model = origin.model;
    }
    match ty {
        Some("message") | None => {
            run.message = true;
            match o.get("content") {
                Some(Value::Array(parts)) => {
                    for (text, _) in parts.iter().filter_map(content_text) {
                        turn.text.push_str(text);
                    }
                }
                Some(Value::String(s)) => turn.text.push_str(s),
                _ => {}
            }
        }
        Some("function_call") => turn.calls.push(function_call(&Value::Object(o.clone()))?),
        Some("custom_tool_call") => {
            let item = Value::Object(o.clone());
            let call = custom_call(&item)?;
            keep_item(turn, item);
            turn.calls.push(call);
        }
        Some(_) => {
            keep_item(turn, Value::Object(crate::small::without_key(o, ORIGIN_KEY)));
        }
    }
    Ok(())
}

fn str_field_of(o: &Map<String, Value>, key: &str) -> String {
    str_in(o, key).unwrap_or_default().to_string()
}
