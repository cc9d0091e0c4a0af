//! Reading small JSON objects field by field. Each `serde_json::from_value::<T>` compiles a whole
//! deserializer into the wasm; the handful of shapes the edge reads from hosts (requests,
//! answers, relay calls and results, tool declarations, stored states) are read here instead.

use serde_json::{Map, Value};

// Messages are joined with `concat` rather than `format!`: each `format!` site compiles its own
// argument table into the wasm, and these run for every field of every host shape.
fn must(what: &str, key: &str, be: &str) -> String {
    [what, ".", key, " must be ", be].concat()
}

pub type Fields<'a> = &'a Map<String, Value>;

pub fn object<'a>(v: &'a Value, what: &str) -> Result<Fields<'a>, String> {
    v.as_object().ok_or_else(|| [what, " must be an object"].concat())
}

/// A string field; `null` or absent is `None`.
pub fn opt_str(o: Fields, key: &str, what: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(must(what, key, "a string")),
    }
}

pub fn str_or_empty(o: Fields, key: &str, what: &str) -> Result<String, String> {
    Ok(opt_str(o, key, what)?.unwrap_or_default())
}

pub fn opt_bool(o: Fields, key: &str, what: &str) -> Result<Option<bool>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(must(what, key, "a boolean")),
    }
}

pub fn opt_object(o: Fields, key: &str, what: &str) -> Result<Option<Map<String, Value>>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m.clone())),
        Some(_) => Err(must(what, key, "an object")),
    }
}

pub fn array<'a>(o: Fields<'a>, key: &str, what: &str) -> Result<&'a Vec<Value>, String> {
    o.get(key).and_then(Value::as_array).ok_or_else(|| must(what, key, "an array"))
}
