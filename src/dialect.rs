//! Renders the neutral transcript as OpenAI or Anthropic messages (contract §a.11) and reads a
//! history in either dialect back. Reading decides the dialect per message from its own shape,
//! not from the client's style, so a history saved by one style loads under the other.

use crate::error::{Error, Result};
use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
use crate::provider::Style;
use serde_json::{json, Map, Value};

/// The transcript as the given style presents it in `RunResult.messages`.
pub fn render(messages: &[Message], style: Style) -> Vec<Value> {
    match style {
        Style::OpenAi => messages.iter().flat_map(openai_message).collect(),
        Style::Anthropic => messages.iter().filter_map(anthropic_message).collect(),
    }
}

fn openai_message(m: &Message) -> Vec<Value> {
    match m {
        Message::System(t) => vec![json!({"role": "system", "content": t})],
        Message::User(t) => vec![json!({"role": "user", "content": t})],
        Message::Assistant(turn) => {
            let mut o = Map::new();
            o.insert("role".into(), json!("assistant"));
            o.insert("content".into(), json!(turn.text));
            if !turn.calls.is_empty() {
                let calls: Vec<Value> = turn
                    .calls
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "type": "function",
                               "function": {"name": c.name, "arguments": c.arguments}})
                    })
                    .collect();
                o.insert("tool_calls".into(), Value::Array(calls));
            }
            vec![Value::Object(o)]
        }
        Message::Tool(outs) => outs
            .iter()
            .map(|o| json!({"role": "tool", "tool_call_id": o.call_id, "content": o.output}))
            .collect(),
    }
}

/// System messages are not Anthropic messages: they go to the body's `system` field.
fn anthropic_message(m: &Message) -> Option<Value> {
    match m {
        Message::System(_) => None,
        Message::User(t) => Some(json!({"role": "user", "content": t})),
        Message::Assistant(turn) => {
            let mut blocks = Vec::new();
            if !turn.text.is_empty() {
                blocks.push(json!({"type": "text", "text": turn.text}));
            }
            for c in &turn.calls {
                blocks.push(json!({"type": "tool_use", "id": c.id, "name": c.name,
                                   "input": Value::Object(c.input_or_empty())}));
            }
            Some(json!({"role": "assistant", "content": blocks}))
        }
        Message::Tool(outs) => {
            let blocks: Vec<Value> = outs
                .iter()
                .map(|o| {
                    json!({"type": "tool_result", "tool_use_id": o.call_id,
                           "content": o.output, "is_error": o.is_error})
                })
                .collect();
            Some(json!({"role": "user", "content": blocks}))
        }
    }
}

/// Reads a history in either dialect. Consecutive tool results merge into one `Tool` message;
/// result names are recovered from the calls they answer.
pub fn read(history: &[Value]) -> Result<Vec<Message>> {
    let mut out: Vec<Message> = Vec::new();
    for (i, v) in history.iter().enumerate() {
        let obj = v
            .as_object()
            .ok_or_else(|| Error::bad_state(format!("history[{i}] is not an object")))?;
        let role = obj
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::bad_state(format!("history[{i}] has no string role")))?;
        let content = obj.get("content").unwrap_or(&Value::Null);
        match role {
            "system" | "developer" => out.push(Message::System(flatten(content))),
            "assistant" => out.push(Message::Assistant(read_assistant(obj, i)?)),
            "tool" | "function" => {
                let id = obj.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
                push_result(&mut out, id.to_string(), flatten(content), false);
            }
            "user" => read_user(&mut out, content),
            other => return Err(Error::bad_state(format!("history[{i}] has unknown role {other:?}"))),
        }
    }
    name_results(&mut out);
    Ok(out)
}

fn read_assistant(obj: &Map<String, Value>, i: usize) -> Result<AssistantTurn> {
    let mut turn = AssistantTurn::default();
    match obj.get("content") {
        Some(Value::Array(blocks)) => {
            for b in blocks {
                match b.get("type").and_then(Value::as_str) {
                    Some("text") => turn.text.push_str(b.get("text").and_then(Value::as_str).unwrap_or("")),
                    Some("tool_use") => turn.calls.push(ToolCall {
                        id: str_field(b, "id"),
                        name: str_field(b, "name"),
                        arguments: serde_json::to_string(b.get("input").unwrap_or(&json!({})))
                            .unwrap_or_else(|_| "{}".into()),
                    }),
                    _ => {}
                }
            }
        }
        Some(other) => turn.text = flatten(other),
        None => {}
    }
    if let Some(calls) = obj.get("tool_calls").and_then(Value::as_array) {
        for (k, c) in calls.iter().enumerate() {
            let f = c
                .get("function")
                .ok_or_else(|| Error::bad_state(format!("history[{i}].tool_calls[{k}] has no function")))?;
            let arguments = match f.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            turn.calls.push(ToolCall { id: str_field(c, "id"), name: str_field(f, "name"), arguments });
        }
    }
    Ok(turn)
}

fn read_user(out: &mut Vec<Message>, content: &Value) {
    let Some(blocks) = content.as_array() else {
        out.push(Message::User(flatten(content)));
        return;
    };
    let mut text = String::new();
    for b in blocks {
        if b.get("type").and_then(Value::as_str) == Some("tool_result") {
            let id = str_field(b, "tool_use_id");
            let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
            push_result(out, id, flatten(b.get("content").unwrap_or(&Value::Null)), is_error);
        } else if let Some(t) = b.get("text").and_then(Value::as_str) {
            text.push_str(t);
        }
    }
    if !text.is_empty() {
        out.push(Message::User(text));
    }
}

fn push_result(out: &mut Vec<Message>, call_id: String, output: String, is_error: bool) {
    let o = ToolOutput { call_id, name: String::new(), output, is_error };
    match out.last_mut() {
        Some(Message::Tool(outs)) => outs.push(o),
        _ => out.push(Message::Tool(vec![o])),
    }
}

/// OpenAI tool messages carry no tool name; take it from the call each result answers.
fn name_results(out: &mut [Message]) {
    let mut last_calls: Vec<ToolCall> = Vec::new();
    for m in out.iter_mut() {
        match m {
            Message::Assistant(t) if !t.calls.is_empty() => last_calls = t.calls.clone(),
            Message::Tool(outs) => {
                for o in outs.iter_mut().filter(|o| o.name.is_empty()) {
                    if let Some(c) = last_calls.iter().find(|c| c.id == o.call_id) {
                        o.name = c.name.clone();
                    }
                }
            }
            _ => {}
        }
    }
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// A string stays as is; an array of parts gives its concatenated `text`; anything else is "".
pub fn flatten(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Message> {
        vec![
            Message::System("be brief".into()),
            Message::User("hi".into()),
            Message::Assistant(AssistantTurn {
                text: "checking".into(),
                calls: vec![ToolCall { id: "c1".into(), name: "lookup".into(), arguments: "{\"q\":1}".into() }],
            }),
            Message::Tool(vec![ToolOutput { call_id: "c1".into(), name: "lookup".into(), output: "42".into(), is_error: true }]),
            Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![] }),
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
        assert_eq!(
            read(&[json!({"role":"assistant","tool_calls":[{"id":"x"}]})]).unwrap_err().code(),
            "bad_state"
        );
    }
}
