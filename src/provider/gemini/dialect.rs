//! The Gemini dialect of the transcript: `contents` of `{ role: "user" | "model", parts }`, with
//! `functionCall` / `functionResponse` parts, written as a borrowed view and read back. System
//! messages go to `systemInstruction`. Results go back as `{ output }` or `{ error }` objects with
//! the call's name; a history without call ids gets synthesised ones (`call_h<index>_<n>`).

use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

/// The transcript as Gemini `contents`, serialised straight from the neutral messages.
pub(crate) struct Contents<'a>(pub &'a [Message]);

impl Serialize for Contents<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter_map(view))
    }
}

pub(super) fn render(messages: &[Message]) -> Vec<Value> {
    match serde_json::to_value(Contents(messages)) {
        Ok(Value::Array(a)) => a,
        _ => Vec::new(), // unreachable: the view serialises to an array of plain data
    }
}

#[derive(Serialize)]
struct Content<'a> {
    role: &'static str,
    parts: Vec<Part<'a>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Part<'a> {
    Text {
        text: &'a str,
    },
    Call {
        #[serde(rename = "functionCall")]
        function_call: Call<'a>,
    },
    Response {
        #[serde(rename = "functionResponse")]
        function_response: Response<'a>,
    },
}

#[derive(Serialize)]
struct Call<'a> {
    id: &'a str,
    name: &'a str,
    args: Map<String, Value>,
}

#[derive(Serialize)]
struct Response<'a> {
    id: &'a str,
    name: &'a str,
    /// Gemini wants an object: the output under `output`, or under `error` when it failed.
    response: Value,
}

fn view(m: &Message) -> Option<Content<'_>> {
    match m {
        Message::System(_) => None,
        Message::User(t) => Some(Content { role: "user", parts: vec![Part::Text { text: t }] }),
        Message::Assistant(turn) => {
            let mut parts = Vec::with_capacity(turn.calls.len() + 1);
            if !turn.text.is_empty() || turn.calls.is_empty() {
                parts.push(Part::Text { text: &turn.text });
            }
            for c in &turn.calls {
                parts.push(Part::Call { function_call: Call { id: &c.id, name: &c.name, args: c.input_or_empty() } });
            }
            Some(Content { role: "model", parts })
        }
        Message::Tool(outs) => Some(Content {
            role: "user",
            parts: outs
                .iter()
                .map(|o| Part::Response {
                    function_response: Response {
                        id: &o.call_id,
                        name: &o.name,
                        response: if o.is_error { json!({"error": o.output}) } else { json!({"output": o.output}) },
                    },
                })
                .collect(),
        }),
    }
}

/// One Gemini content, read into the neutral transcript. Calls without an id get
/// `call_h<index>_<n>`; a response without an id answers the first call of that name still
/// waiting in the turn before it.
pub(crate) fn read(index: usize, role: &str, parts: &[Value], out: &mut Vec<Message>) {
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
                    arguments: f.get("args").map(Value::to_string).unwrap_or_else(|| "{}".into()),
                });
            }
        }
        out.push(Message::Assistant(turn));
        return;
    }
    let mut text = String::new();
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
            results.push(ToolOutput { call_id, name, output, is_error });
        } else if let Some(t) = p.get("text").and_then(Value::as_str) {
            text.push_str(t);
        }
    }
    if !results.is_empty() {
        out.push(Message::Tool(results));
    }
    if !text.is_empty() || parts.is_empty() {
        out.push(Message::User(text));
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
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
