//! What both wasm entries' edges share (the loop's `src/wasm/`, the MCP entry's `src/wasm_mcp/`):
//! JS ⇄ Rust value conversion, error mapping, and the bindings of host.js (one module in the
//! package for both entries) that both call. Decoding happens inside function bodies with `?`, so
//! a bad JS value is a typed error, never a throw past Rust frames.

use crate::error::{Code, Error, Result};
use crate::prelude::*;
use js_sys::{Function, Promise, Reflect, JSON};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// The message of whatever a JS callback threw (an Error's message, or the value as text),
    /// read in host.js so that no value can throw while it is read.
    #[wasm_bindgen(js_name = messageOf)]
    pub fn thrown_message(thrown: &JsValue) -> String;
    fn awaited(v: &JsValue) -> Promise;
    /// A run's result from its two texts (`RunResult::to_json_parts`); `messages` is parsed on
    /// first read, in JS: the getter never enters the wasm.
    #[wasm_bindgen(js_name = runResult)]
    fn run_result(text: &str, messages: &str) -> JsValue;
    /// The package's one error helper, `fail(code, message, status)`.
    fn fail(code: &str, message: &str, status: Option<u16>) -> JsValue;
    /// Ends a run's signal: its deadline timer and its listener on the caller's signal go.
    #[wasm_bindgen(js_name = endRun)]
    pub fn end_run(signal: &JsValue);
    /// 0 running, 1 aborted, 2 past its deadline.
    #[wasm_bindgen(js_name = abortState)]
    pub fn abort_state(signal: &JsValue) -> u8;
    /// Resolves after `ms`, or (without `ms`) never; at once when the run aborts or ends.
    pub fn sleep(ms: Option<f64>, signal: &JsValue) -> Promise;
    /// The next bytes of a body: `undefined` at its end, `false` past `max` bytes (the body is
    /// cancelled then).
    #[wasm_bindgen(js_name = readChunk)]
    pub fn read_chunk(reader: &JsValue, max: f64, signal: &JsValue) -> Promise;
}

/// Rust data to a JS value through JSON text: `JSON.parse` of one string is much cheaper than
/// building the object graph field by field across the boundary, and gives plain objects (never
/// ES `Map`s), so results survive `JSON.stringify`.
/// Values only, written by `json::to_text`: serde's serializers are not linked at all.
pub fn to_js(v: &Value) -> Result<JsValue> {
    JSON::parse(&crate::json::to_text(v)).map_err(|_| Error::internal("JSON.parse refused our own output"))
}

/// A run's result as the caller gets it, its `messages` rendered to JSON text but parsed only
/// when read.
pub fn result_to_js(r: &crate::run::RunResult) -> JsValue {
    let (text, messages) = r.to_json_parts();
    run_result(&text, &messages)
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
    crate::json::parse(&text).map_err(|e| Error::bad_input(format!("{what} is not JSON data: {e}")))
}

/// `obj[key]`; `undefined` for a value that has no properties, and for a getter that throws (or
/// a revoked Proxy): the reader then refuses the missing value with a typed error.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    // Functions have properties too (`AbortSignal.timeout`), but `typeof` says "function".
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string parameter (a prompt, an id, a name); with `optional`, `undefined` and `null` are
/// none. Any other value is `bad_input` with the message `refusal`.
pub fn string_arg(v: &JsValue, optional: bool, refusal: &'static str) -> Result<Option<String>> {
    match v.as_string() {
        None if !(optional && (v.is_undefined() || v.is_null())) => Err(Error::bad_input(refusal)),
        s => Ok(s),
    }
}

/// The strings of an array of keys (from `keysOf` or `runOptions`), anything else skipped.
pub fn strings(list: &js_sys::Array) -> Vec<String> {
    let mut out = Vec::with_capacity(list.length() as usize);
    for i in 0..list.length() {
        if let Some(k) = list.get(i).as_string() {
            out.push(k);
        }
    }
    out
}

pub fn opt_function(obj: &JsValue, key: &str, what: &str) -> Result<Option<Function>> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.dyn_into::<Function>().map(Some).map_err(|_| Error::bad_input(format!("{what}.{key} must be a function")))
}

/// A JS `Error` named `ToolnexusError` whose `code` property is the stable error code (and
/// `status` for HTTP errors), made in host.js (`fail`) in one crossing.
pub fn js_error(e: Error) -> JsValue {
    fail(e.code(), &e.message, e.status)
}

/// An error thrown back into Rust from JS, read by the core (`Error::thrown`).
pub fn from_thrown(v: &JsValue, code: Code, context: &str) -> Error {
    let text = |k| get(v, k).as_string();
    Error::thrown(text("name").as_deref(), text("code").as_deref(), || thrown_message(v), code, context)
}
pub type JsResult<T> = core::result::Result<T, JsValue>;

/// Awaits `p`, a native Promise made by the edge's JS helpers (wasm-bindgen-futures' `JsFuture`:
/// `Ok` with its value, `Err` with what it rejected with). Its two callbacks are freed when the
/// promise settles, which is why every promise a run awaits is guarded by the run's signal: each
/// settles by the run's end, so none is left holding them.
pub fn await_js(p: &JsValue) -> wasm_bindgen_futures::JsFuture {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::unchecked_from_js(p.clone()))
}

/// Awaits whatever a JS call returned (a value or a Promise); a throw or a rejection is `Err`.
/// A thenable is awaited through a promise of our own (`awaited`), never through its own `then`.
pub async fn settle(call: core::result::Result<JsValue, JsValue>) -> core::result::Result<JsValue, JsValue> {
    match call {
        // Only an object can be a thenable: a plain value needs no promise hop.
        Ok(v) if !v.is_object() && !v.is_function() => Ok(v),
        Ok(v) => await_js(&awaited(&v)).await,
        Err(e) => Err(e),
    }
}
