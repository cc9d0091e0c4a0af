//! JSON as the core uses it: the JSON crate's reader and writers (`crates/json`, re-exported
//! whole), and readers of small host objects field by field with the messages they refuse with.
//! Each `serde_json::from_value::<T>` compiles a whole deserializer into the wasm; the handful of
//! shapes the edge reads from hosts (requests, answers, relay calls and results, tool
//! declarations, stored states) are read here instead.

use crate::prelude::*;
use serde_json::{Map, Value};
pub use toolnexus_json::*;

// One function for the message of every field of every host shape.
fn must(what: &str, key: &str, be: &str) -> String {
    format!("{what}.{key} must be {be}")
}

pub type Fields<'a> = &'a Map<String, Value>;

/// An object of these fields in this order: what `json!` builds, without a serde round per field
/// and without the `to_value(..).unwrap()` each `json!` field brings.
pub fn obj(fields: Vec<(&str, Value)>) -> Value {
    let mut o = Map::with_capacity(fields.len());
    for (k, v) in fields {
        o.insert(k.into(), v);
    }
    Value::Object(o)
}

/// The string at `key` of an object, if there is one: `v.get(key).and_then(Value::as_str)`.
pub fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str()
}

/// The string at `key` of a map, if there is one.
pub fn str_in<'a>(o: Fields<'a>, key: &str) -> Option<&'a str> {
    o.get(key)?.as_str()
}

pub fn object<'a>(v: &'a Value, what: &str) -> Result<Fields<'a>, String> {
    v.as_object().ok_or_else(|| format!("{what} must be an object"))
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
