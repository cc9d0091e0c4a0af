//! The Gemini dialect of the transcript: `contents` of `{ role: "user" | "model", parts }`, with
//! `functionCall` / `functionResponse` parts, rendered as values and read back. System
//! messages go to `systemInstruction`. Results go back as `{ output }` or `{ error }` objects with
//! the call's name; a history without call ids gets synthesised ones (`call_h<index>_<n>`).

use crate::message::{push_user, AssistantTurn, Message, ToolCall, ToolOutput};
use crate::part::Part;
use crate::provider::common::obj;
use crate::style::Style;
use serde_json::Value;

/// The transcript as Gemini `contents` (a run's `messages`, what `beforeLLM` sees, and the
/// request's `contents`), built as values directly: no serde view is compiled for it.
pub(crate) fn render(messages: &[Message], model: Option<&str>) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        let (role, parts) = match m {
            Message::System(_) => continue,
            Message::User(t) => ("user", vec![obj(&mut [("text", Value::from(t.as_str()))])]),
            Message::UserParts(p) => {
                let mut parts = Vec::with_capacity(p.len());
                for x in p {
                    parts.push(part(x));
                }
                ("user", parts)
            }
            Message::Assistant(turn) => {
                let mut parts = Vec::with_capacity(turn.calls.len() + 1);
                if !turn.text.is_empty() || turn.calls.is_empty() {
                    parts.push(obj(&mut [("text", Value::from(turn.text.as_str()))]));
                }
                for c in &turn.calls {
                    let (id, name) = (Value::from(c.id.as_str()), Value::from(c.name.as_str()));
                    let call = obj(&mut [("id", id), ("name", name), ("args", Value::Object(c.input_or_empty()))]);
                    parts.push(obj(&mut [("functionCall", call)]));
                }
                ("model", parts)
            }
            Message::Tool(outs) => {
                // A loop, not a `collect`: each `collect` of a closure's values is its own copy.
                let mut parts = Vec::with_capacity(outs.len());
                for o in outs {
                    // Gemini wants an object: the output under `output`, or under `error` when it failed.
                    let response = obj(&mut [(if o.is_error { "error" } else { "output" }, Value::from(o.output.as_str()))]);
                    let (id, name) = (Value::from(o.call_id.as_str()), Value::from(o.name.as_str()));
                    parts.push(obj(&mut [("functionResponse", obj(&mut [("id", id), ("name", name), ("response", response)]))]));
                    // A result's images follow its response in the same content.
                    for x in &o.parts {
                        parts.push(part(x));
                    }
                }
                ("user", parts)
            }
        };
        out.push(obj(&mut [("role", Value::from(role)), ("parts", Value::Array(parts))]));
    }
    out
}

fn part(p: &Part) -> Value {
    p.value(Some(Style::Gemini))
}

/// One Gemini content, read into the neutral transcript. Calls without an id get
/// `call_h<index>_<n>`; a response without an id answers the first call of that name still
/// waiting in the turn before it.
pub(crate) fn read(index: usize, role: &str, parts: &[Value], out: &mut Vec<Message>) -> Result<(), String> {
    if role == "model" {
        let mut turn = AssistantTurn::default();
        for (n, p) in parts.iter().enumerate() {
            if p.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(t) = p.get("text").and_then(Value::as_str) {
                turn.text.push_str(t);
            } else if let Some(f) = p.get("functionCall") {
                let id = f.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
                turn.calls.push(ToolCall {
                    id: id.unwrap_or_else(|| format!("call_h{index}_{n}")),
                    name: f.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                    arguments: f.get("args").map_or_else(|| "{}".into(), crate::json::to_text),
                    signature: None,
                });
            }
        }
        out.push(Message::Assistant(turn));
        return Ok(());
    }
    let (mut user, mut has_text) = (Vec::new(), parts.is_empty());
    let mut results: Vec<ToolOutput> = Vec::new();
    for p in parts {
        if let Some(r) = p.get("functionResponse") {
            let name = r.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            let resp = r.get("response").cloned().unwrap_or(Value::Null);
            let (output, is_error) = match (resp.get("output"), resp.get("error")) {
                (_, Some(e)) => (text_of(e), true),
                (Some(o), None) => (text_of(o), false),
                _ => (text_of(&resp), false),
            };
            let id = r.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
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
