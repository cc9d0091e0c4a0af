//! JS ⇄ Rust value conversion and error mapping for the edge. Decoding happens inside function
//! bodies with `?`, so a bad JS value is a typed error, never a throw past Rust frames.

use crate::error::{Code, Error, Result};
use js_sys::{Function, Reflect, JSON};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// Rust data to a JS value through JSON text: `JSON.parse` of one string is much cheaper than
/// building the object graph field by field across the boundary, and gives plain objects (never
/// ES `Map`s), so results survive `JSON.stringify`.
/// Values only, written by `json::to_text`: serde's serializers are not linked at all.
pub fn to_js(v: &Value) -> Result<JsValue> {
    JSON::parse(&crate::json::to_text(v)).map_err(|_| Error::internal("JSON.parse refused our own output"))
}

/// A JS value to JSON data, with `JSON.stringify` semantics (functions and symbols inside objects
/// are dropped). A value that is not JSON data at all (a function, a symbol, a BigInt, a cycle)
/// is an error naming `what`.
pub fn from_js(v: &JsValue, what: &str) -> Result<Value> {
    if v.is_undefined() {
        return Ok(Value::Null);
    }
    // The common tool return: one copy, no JSON round trip.
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    let text = JSON::stringify(v).ok().and_then(|s| s.as_string()).ok_or_else(|| Error::bad_input(format!("{what} is not JSON data")))?;
    serde_json::from_str(&text).map_err(|e| Error::bad_input(format!("{what} is not JSON data: {e}")))
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    // Functions have properties too (`AbortSignal.timeout`), but `typeof` says "function".
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn opt_string(obj: &JsValue, key: &str, what: &str) -> Result<Option<String>> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| Error::bad_input(format!("{what}.{key} must be a string")))
}

pub fn opt_function(obj: &JsValue, key: &str, what: &str) -> Result<Option<Function>> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.dyn_into::<Function>().map(Some).map_err(|_| Error::bad_input(format!("{what}.{key} must be a function")))
}

/// A JS `Error` whose `code` property is the stable error code (and `status` for HTTP errors).
pub fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("ToolnexusError");
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    if let Some(s) = e.status {
        let _ = Reflect::set(&err, &"status".into(), &JsValue::from(s));
    }
    err.into()
}

/// The message of whatever a JS callback threw (an Error's message, or the value as text).
pub fn thrown_message(v: &JsValue) -> String {
    if let Some(e) = v.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    if let Some(s) = v.as_string() {
        return s;
    }
    js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "unknown error".into())
}

/// An error thrown back into Rust from JS: keep a `ToolnexusError`'s code, otherwise wrap it.
pub fn from_thrown(v: &JsValue, code: Code, context: &str) -> Error {
    let name = get(v, "name").as_string().unwrap_or_default();
    if name == "AbortError" || name == "TimeoutError" {
        return Error::new(Code::Aborted, format!("{context}: aborted"));
    }
    // A store's refusal keeps its meaning: the caller must see `conflict`, not a store failure.
    if get(v, "code").as_string().as_deref() == Some("conflict") {
        return Error::conflict(thrown_message(v));
    }
    Error::new(code, format!("{context}: {}", thrown_message(v)))
}
pub type JsResult<T> = std::result::Result<T, JsValue>;

/// Awaits whatever a JS call returned (a value or a Promise); a throw or a rejection is `Err`.
pub async fn settle(call: std::result::Result<JsValue, JsValue>) -> std::result::Result<JsValue, JsValue> {
    match call {
        // Only an object can be a thenable: a plain value needs no promise hop.
        Ok(v) if !v.is_object() && !v.is_function() => Ok(v),
        Ok(v) => wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&v)).await,
        Err(e) => Err(e),
    }
}
