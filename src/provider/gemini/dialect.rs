//! The Gemini dialect of the transcript: `contents` of `{ role: "user" | "model", parts }`, with
//! `functionCall` / `functionResponse` parts, rendered as values and read back. System
//! messages go to `systemInstruction`. Results go back as `{ output }` or `{ error }` objects with
//! the call's name; a history without call ids gets synthesised ones (`call_h<index>_<n>`).
//!
//! A model turn's reasoning state goes back where Gemini put it: thought parts verbatim (by
//! their `at`), the text part's `thoughtSignature`, each call's. For a request only a turn made
//! by the same model keeps it; a Gemini 3 model is sent the documented validator-skipping
//! signature on the first call of a turn that has none of its own (a turn from another model or
//! provider), and a turn with nothing to send is left out, since Gemini refuses an empty one.

use super::reply::{is_thought, signature};
use crate::json::obj;
use crate::json::str_at;
use crate::message::{push_user, AssistantTurn, Message, Reasoning, ToolCall, ToolOutput, ORIGIN_KEY};
use crate::part::{ImageKeys, ImageSpelling, Part, Spelling};
use crate::prelude::*;
use serde_json::Value;

/// Gemini parts: `text`, `inlineData` for bytes and `fileData` for a URL.
pub const PARTS: Spelling = Spelling {
    text_type: "",
    image: ImageSpelling::Keyed([
        ImageKeys::new("", "inlineData", "mimeType", "data"),
        ImageKeys::new("", "fileData", "mimeType", "fileUri"),
    ]),
};

/// The transcript as Gemini `contents` (a run's `messages`, what `beforeLLM` sees, and the
/// request's `contents`), built as values directly: no serde view is compiled for it.
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        let (role, parts) = match m {
            Message::System(_) => continue,
            Message::User(t) => ("user", vec![obj(vec![("text", Value::from(t.as_str()))])]),
            Message::UserParts(p) => {
                let mut parts = Vec::with_capacity(p.len());
                for x in p {
                    parts.push(part(x));
                }
                ("user", parts)
            }
            Message::Assistant(turn) => {
                let r = turn.reasoning_for("gemini", model);
                let parts = model_parts(turn, r, model.is_some_and(validated));
                match (model, r) {
                    // A request: an empty content is refused, so the turn is left out.
                    (Some(_), _) if parts.is_empty() => continue,
                    (None, Some(r)) => {
                        // The state view: says whose reasoning this is. An empty turn is `parts: []`.
                        out.push(obj(vec![("role", Value::from("model")), ("parts", Value::Array(parts)), (ORIGIN_KEY, r.origin_value())]));
                        continue;
                    }
                    _ => ("model", parts),
                }
            }
            Message::Tool(outs) => {
                let mut parts = Vec::with_capacity(outs.len());
                for o in outs {
                    // Gemini wants an object: the output under `output`, or under `error` when it failed.
                    let response = obj(vec![(if o.is_error { "error" } else { "output" }, Value::from(o.output.as_str()))]);
                    let (id, name) = (Value::from(o.call_id.as_str()), Value::from(o.name.as_str()));
                    parts.push(obj(vec![("functionResponse", obj(vec![("id", id), ("name", name), ("response", response)]))]));
                    // A result's images follow its response in the same content.
                    for x in &o.parts {
                        parts.push(part(x));
                    }
                }
                ("user", parts)
            }
        };
        out.push(obj(vec![("role", Value::from(role)), ("parts", Value::Array(parts))]));
    }
    out
}

fn part(p: &Part) -> Value {
    p.value(&PARTS)
}

/// What Google documents for a call whose signature is lost (a history from another model or
/// provider, a call made up by the application): it lets a Gemini 3 model accept the call.
pub(crate) const SKIP_SIGNATURE: &str = "skip_thought_signature_validator";

/// Whether `model` validates thought signatures on function calls (Gemini 3 and later ones
/// named so): a request to it fails when the first call of a step has none.
fn validated(model: &str) -> bool {
    crate::small::contains_ignore_ascii_case(model, "gemini-3")
}

/// A model turn's parts: thought items before the text, the text (signed), each call (signed)
/// with the items that came before it, then the items after the last call. `r` is the turn's
/// reasoning when it may be sent; without it no signature goes out. `skip`: the first call gets
/// [`SKIP_SIGNATURE`] when it has no signature of its own.
fn model_parts(turn: &AssistantTurn, r: Option<&Reasoning>, skip: bool) -> Vec<Value> {
    let mut parts = Vec::with_capacity(turn.calls.len() + 1);
    let items = |k: usize, parts: &mut Vec<Value>| {
        if let Some(r) = r {
            r.push_before(k, parts);
        }
    };
    items(0, &mut parts);
    let text_sig = r.and_then(|r| r.text_signature.as_deref());
    if !turn.text.is_empty() || text_sig.is_some() {
        parts.push(signed(vec![("text", Value::from(turn.text.as_str()))], text_sig));
    }
    for (k, c) in turn.calls.iter().enumerate() {
        if k > 0 {
            items(k, &mut parts);
        }
        let own = r.and(c.signature.as_deref());
        let sig = own.or((skip && k == 0).then_some(SKIP_SIGNATURE));
        let (id, name) = (Value::from(c.id.as_str()), Value::from(c.name.as_str()));
        let call = obj(vec![("id", id), ("name", name), ("args", Value::Object(c.input_or_empty()))]);
        parts.push(signed(vec![("functionCall", call)], sig));
    }
    if let Some(r) = r {
        r.push_after(turn.calls.len(), &mut parts);
    }
    parts
}

/// A part of `fields`, with its `thoughtSignature` after them when there is one.
fn signed(fields: Vec<(&str, Value)>, sig: Option<&str>) -> Value {
    let mut v = obj(fields);
    if let (Some(s), Value::Object(m)) = (sig, &mut v) {
        m.insert("thoughtSignature".into(), s.into());
    }
    v
}

/// One Gemini content, read into the neutral transcript. Calls without an id get
/// `call_h<index>_<n>`; a response without an id answers the first call of that name still
/// waiting in the turn before it.
pub(crate) fn read(index: usize, role: &str, parts: &[Value], out: &mut Vec<Message>) -> Result<(), String> {
    if role == "model" {
        out.push(Message::Assistant(read_model(index, parts)));
        return Ok(());
    }
    let (mut user, mut has_text) = (Vec::new(), parts.is_empty());
    let mut results: Vec<ToolOutput> = Vec::new();
    for p in parts {
        if let Some(r) = p.get("functionResponse") {
            let name = str_at(r, "name").unwrap_or_default().to_string();
            let resp = r.get("response").cloned().unwrap_or(Value::Null);
            let (output, is_error) = match (resp.get("output"), resp.get("error")) {
                (_, Some(e)) => (text_of(e), true),
                (Some(o), None) => (text_of(o), false),
                _ => (text_of(&resp), false),
            };
            let id = str_at(r, "id").filter(|s| !s.is_empty()).map(str::to_string);
            let call_id = id.unwrap_or_else(|| match_by_name(out, &results, &name));
            results.push(ToolOutput { call_id, name, output, is_error, parts: Vec::new() });
        } else {
            // An image after a response is that result's; text and earlier images are the user's.
            match (Part::read(p)?, results.last_mut()) {
                (image @ Part::Image(_), Some(r)) => r.parts.push(image),
                (other, _) => {
                    has_text |= matches!(other, Part::Text(_));
                    user.push(other)
                }
            }
        }
    }
    if !results.is_empty() {
        out.push(Message::Tool(results));
    }
    // A text part, even an empty one, is a user turn: dropping it would change the transcript.
    push_user(out, user, has_text);
    Ok(())
}

/// A model content: text, calls, and the reasoning state as [`render`] writes it (thought parts
/// verbatim at their place, the signatures of the text part and of each call), tagged `gemini`
/// with the model unknown until the content's origin member says it. Of several signed text
/// parts the last signature is kept, as in a reply.
fn read_model(index: usize, parts: &[Value]) -> AssistantTurn {
    let mut turn = AssistantTurn::default();
    let mut r = Reasoning::new("gemini");
    let mut found = false;
    for (n, p) in parts.iter().enumerate() {
        let sig = signature(p).map(str::to_string);
        found |= sig.is_some();
        if is_thought(p) {
            r.items.push((turn.calls.len(), p.clone()));
            found = true;
        } else if let Some(t) = str_at(p, "text") {
            turn.text.push_str(t);
            if sig.is_some() {
                r.text_signature = sig;
            }
        } else if let Some(f) = p.get("functionCall") {
            let id = str_at(f, "id").filter(|s| !s.is_empty()).map(str::to_string);
            turn.calls.push(ToolCall {
                id: id.unwrap_or_else(|| format!("call_h{index}_{n}")),
                name: str_at(f, "name").unwrap_or_default().to_string(),
                arguments: f.get("args").map_or_else(|| "{}".into(), crate::json::to_text),
                signature: sig,
            });
        } else if p.get("functionResponse").is_none() {
            // Another kind of part (`executableCode`, `inlineData`, …), kept as the reply keeps it.
            r.items.push((turn.calls.len(), p.clone()));
            found = true;
        }
    }
    if found {
        turn.reasoning = Some(r);
    }
    turn
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => crate::json::to_text(other),
    }
}

fn match_by_name(out: &[Message], taken: &[ToolOutput], name: &str) -> String {
    let calls = out.iter().rev().find_map(|m| match m {
        Message::Assistant(t) if !t.calls.is_empty() => Some(&t.calls),
        _ => None,
    });
    calls
        .and_then(|cs| cs.iter().find(|c| c.name == name && !taken.iter().any(|t| t.call_id == c.id)))
        .map(|c| c.id.clone())
        .unwrap_or_default()
}
