//! What a server's listing and call results mean to the model, by the reference's rules: a tool
//! is named `<server>_<tool>` (each part sanitised) with an object schema that allows no extra
//! properties; an error result is its non-blank text parts joined by a blank line, a structured
//! result is its JSON, any other result its text parts joined by a newline. Parts that are not
//! text (images, audio, resource links, embedded resources) are kept as they came in
//! `metadata.content`; its images also become the result's `parts`, so the model sees them.

use crate::json;
use crate::part::{Image, Part};
use crate::sources::text::unique_names;
use crate::tool::{sanitize_name, ToolResult};
use serde_json::{Map, Value};

/// One tool as the server listed it (its own name, not the prefixed one).
#[derive(Clone, Debug, PartialEq)]
pub struct McpTool {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

impl McpTool {
    /// One entry of `tools/list` (or of a saved listing); `None` without a name.
    pub fn from_listing(v: &Value) -> Option<McpTool> {
        let name = v.get("name")?.as_str().filter(|s| !s.is_empty())?.to_string();
        let description = v.get("description").and_then(Value::as_str).unwrap_or("").to_string();
        let input_schema = v.get("inputSchema").filter(|s| s.is_object()).cloned().unwrap_or_else(|| Value::Object(Map::new()));
        Some(McpTool { name, description, input_schema })
    }

    pub fn to_value(&self) -> Value {
        json::obj(vec![
            ("name", self.name.as_str().into()),
            ("description", self.description.as_str().into()),
            ("inputSchema", self.input_schema.clone()),
        ])
    }

    /// The name the model sees.
    pub fn prefixed_name(&self, server: &str) -> String {
        let mut name = sanitize_name(server);
        name.push('_');
        name.push_str(&sanitize_name(&self.name));
        name
    }

    /// The declaration for a toolkit: `{ name, description, inputSchema, source: "mcp" }`. The
    /// schema keeps what the server wrote, with `type: "object"`, `properties` (empty when
    /// absent) and `additionalProperties: false` forced.
    pub fn declaration(&self, server: &str) -> Value {
        let mut schema = self.input_schema.as_object().cloned().unwrap_or_default();
        let props = schema.get("properties").filter(|p| p.is_object()).cloned().unwrap_or_else(|| Value::Object(Map::new()));
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), props);
        schema.insert("additionalProperties".into(), false.into());
        json::obj(vec![
            ("name", self.prefixed_name(server).into()),
            ("description", self.description.as_str().into()),
            ("inputSchema", Value::Object(schema)),
            ("source", "mcp".into()),
        ])
    }
}

/// The declarations of a listing, named so that each name is unique and at most [`MAX_NAME_LEN`]
/// characters, deterministically (the same listing always gives the same names, which a saved
/// state relies on): a name too long is cut and given `_` plus a hash of the whole name; a name
/// already taken (the server listed it twice, or two names sanitise alike) gets `_2`, `_3`, ….
/// A clash used to make the toolkit refuse the whole server; a 10 KB name reached the model.
pub fn declarations(server: &str, tools: &[McpTool]) -> Vec<Value> {
    let names = unique_names(tools.iter().map(|t| t.prefixed_name(server)).collect());
    tools
        .iter()
        .zip(names)
        .map(|(t, name)| {
            let mut d = t.declaration(server);
            if let Value::Object(o) = &mut d {
                o.insert("name".into(), name.into());
            }
            d
        })
        .collect()
}

/// A `tools/call` result as the tool result the model sees.
pub fn call_result(server: &str, result: &Value) -> ToolResult {
    // A result must be an object with a `content` array (or structured content): anything else
    // read as an empty success, and the model took "nothing" for the tool's answer.
    let structured = result.get("structuredContent").filter(|s| !s.is_null());
    let content = result.get("content").and_then(Value::as_array);
    if !result.is_object() || (content.is_none() && structured.is_none()) {
        let what = if result.is_null() { "no result" } else { "a result without a content array" };
        return failed(server, format!("MCP server {server}: tools/call returned {what}"));
    }
    // One pass over the parts, each one's `type` read once: its text, or the part kept as it came
    // (and an image also for the model).
    let (mut texts, mut others, mut images) = (Vec::new(), Vec::new(), Vec::new());
    for p in content.map_or(&[][..], Vec::as_slice) {
        match p.get("type").and_then(Value::as_str) {
            Some("text") => texts.extend(p.get("text").and_then(Value::as_str)),
            kind => {
                if kind == Some("image") {
                    images.push(p);
                }
                others.push(p.clone());
            }
        }
    }
    let mut meta = Map::new();
    meta.insert("server".into(), server.into());
    if !others.is_empty() {
        meta.insert("content".into(), Value::Array(others));
    }
    let (output, is_error) = if result.get("isError").and_then(Value::as_bool) == Some(true) {
        texts.retain(|t| !t.trim().is_empty());
        let text = if texts.is_empty() { "MCP tool returned an error".to_string() } else { texts.join("\n\n") };
        (text, true)
    } else {
        match structured {
            Some(s) => (json::to_text(s), false),
            None => (texts.join("\n"), false),
        }
    };
    let (parts, notes) = image_parts(&images);
    let output = if notes.is_empty() {
        output
    } else {
        let mut all: Vec<&str> = Vec::with_capacity(notes.len() + 1);
        if !output.is_empty() {
            all.push(&output);
        }
        all.extend(notes.iter().map(String::as_str));
        all.join("\n\n")
    };
    ToolResult { output, is_error, metadata: Some(meta), parts }
}

/// The image content as parts for the model, checked by the rules every image in a transcript
/// follows; an image no provider would take (another type, no data) cannot be a part, so it
/// becomes a note for the text output instead of vanishing.
fn image_parts(images: &[&Value]) -> (Vec<Part>, Vec<String>) {
    let (mut parts, mut notes) = (Vec::new(), Vec::new());
    for p in images {
        let (data, mt) = (p.get("data").and_then(Value::as_str), p.get("mimeType").and_then(Value::as_str));
        // Line breaks (MIME style) are dropped; any other non-base64 byte, or a wrong length, and
        // the provider would refuse the whole request, so it is a note, not an image.
        let data: String = data.unwrap_or_default().chars().filter(|c| !c.is_ascii_whitespace()).collect();
        if !data.is_empty() && !is_base64(&data) {
            notes.push("[an image was not sent to the model: its data is not valid base64]".into());
            continue;
        }
        match Image::new(Some(&data), None, mt) {
            Ok(image) => parts.push(Part::Image(image)),
            Err(e) => notes.push(format!("[an image was not sent to the model: {e}]")),
        }
    }
    (parts, notes)
}

/// Standard base64 with its padding: length a multiple of 4, `=` only at the end (at most two).
fn is_base64(s: &str) -> bool {
    let body = s.trim_end_matches('=');
    s.len() % 4 == 0 && s.len() - body.len() <= 2 && body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// A call that failed before the server gave a result (transport, protocol, timeout): an error
/// result the model sees, as the reference reports a thrown call.
pub fn failed(server: &str, message: String) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("server".into(), server.into());
    ToolResult { output: message, is_error: true, metadata: Some(meta), parts: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::MAX_NAME_LEN;
    use serde_json::json;

    #[test]
    fn names_are_unique_short_and_stable() {
        let long = "t".repeat(10_000);
        let tools: Vec<McpTool> = ["dup", "dup", "a b", "a_b", &long, &(long.clone() + "x"), "dup_2"]
            .iter()
            .map(|n| McpTool::from_listing(&json!({ "name": n })).unwrap())
            .collect();
        let names: Vec<String> = declarations("s", &tools).iter().map(|d| d["name"].as_str().unwrap().to_string()).collect();
        assert_eq!(&names[..4], ["s_dup", "s_dup_2", "s_a_b", "s_a_b_2"]);
        assert!(names.iter().all(|n| n.len() <= MAX_NAME_LEN), "{names:?}");
        assert_ne!(names[4], names[5], "long names differ by their hash");
        assert_eq!(names[6], "s_dup_2_2", "a listed name equal to a made one is made unique too");
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(declarations("s", &tools).iter().map(|d| d["name"].clone()).collect::<Vec<_>>(), names, "deterministic");
        // a long base still leaves room for the suffix
        let both = unique_names(vec!["x".repeat(64), "x".repeat(64)]);
        assert_eq!((both[0].len(), both[1].len(), both[1].ends_with("_2")), (64, 64, true));
    }

    #[test]
    fn a_missing_or_wrong_result_is_an_error() {
        for (r, why) in [
            (json!(null), "no result"),
            (json!("x"), "a result without a content array"),
            (json!({"content": "x"}), "a result without a content array"),
        ] {
            let t = call_result("s", &r);
            assert_eq!((t.output.as_str(), t.is_error), (&*format!("MCP server s: tools/call returned {why}"), true));
        }
        assert!(!call_result("s", &json!({"content": []})).is_error);
        assert_eq!(call_result("s", &json!({"structuredContent": {"a": 1}})).output, r#"{"a":1}"#);
    }

    #[test]
    fn an_image_with_invalid_base64_is_a_note() {
        let img = |data: &str| json!({"content": [{"type": "image", "data": data, "mimeType": "image/png"}]});
        for bad in ["not base64!", "abc", "ab=c", "a==="] {
            let t = call_result("s", &img(bad));
            assert!(t.parts.is_empty(), "{bad}");
            assert_eq!(t.output, "[an image was not sent to the model: its data is not valid base64]");
        }
        let t = call_result("s", &img("iVBO\nRw0K"));
        assert_eq!(t.parts.len(), 1, "line breaks are dropped");
        assert_eq!(call_result("s", &img("iVBORw0KGgo=")).parts.len(), 1);
    }
}
