//! What a provider validates in a follow-up request, pulled out of a request body so the
//! package's request can be compared with the one the real client sent: the last assistant
//! turn's reasoning state (Anthropic thinking / redacted_thinking blocks, first and byte-equal;
//! Gemini `thoughtSignature` on the same parts; Responses reasoning items with their id and
//! `encrypted_content`), its call ids and names, and the ids (Gemini: names) the results answer.
//! Prompts, text, tool declarations and result contents are the client's own and not compared.

use serde_json::{json, Value};

/// The transcript member of a request body.
pub fn transcript(style: &str, body: &Value) -> Vec<Value> {
    let key = match style {
        "gemini" => "contents",
        "responses" => "input",
        _ => "messages",
    };
    body[key].as_array().cloned().unwrap_or_default()
}

fn str_of(v: &Value, k: &str) -> Value {
    v.get(k).cloned().unwrap_or(Value::Null)
}

/// The validated members of the last assistant turn of `messages` and the results after it.
pub fn validated(style: &str, messages: &[Value]) -> Value {
    match style {
        "anthropic" => {
            let Some(i) = messages.iter().rposition(|m| m["role"] == "assistant") else { return json!({"assistant": null}) };
            let blocks = messages[i]["content"].as_array().cloned().unwrap_or_default();
            let is_reasoning = |b: &Value| b["type"] == "thinking" || b["type"] == "redacted_thinking";
            let reasoning: Vec<Value> = blocks
                .iter()
                .filter(|b| is_reasoning(b))
                .map(|b| json!({"type": b["type"], "thinking": str_of(b, "thinking"), "signature": str_of(b, "signature"), "data": str_of(b, "data")}))
                .collect();
            let first = blocks.iter().take_while(|b| is_reasoning(b)).count() == reasoning.len();
            let calls: Vec<Value> =
                blocks.iter().filter(|b| b["type"] == "tool_use").map(|b| json!({"id": b["id"], "name": b["name"]})).collect();
            let results: Vec<Value> = messages
                .get(i + 1)
                .and_then(|m| m["content"].as_array())
                .into_iter()
                .flatten()
                .filter(|b| b["type"] == "tool_result")
                .map(|b| b["tool_use_id"].clone())
                .collect();
            json!({"reasoning": reasoning, "reasoningFirst": first, "calls": calls, "results": results})
        }
        "gemini" => {
            let Some(i) = messages.iter().rposition(|m| m["role"] == "model") else { return json!({"model": null}) };
            let parts = messages[i]["parts"].as_array().cloned().unwrap_or_default();
            // Gemini's API gives calls no ids (the recording's ids are the client's own), so calls
            // are compared by name, each with the signature on its own part.
            let signed: Vec<Value> = parts
                .iter()
                .filter(|p| p.get("functionCall").is_some() || p.get("thoughtSignature").is_some())
                .map(|p| match p.get("functionCall") {
                    Some(f) => json!({"call": f["name"], "thoughtSignature": str_of(p, "thoughtSignature")}),
                    None => json!({"thought": p["thought"] == true, "thoughtSignature": p["thoughtSignature"]}),
                })
                .collect();
            let results: Vec<Value> = messages
                .get(i + 1)
                .and_then(|m| m["parts"].as_array())
                .into_iter()
                .flatten()
                .filter_map(|p| p.get("functionResponse").map(|f| f["name"].clone()))
                .collect();
            json!({"parts": signed, "results": results})
        }
        "responses" => {
            let items: Vec<Value> = messages
                .iter()
                .filter_map(|it| match it["type"].as_str() {
                    Some("reasoning") => Some(json!({"reasoning": it["id"], "encrypted_content": str_of(it, "encrypted_content")})),
                    Some("function_call") => Some(json!({"function_call": it["call_id"], "name": it["name"]})),
                    Some("function_call_output") => Some(json!({"function_call_output": it["call_id"]})),
                    // A custom (free-form) call goes back as it came, its `input` unchanged, and
                    // is answered by a `custom_tool_call_output`.
                    Some("custom_tool_call") => Some(json!({"custom_tool_call": it["call_id"], "name": it["name"], "input": it["input"]})),
                    Some("custom_tool_call_output") => Some(json!({"custom_tool_call_output": it["call_id"]})),
                    _ => None,
                })
                .collect();
            json!({"items": items})
        }
        _ => {
            let Some(i) = messages.iter().rposition(|m| m["role"] == "assistant") else { return json!({"assistant": null}) };
            let calls: Vec<Value> = messages[i]["tool_calls"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| json!({"id": c["id"], "name": c["function"]["name"]}))
                .collect();
            let results: Vec<Value> =
                messages[i + 1..].iter().take_while(|m| m["role"] == "tool").map(|m| m["tool_call_id"].clone()).collect();
            json!({"calls": calls, "results": results})
        }
    }
}

/// The members as compared with a recorded follow-up: the Gemini SDK that recorded them decodes a
/// `thoughtSignature` to bytes and encodes it again in the URL-safe base64 alphabet, while the
/// API sends (and the package keeps) the standard one; the bytes are the same, so the recorded
/// signatures are compared in the standard alphabet. Anything else is compared as it is.
pub fn as_recorded(style: &str, v: &Value) -> Value {
    match v {
        Value::Object(o) if style == "gemini" => Value::Object(
            o.iter()
                .map(|(k, x)| match (k.as_str(), x) {
                    ("thoughtSignature", Value::String(s)) => (k.clone(), Value::String(s.replace('-', "+").replace('_', "/"))),
                    _ => (k.clone(), as_recorded(style, x)),
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| as_recorded(style, x)).collect()),
        _ => v.clone(),
    }
}

/// What a follow-up to a whole (JSON) reply must carry, built from the reply itself: its
/// reasoning state and calls as they came, answered in order.
pub fn expected_from_reply(style: &str, reply: &Value) -> Value {
    match style {
        "anthropic" => {
            let ids: Vec<Value> = reply["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|b| b["type"] == "tool_use")
                .map(|b| json!({"type": "tool_result", "tool_use_id": b["id"]}))
                .collect();
            validated(style, &[json!({"role": "assistant", "content": reply["content"]}), json!({"role": "user", "content": ids})])
        }
        "gemini" => {
            let parts = &reply["candidates"][0]["content"]["parts"];
            let answers: Vec<Value> = parts
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p.get("functionCall"))
                .map(|f| json!({"functionResponse": {"name": f["name"]}}))
                .collect();
            validated(style, &[json!({"role": "model", "parts": parts}), json!({"role": "user", "parts": answers})])
        }
        "responses" => {
            let mut items: Vec<Value> = reply["output"].as_array().cloned().unwrap_or_default();
            let outs: Vec<Value> = items
                .iter()
                .filter(|it| it["type"] == "function_call" || it["type"] == "custom_tool_call")
                .map(|it| json!({"type": format!("{}_output", it["type"].as_str().unwrap()), "call_id": it["call_id"]}))
                .collect();
            items.extend(outs);
            validated(style, &items)
        }
        _ => {
            let m = &reply["choices"][0]["message"];
            let mut msgs = vec![json!({"role": "assistant", "tool_calls": m["tool_calls"]})];
            for c in m["tool_calls"].as_array().into_iter().flatten() {
                msgs.push(json!({"role": "tool", "tool_call_id": c["id"]}));
            }
            validated(style, &msgs)
        }
    }
}

/// Opaque reasoning artifacts anywhere in a rendered transcript (a request's or a result's
/// `messages`), counted as the manifest counts them in a reply.
pub fn signatures_in(style: &str, v: &Value) -> usize {
    let here = match v {
        Value::Object(o) => {
            let nonempty = |k: &str| o.get(k).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
            let ty = o.get("type").and_then(Value::as_str);
            usize::from(match style {
                "anthropic" => (ty == Some("thinking") && nonempty("signature")) || (ty == Some("redacted_thinking") && nonempty("data")),
                "gemini" => nonempty("thoughtSignature"),
                "responses" => ty == Some("reasoning") && nonempty("encrypted_content"),
                _ => false,
            })
        }
        _ => 0,
    };
    let below: usize = match v {
        Value::Object(o) => o.values().map(|c| signatures_in(style, c)).sum(),
        Value::Array(a) => a.iter().map(|c| signatures_in(style, c)).sum(),
        _ => 0,
    };
    here + below
}

/// The first user prompt text of a recorded request.
pub fn prompt_of(style: &str, body: &Value) -> String {
    let first = transcript(style, body).into_iter().find(|m| m["role"] == "user").unwrap_or(Value::Null);
    let c = if style == "gemini" { &first["parts"] } else { &first["content"] };
    match c {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
        _ => String::new(),
    }
}

/// The tool outputs a recorded request sent, in order.
pub fn outputs_of(style: &str, body: &Value) -> Vec<String> {
    let text = |v: &Value| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
    let msgs = transcript(style, body);
    match style {
        "anthropic" => msgs
            .iter()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter(|b| b["type"] == "tool_result")
            .map(|b| text(&b["content"]))
            .collect(),
        "gemini" => msgs
            .iter()
            .filter_map(|m| m["parts"].as_array())
            .flatten()
            .filter_map(|p| p.get("functionResponse"))
            .map(|f| text(&f["response"]["return_value"]))
            .collect(),
        "responses" => msgs
            .iter()
            .filter(|it| it["type"] == "function_call_output" || it["type"] == "custom_tool_call_output")
            .map(|it| text(&it["output"]))
            .collect(),
        _ => msgs.iter().filter(|m| m["role"] == "tool").map(|m| text(&m["content"])).collect(),
    }
}
