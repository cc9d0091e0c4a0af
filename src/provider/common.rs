//! Small pieces more than one adapter uses: the hoisted system prompt, the text of an
//! OpenAI/Anthropic `content`, and JSON field helpers. Nothing here knows a particular provider,
//! so every adapter folder may import it.

use super::call::ModelRequest;
use crate::json::str_at;
use crate::json::Obj;
use crate::message::Message;
use crate::part::{read_parts, text_of, Part};
use crate::prelude::*;
use crate::tool::ToolSpec;
use serde_json::Value;

/// For styles whose system prompt is a body field (Anthropic `system`, Gemini
/// `systemInstruction`): the configured prompt plus any system messages a transcript from the
/// OpenAI dialect carried, without repeating one.
pub(crate) fn hoisted_system(req: &ModelRequest) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if !req.system.is_empty() {
        parts.push(req.system);
    }
    for m in req.messages {
        if let Message::System(s) = m {
            if !s.is_empty() && !parts.contains(&s.as_str()) {
                parts.push(s);
            }
        }
    }
    crate::small::join(&parts, "\n\n")
}

/// The function name of an OpenAI-style forced choice (`{ function: { name } }`).
pub(crate) fn forced(choice: &Value) -> Option<&str> {
    choice.get("function").and_then(|f| f.get("name")).and_then(Value::as_str)
}

/// A string stays as is; an array of parts gives its concatenated `text`; anything else is "".
pub fn flatten(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            let mut out = String::new();
            for t in parts.iter().filter_map(|p| str_at(p, "text")) {
                out.push_str(t);
            }
            out
        }
        _ => String::new(),
    }
}

/// A tool result's content: its text (the text parts joined) and its image parts, read in any
/// dialect's shape; a part that is neither is an error.
pub(crate) fn split_content(content: &Value) -> Result<(String, Vec<Part>), String> {
    if !content.is_array() {
        return Ok((flatten(content), Vec::new()));
    }
    let mut parts = read_parts(content, "content")?;
    let text = text_of(&parts);
    parts.retain(|p| matches!(p, Part::Image(_)));
    Ok((text, parts))
}

/// Gemini's thought signature on an OpenAI-compatible tool call
/// (`extra_content.google.thought_signature`). By `get`: a JSON pointer links `str::split`.
pub(crate) fn google_signature(call: &Value) -> Option<&str> {
    call.get("extra_content")?.get("google")?.get("thought_signature")?.as_str()
}

pub(crate) fn u64_at(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

pub(crate) fn str_field(v: &Value, key: &str) -> String {
    str_at(v, key).unwrap_or_default().to_string()
}

pub(crate) fn strip_slash(base: &str) -> &str {
    base.trim_end_matches('/')
}

/// One tool declaration's fields, `"name":…,"description":…,"<schema_key>":<schema>`, as every
/// provider declares a function; the caller writes what wraps them (OpenAI's
/// `{"type":"function","function":{…}}`, Responses' `"type"` and `"strict"` around them).
pub(crate) fn write_tool_decl(o: &mut Obj, t: &ToolSpec, schema_key: &str, schema: &Value) {
    o.str("name", &t.name).str("description", &t.description).value(schema_key, schema);
}
