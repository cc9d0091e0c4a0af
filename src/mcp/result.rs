//! What a server's listing and call results mean to the model, by the reference's rules: a tool
//! is named `<server>_<tool>` (each part sanitised) with an object schema that allows no extra
//! properties; an error result is its non-blank text parts joined by a blank line, a structured
//! result is its JSON, any other result its text parts joined by a newline. Parts that are not
//! text (images, audio, resource links, embedded resources) are kept as they came in
//! `metadata.content`; its images also become the result's `parts`, so the model sees them.

use crate::json;
use crate::part::{Image, Part};
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

fn texts(content: Option<&Value>) -> Vec<&str> {
    let parts = content.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    parts.iter().filter(|p| p.get("type").and_then(Value::as_str) == Some("text")).filter_map(|p| p.get("text")?.as_str()).collect()
}

/// A `tools/call` result as the tool result the model sees.
pub fn call_result(server: &str, result: &Value) -> ToolResult {
    let content = result.get("content");
    let mut meta = Map::new();
    meta.insert("server".into(), server.into());
    let others: Vec<Value> = content
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|p| p.get("type").and_then(Value::as_str) != Some("text"))
        .cloned()
        .collect();
    if !others.is_empty() {
        meta.insert("content".into(), Value::Array(others));
    }
    let (output, is_error) = if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let parts: Vec<&str> = texts(content).into_iter().filter(|t| !t.trim().is_empty()).collect();
        let text = if parts.is_empty() { "MCP tool returned an error".to_string() } else { json::join(&parts, "\n\n") };
        (text, true)
    } else {
        match result.get("structuredContent") {
            Some(s) if !s.is_null() => (json::to_text(s), false),
            _ => (json::join(&texts(content), "\n"), false),
        }
    };
    let (parts, notes) = images(content);
    let output = if notes.is_empty() {
        output
    } else {
        let mut all: Vec<&str> = Vec::with_capacity(notes.len() + 1);
        if !output.is_empty() {
            all.push(&output);
        }
        all.extend(notes.iter().map(String::as_str));
        json::join(&all, "\n\n")
    };
    ToolResult { output, is_error, metadata: Some(meta), parts }
}

/// The image content as parts for the model, checked by the rules every image in a transcript
/// follows; an image no provider would take (another type, no data) cannot be a part, so it
/// becomes a note for the text output instead of vanishing.
fn images(content: Option<&Value>) -> (Vec<Part>, Vec<String>) {
    let (mut parts, mut notes) = (Vec::new(), Vec::new());
    let all = content.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    for p in all.iter().filter(|p| p.get("type").and_then(Value::as_str) == Some("image")) {
        let (data, mt) = (p.get("data").and_then(Value::as_str), p.get("mimeType").and_then(Value::as_str));
        match Image::new(Some(data.unwrap_or_default()), None, mt) {
            Ok(image) => parts.push(Part::Image(image)),
            Err(e) => notes.push(json::join(&["[an image was not sent to the model: ", &e, "]"], "")),
        }
    }
    (parts, notes)
}

/// A call that failed before the server gave a result (transport, protocol, timeout): an error
/// result the model sees, as the reference reports a thrown call.
pub fn failed(server: &str, message: String) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("server".into(), server.into());
    ToolResult { output: message, is_error: true, metadata: Some(meta), parts: Vec::new() }
}
