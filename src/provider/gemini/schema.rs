//! Tool schemas for Gemini: its `parameters` accept only an OpenAPI subset of JSON Schema.

use crate::json::str_in;
use crate::prelude::*;
use serde_json::{json, Map, Value};

/// JSON Schema → the OpenAPI subset Gemini's `parameters` accepts. Dropped: keywords it rejects
/// (`additionalProperties`, `$schema`, `$id`, `$ref`, `$defs`, `definitions`,
/// `patternProperties`, `unevaluatedProperties`, `dependencies`, `examples`, `default`).
/// Translated: `const: x` → `enum: [x]`, `type: [T, "null"]` → `type: T, nullable: true`.
pub fn gemini_schema(schema: &Value) -> Value {
    const DROP: [&str; 11] = [
        "additionalProperties",
        "$schema",
        "$id",
        "$ref",
        "$defs",
        "definitions",
        "patternProperties",
        "unevaluatedProperties",
        "dependencies",
        "examples",
        "default",
    ];
    let Value::Object(o) = schema else { return schema.clone() };
    let mut out = Map::new();
    for (k, v) in o {
        if DROP.contains(&k.as_str()) {
            continue;
        }
        match (k.as_str(), v) {
            ("const", c) => {
                out.insert("enum".into(), Value::Array(vec![c.clone()]));
            }
            ("type", Value::Array(types)) => {
                // Plain loops, no `collect`s: one copy of the code per element type otherwise.
                if types.iter().any(|t| t.as_str() == Some("null")) {
                    out.insert("nullable".into(), Value::Bool(true));
                }
                if let Some(t) = types.iter().find(|t| t.as_str() != Some("null")) {
                    out.insert("type".into(), t.clone());
                }
            }
            ("properties", Value::Object(props)) => {
                let mut m = Map::new();
                for (n, s) in props {
                    m.insert(n.clone(), gemini_schema(s));
                }
                out.insert(k.clone(), Value::Object(m));
            }
            ("items", s) => {
                out.insert(k.clone(), gemini_schema(s));
            }
            ("anyOf" | "oneOf", Value::Array(list)) => {
                let mut l = Vec::with_capacity(list.len());
                for s in list {
                    l.push(gemini_schema(s));
                }
                out.insert("anyOf".into(), Value::Array(l));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    // An object without properties is rejected by some model versions; give it an empty map.
    if str_in(&out, "type") == Some("object") && !out.contains_key("properties") {
        out.insert("properties".into(), json!({}));
    }
    Value::Object(out)
}
