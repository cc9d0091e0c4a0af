//! Multi round-trip requests (revision 2026-07-28) as suspensions. A `tools/call` answered
//! `input_required` suspends the call with `kind: "input"` and `data: { server, inputRequests }`
//! (the server's requests as sent; a URL-mode request also sets `url`). The host answers
//! `{ ok: true, data: { inputResponses } }`; the call is then sent again with the same name and
//! arguments plus `inputResponses` and the server's `requestState`, verbatim. `ok: false` is a
//! decline (a cancel when the answer gives a `reason` other than `"declined"`) of every request,
//! and reaches the server: the suspension sets `rerunOnDecline`, so the loop re-runs the call
//! with the refusal and the server's reply is the result.
//!
//! Where `requestState` waits: the loop hands a re-run tool only the answer, and the answer echoes
//! the request's id, so the retry material (the state and the request keys) is carried in the
//! id, after [`MARK`], as base64url JSON. It is thus in the durable state with the pending
//! request, never in `data`, and a host that echoes the id never touches it.

use super::stateless::{b64url, b64url_decode};
use crate::json;
use crate::suspend::{Answer, IdGen, Request};
use serde_json::{Map, Value};

pub const KIND: &str = "input";
/// Separates the unique part of a suspension's id from its retry material.
pub const MARK: &str = "~mcp-input.";

/// The suspension for an `input_required` result of server `server`.
pub fn suspension(server: &str, result: &Value, ids: &IdGen) -> Request {
    let requests = result.get("inputRequests").filter(|r| r.is_object()).cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let all = requests.as_object().map(|o| o.iter().collect::<Vec<_>>()).unwrap_or_default();
    let mut messages = Vec::new();
    let (mut url, mut refused) = (None, false);
    for (_, r) in &all {
        let p = r.get("params");
        if let Some(m) = p.and_then(|p| p.get("message")).and_then(Value::as_str).filter(|m| !m.is_empty()) {
            messages.push(m);
        }
        let is_url = p.and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("url");
        if url.is_none() && is_url {
            // `url` is what a host shows as a link: only an https one (http on loopback), as
            // for an authorization URL; a `javascript:` or `data:` one never becomes a link.
            let given = p.and_then(|p| p.get("url")).and_then(Value::as_str);
            refused |= given.is_some_and(|u| !super::auth::visitable(u));
            url = given.filter(|u| super::auth::visitable(u)).map(str::to_string);
        }
    }
    let mut prompt = if messages.is_empty() { format!("MCP server {server} needs input to continue") } else { messages.join("\n") };
    if refused && url.is_none() {
        prompt.push_str("\n(the server's link is not an https URL and is not shown)");
    }
    let keys: Vec<Value> = all.iter().map(|(k, _)| Value::String((*k).clone())).collect();
    let mut material = vec![("keys", Value::Array(keys))];
    if let Some(s) = result.get("requestState") {
        material.push(("requestState", s.clone()));
    }
    let id = format!("{}{MARK}{}", ids.next(), b64url(json::to_text(&json::obj(material)).as_bytes()));
    let data = json::obj(vec![("server", server.into()), ("inputRequests", requests)]);
    // The server must hear a refusal (its reply to `decline` / `cancel` is the call's result),
    // so the loop re-runs the call with it rather than ending it `declined/expired`.
    Request {
        id,
        kind: KIND.into(),
        prompt,
        url,
        data: data.as_object().cloned(),
        expires_at: None,
        rerun_on_decline: true,
        call_id: None,
        path: Vec::new(),
    }
}

/// What an answer to an input suspension adds to the retried call's `params`:
/// `inputResponses` and `requestState`. `None`: the answer is not to an input suspension (an
/// authorization answer, say). `Some(Err)`: it is, but cannot be sent (the message says why).
pub fn retry_params(answer: &Answer) -> Option<Result<Vec<(&'static str, Value)>, String>> {
    let at = crate::small::find(&answer.id, MARK)?;
    let material =
        answer.id.get(at + MARK.len()..).and_then(b64url_decode).and_then(|b| crate::sources::text::parse(&b)).filter(Value::is_object);
    let Some(material) = material else {
        return Some(Err("the answer's id does not carry the request it answers (was it changed?)".into()));
    };
    let responses = if answer.ok {
        match answer.data.as_ref().and_then(|d| d.get("inputResponses")) {
            Some(Value::Object(r)) => Value::Object(r.clone()),
            _ => return Some(Err("the answer carries no data.inputResponses object".into())),
        }
    } else {
        // A decline of every request; with a reason other than "declined" the user cancelled
        // (dismissed, expired) rather than said no.
        let action = if answer.reason.as_deref().is_some_and(|r| r != "declined") { "cancel" } else { "decline" };
        let keys = material.get("keys").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let mut r = Map::new();
        for k in keys.iter().filter_map(Value::as_str) {
            r.insert(k.into(), json::obj(vec![("action", action.into())]));
        }
        Value::Object(r)
    };
    let mut out = vec![("inputResponses", responses)];
    if let Some(s) = material.get("requestState") {
        out.push(("requestState", s.clone()));
    }
    Some(Ok(out))
}
