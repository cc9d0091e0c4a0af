//! The wasm edge: decode JS values, call the core, encode results, map errors to JS `Error`s
//! with a stable `code`. Nothing here decides loop behaviour. No `unwrap` or `expect`: a panic
//! would trap and poison the instance, so every failure is a typed error.
//!
//! Three exports: `createClient`, the client's `op` (client.rs) and `op` here, which serves
//! every function of the API that holds no state. pkg-template/api.js gives each kind its name:
//! each export of its own would be glue JS and a wasm shim.

mod client;
mod convert;
mod hooks;
mod host;
mod store;
mod stream;
mod toolkit;

pub use client::{create_client, Client};
pub use store::check_revision;
pub use stream::EventStream;
pub use toolkit::{define_tool, drop_toolkit, relay_tool, toolkit_id};

use crate::error::{Error, Result};
use crate::suspend::{self, IdGen, Request};
use convert::{from_js, js_error, string_arg, to_js, JsResult};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

// The data shapes, written once in TypeScript and pulled into the generated .d.ts.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

thread_local! {
    static IDS: Rc<IdGen> = Rc::new(IdGen::new(Box::new(|| js_sys::Date::now() as u64)));
}

pub(crate) fn ids() -> Rc<IdGen> {
    IDS.with(Rc::clone)
}

/// The functions of the API that hold no state, by kind, in the order of `OPS` in
/// pkg-template/api.js (typed in pkg-template/index.d.ts).
#[wasm_bindgen(skip_typescript)]
pub fn op(kind: u8, a: JsValue, b: JsValue, c: JsValue) -> JsResult<JsValue> {
    match kind {
        0 => pending(&a),
        1 => auth_required(&a, &b),
        2 => Ok(is_relay_request(&a).into()),
        3 => relay_calls_of(&a),
        4 => relay_answer(&a, &b),
        5 => check_revision(&a, &b).map(|_| JsValue::UNDEFINED),
        6 => define_tool(&a),
        7 => relay_tool(&a, &b, &c),
        8 => toolkit_id(&a, &b).map(JsValue::from),
        9 => Ok(drop_toolkit(&a)),
        _ => Err(Error::internal("no such operation")),
    }
    .map_err(js_error)
}

fn request_of(v: &JsValue, what: &str) -> Result<Request> {
    Request::from_host(v.is_object().then(|| from_js(v, what)).transpose()?.as_ref(), what)
}

/// `pending({ kind, prompt, url?, data? })`, returned from a tool's `run`, suspends the call. A
/// missing `id` is generated (`pnd-…`).
pub fn pending(request: &JsValue) -> Result<JsValue> {
    to_js(&suspend::pending_result(request_of(request, "pending(request)")?, &ids()).to_value())
}

/// `authRequired(url, prompt?)`: `pending({ kind: "authorization", prompt, url })`.
pub fn auth_required(url: &JsValue, prompt: &JsValue) -> Result<JsValue> {
    let prompt = string_arg(prompt, true, "authRequired: prompt must be a string")?;
    let url = string_arg(url, false, "authRequired: url must be a string")?.unwrap_or_default();
    to_js(&suspend::pending_result(suspend::auth_required(&url, prompt.as_deref()), &ids()).to_value())
}

/// Whether a request is a relay tool call (`kind === "tool_call"`).
pub fn is_relay_request(request: &JsValue) -> bool {
    request_of(request, "request").map(|r| r.is_relay()).unwrap_or(false)
}

/// The relay calls a request carries (`data.calls`), in call order; `[]` for other requests.
pub fn relay_calls_of(request: &JsValue) -> Result<JsValue> {
    let req = request_of(request, "request")?;
    let calls = if req.is_relay() { req.relay_calls() } else { Vec::new() };
    to_js(&serde_json::Value::Array(calls.into_iter().map(suspend::RelayCall::into_value).collect()))
}

/// `relayAnswer(requestId, results)`: `{ id: requestId, ok: true, data: { results } }`.
pub fn relay_answer(request_id: &JsValue, results: &JsValue) -> Result<JsValue> {
    let id = string_arg(request_id, false, "relayAnswer: requestId must be a string")?.unwrap_or_default();
    to_js(&suspend::relay_answer(&id, suspend::relay_results_from_json(&from_js(results, "results")?)?).into_value())
}
