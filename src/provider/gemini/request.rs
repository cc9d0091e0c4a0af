//! The Gemini request: the model in the URL, `x-goog-api-key`, `contents`, `systemInstruction`,
//! one `functionDeclarations` tool with its `toolConfig`, and `generationConfig` for a token cap.

use super::dialect::render;
use super::schema::gemini_schema;
use crate::json::{write_obj, Obj};
use crate::prelude::*;
use crate::provider::call::{ModelRequest, ProviderConfig, ToolChoice};
use crate::provider::common::{forced, hoisted_system, strip_slash, write_tool_decl};
use serde_json::Value;

pub(super) fn build(cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
    let base = strip_slash(&cfg.base_url);
    let root = if base.ends_with("/v1beta") || base.ends_with("/v1") { base.to_string() } else { format!("{base}/v1beta") };
    let mut url = format!("{root}/models/");
    push_segment(&mut url, &cfg.model);
    url.push_str(if req.stream { ":streamGenerateContent?alt=sse" } else { ":generateContent" });
    let mut headers = Vec::new();
    if let Some(k) = cfg.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-goog-api-key".to_string(), k.to_string()));
    }
    headers.push(("Content-Type".to_string(), "application/json".to_string()));
    let system = hoisted_system(req);
    // The field order: contents, systemInstruction, tools, toolConfig, generationConfig.
    let mut out = String::new();
    write_obj(&mut out, |o| {
        o.value("contents", &Value::Array(render(req.messages, Some(&cfg.model))));
        if !system.is_empty() {
            o.obj("systemInstruction", |s| {
                s.arr("parts", |a| {
                    a.obj(|p| {
                        p.str("text", &system);
                    });
                });
            });
        }
        if !req.tools.is_empty() {
            o.arr("tools", |a| {
                a.obj(|t| {
                    t.arr("functionDeclarations", |a| {
                        for t in req.tools {
                            a.obj(|d| write_tool_decl(d, t, "parameters", &gemini_schema(&t.input_schema)));
                        }
                    });
                });
            });
            o.obj("toolConfig", |c| {
                c.obj("functionCallingConfig", |f| match req.tool_choice {
                    ToolChoice::Given(c) => choice(f, c),
                    _ => {
                        f.str("mode", "AUTO");
                    }
                });
            });
        }
        if let Some(n) = req.max_tokens {
            o.obj("generationConfig", |g| {
                g.u64("maxOutputTokens", n);
            });
        }
    });
    (url, headers, out)
}

/// An OpenAI-style choice as `functionCallingConfig`: `ANY` (with `allowedFunctionNames` for a
/// forced function), `NONE`, or `AUTO`.
fn choice(f: &mut Obj, choice: &Value) {
    if let Some(name) = forced(choice) {
        f.str("mode", "ANY").arr("allowedFunctionNames", |a| {
            a.str(name);
        });
        return;
    }
    f.str(
        "mode",
        match choice.as_str() {
            Some("required" | "any") => "ANY",
            Some("none") => "NONE",
            _ => "AUTO",
        },
    );
}

/// `model` percent-encoded as one URL path segment: every byte but the unreserved ones
/// (`A-Z a-z 0-9 - . _ ~`). `ProviderConfig::check_model` has already refused what could leave
/// the segment even encoded (`..`); this keeps any other byte from meaning anything to the URL.
fn push_segment(url: &mut String, model: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in model.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            url.push(char::from(b));
        } else {
            url.push('%');
            url.push(char::from(HEX[usize::from(b >> 4)]));
            url.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
}
