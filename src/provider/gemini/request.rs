//! The Gemini request: the model in the URL, `x-goog-api-key`, `contents`, `systemInstruction`,
//! one `functionDeclarations` tool with its `toolConfig`, and `generationConfig` for a token cap.

use super::dialect::Contents;
use super::schema::gemini_schema;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash};
use serde::Serialize;
use serde_json::{json, Value};

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
    let system = hoisted_system(req);
    let declarations: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "parameters": gemini_schema(&t.input_schema)}))
        .collect();
    let body = Body {
        contents: Contents(req.messages),
        system_instruction: (!system.is_empty()).then(|| json!({"parts": [{"text": system}]})),
        tool_config: (!declarations.is_empty()).then(|| {
            let config = match req.tool_choice {
                ToolChoice::Given(c) => choice(c),
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
    contents: Contents<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system_instruction: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_config: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generation_config: Option<Value>,
}

/// An OpenAI-style choice as `functionCallingConfig`: `ANY` (with `allowedFunctionNames` for a
/// forced function), `NONE`, or `AUTO`.
fn choice(choice: &Value) -> Value {
    if let Some(name) = forced(choice) {
        return json!({"mode": "ANY", "allowedFunctionNames": [name]});
    }
    match choice.as_str() {
        Some("required" | "any") => json!({"mode": "ANY"}),
        Some("none") => json!({"mode": "NONE"}),
        _ => json!({"mode": "AUTO"}),
    }
}
