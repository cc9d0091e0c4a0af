//! Gemini generateContent (contract Part 1 rule 12; designed here from the proposal in Part 2
//! §f.4): `{base}/v1beta/models/{model}:generateContent` (`:streamGenerateContent?alt=sse`
//! when streaming), `x-goog-api-key`, `systemInstruction`, one `functionDeclarations` tool.
//! Tool schemas are cut down to the OpenAPI subset the API accepts (see [`gemini_schema`]).
//! Calls without an id get stable ids from the loop (`call_<turn>_<i>`), which then travel in
//! `functionCall.id` / `functionResponse.id`.

use super::{strip_slash, u64_at, ModelReply, ModelRequest, ProviderConfig, Style, ToolChoice};
use crate::dialect::Transcript;
use crate::error::{Code, Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use serde::Serialize;
use serde_json::{json, Map, Value};

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let base = strip_slash(&cfg.base_url);
    let root = if base.ends_with("/v1beta") || base.ends_with("/v1") { base.to_string() } else { format!("{base}/v1beta") };
    let url = if req.stream {
        format!("{root}/models/{}:streamGenerateContent?alt=sse", cfg.model)
    } else {
        format!("{root}/models/{}:generateContent", cfg.model)
    };
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-goog-api-key".to_string(), k.to_string()));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));
    let system = super::hoisted_system(req);
    let declarations: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "parameters": gemini_schema(&t.input_schema)}))
        .collect();
    let body = Body {
        contents: Transcript { messages: req.messages, style: Style::Gemini },
        system_instruction: (!system.is_empty()).then(|| json!({"parts": [{"text": system}]})),
        tool_config: (!declarations.is_empty()).then(|| {
            let config = match req.tool_choice {
                ToolChoice::Given(c) => gemini_choice(c),
                _ => json!({"mode": "AUTO"}),
            };
            json!({"functionCallingConfig": config})
        }),
        tools: (!declarations.is_empty()).then(|| json!([{"functionDeclarations": declarations}])),
        generation_config: req.max_tokens.map(|n| json!({"maxOutputTokens": n})),
    };
    (url, headers, serde_json::to_string(&body).unwrap_or_default())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    contents: Transcript<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system_instruction: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_config: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generation_config: Option<Value>,
}

fn gemini_choice(choice: &Value) -> Value {
    if let Some(name) = super::forced(choice) {
        return json!({"mode": "ANY", "allowedFunctionNames": [name]});
    }
    match choice.as_str() {
        Some("required" | "any") => json!({"mode": "ANY"}),
        Some("none") => json!({"mode": "NONE"}),
        _ => json!({"mode": "AUTO"}),
    }
}

/// JSON Schema → the OpenAPI subset Gemini's `parameters` accepts. Dropped: keywords it rejects
/// (`additionalProperties`, `$schema`, `$id`, `$ref`, `$defs`, `definitions`,
/// `patternProperties`, `unevaluatedProperties`, `dependencies`, `examples`, `default`).
/// Translated: `const: x` → `enum: [x]`, `type: [T, "null"]` → `type: T, nullable: true`.
pub fn gemini_schema(schema: &Value) -> Value {
    const DROP: [&str; 11] = ["additionalProperties", "$schema", "$id", "$ref", "$defs", "definitions", "patternProperties",
        "unevaluatedProperties", "dependencies", "examples", "default"];
    let Value::Object(o) = schema else { return schema.clone() };
    let mut out = Map::new();
    for (k, v) in o {
        if DROP.contains(&k.as_str()) {
            continue;
        }
        match (k.as_str(), v) {
            ("const", c) => {
                out.insert("enum".into(), json!([c]));
            }
            ("type", Value::Array(types)) => {
                let non_null: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
                if non_null.len() < types.len() {
                    out.insert("nullable".into(), json!(true));
                }
                if let Some(t) = non_null.first() {
                    out.insert("type".into(), (*t).clone());
                }
            }
            ("properties", Value::Object(props)) => {
                out.insert(k.clone(), Value::Object(props.iter().map(|(n, s)| (n.clone(), gemini_schema(s))).collect()));
            }
            ("items", s) => {
                out.insert(k.clone(), gemini_schema(s));
            }
            ("anyOf" | "oneOf", Value::Array(list)) => {
                out.insert("anyOf".into(), Value::Array(list.iter().map(gemini_schema).collect()));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    // An object without properties is rejected by some model versions; give it an empty map.
    if out.get("type").and_then(Value::as_str) == Some("object") && !out.contains_key("properties") {
        out.insert("properties".into(), json!({}));
    }
    Value::Object(out)
}

/// Finish reasons that mean the model's answer was withheld.
fn blocked(reason: &str) -> bool {
    matches!(reason, "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY")
}

pub(super) fn usage_of(v: &Value) -> Usage {
    let Some(u) = v.get("usageMetadata").filter(|u| u.is_object()) else { return Usage::default() };
    let (p, c) = (u64_at(u, "promptTokenCount"), u64_at(u, "candidatesTokenCount"));
    Usage { prompt_tokens: p, completion_tokens: c, total_tokens: u.get("totalTokenCount").and_then(Value::as_u64).unwrap_or(p + c) }
}

/// Text and calls of one (partial) response's first candidate; the finish reason if present.
pub(super) fn candidate(v: &Value, turn: &mut AssistantTurn) -> Result<Option<String>> {
    let Some(c) = v.get("candidates").and_then(Value::as_array).and_then(|c| c.first()) else {
        if let Some(reason) = v.get("promptFeedback").and_then(|f| f.get("blockReason")).and_then(Value::as_str) {
            return Err(Error::new(Code::ProviderError, format!("Gemini blocked the prompt: {reason}")));
        }
        return Ok(None);
    };
    for p in c.get("content").and_then(|c| c.get("parts")).and_then(Value::as_array).into_iter().flatten() {
        if p.get("thought").and_then(Value::as_bool) == Some(true) {
            continue; // thinking summaries are not part of the answer
        }
        if let Some(t) = p.get("text").and_then(Value::as_str) {
            turn.text.push_str(t);
        } else if let Some(f) = p.get("functionCall") {
            let name = f.get("name").and_then(Value::as_str).ok_or_else(|| Error::parse("Gemini functionCall has no name"))?;
            turn.calls.push(ToolCall {
                id: f.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                name: name.to_string(),
                arguments: f.get("args").map(Value::to_string).unwrap_or_else(|| "{}".into()),
            });
        }
    }
    let reason = c.get("finishReason").and_then(Value::as_str).map(str::to_string);
    if let Some(r) = reason.as_deref().filter(|r| blocked(r)) {
        if turn.text.is_empty() && turn.calls.is_empty() {
            return Err(Error::new(Code::ProviderError, format!("Gemini withheld the answer: finishReason {r}")));
        }
    }
    Ok(reason)
}

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    if v.get("candidates").is_none() && v.get("promptFeedback").is_none() {
        return Err(Error::parse("Gemini reply has no candidates"));
    }
    let mut turn = AssistantTurn::default();
    let reason = candidate(v, &mut turn)?;
    if reason.is_none() && turn.text.is_empty() && turn.calls.is_empty() {
        return Err(Error::parse("Gemini reply has an empty candidate list"));
    }
    Ok(ModelReply { turn, stop_reason: reason, usage: usage_of(v) })
}
