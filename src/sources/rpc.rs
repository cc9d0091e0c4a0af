//! JSON-RPC 2.0 framing: request and notification bodies, and finding the response to one
//! request among the messages of a reply (a JSON body, a JSON batch, or SSE `message` events
//! that may also carry the server's notifications and requests, which a one-shot exchange skips).

use crate::error::{Code, Error, Result};
use crate::json;
use crate::sources::text::cap;
use serde_json::Value;

pub fn request(id: u64, method: &str, params: &Value) -> String {
    let mut out = String::new();
    json::write_obj(&mut out, |o| {
        o.str("jsonrpc", "2.0").u64("id", id).str("method", method).value("params", params);
    });
    out
}

pub fn notification(method: &str) -> String {
    json::to_text(&json::obj(vec![("jsonrpc", "2.0".into()), ("method", method.into())]))
}

/// This client's answer to a request the server made: `ping` gets an empty result, any other
/// method "method not found" (-32601).
pub fn reply_to_server(id: &Value, method: &str) -> String {
    let mut fields = vec![("jsonrpc", "2.0".into()), ("id", id.clone())];
    if method == "ping" {
        fields.push(("result", Value::Object(Default::default())));
    } else {
        let e = json::obj(vec![("code", (-32601).into()), ("message", format!("Method not found: {method}").into())]);
        fields.push(("error", e));
    }
    json::to_text(&json::obj(fields))
}

/// The response to request `id` if `msg` (one message or a batch) holds it: its `result` (taken
/// out of `msg`, not copied), or its `error` as an [`Error`] that `what()` names (made only
/// then). `None` for anything else (notifications, server requests, other ids).
pub fn response_to(msg: &mut Value, id: u64, what: &dyn Fn() -> String) -> Option<Result<Value>> {
    if let Value::Array(batch) = msg {
        return batch.iter_mut().find_map(|m| response_to(m, id, what));
    }
    let o = msg.as_object_mut()?;
    if o.contains_key("method") || !id_matches(o.get("id")?, id) {
        return None;
    }
    if let Some(e) = o.get("error") {
        let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
        let message = e.get("message").and_then(Value::as_str).unwrap_or("no message");
        return Some(Err(Error::new(Code::Transport, format!("{}: error {code}: {}", what(), cap(message)))));
    }
    Some(Ok(o.get_mut("result").map_or(Value::Null, Value::take)))
}

/// Servers echo the id as sent (a number); a string form is accepted too.
fn id_matches(v: &Value, id: u64) -> bool {
    v.as_u64() == Some(id) || v.as_str().is_some_and(|s| s.parse::<u64>().ok() == Some(id))
}
