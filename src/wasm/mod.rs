//! The wasm edge: decode JS values, call the core, encode results, map errors to JS `Error`s
//! with a stable `code`. Nothing here decides loop behaviour. No `unwrap` or `expect`: a panic
//! would trap and poison the instance, so every failure is a typed error.

mod client;
mod convert;
mod hooks;
mod host;
mod store;
mod stream;
mod task;
mod toolkit;

pub use client::{create_client, Client};
pub use stream::EventStream;
pub use toolkit::{define_tool, drop_toolkit, relay_tool, toolkit_id};

use crate::error::Error;
use crate::suspend::{self, IdGen, Request};
use convert::{from_js, js_error, string_arg, to_js, JsResult, Text};
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

fn request_of(v: &JsValue, what: &str) -> Result<Request, Error> {
    Request::from_host(v.is_object().then(|| from_js(v, what)).transpose()?.as_ref(), what)
}

/// Suspends a tool call: return `pending({ kind, prompt, url?, data? })` from a tool's `run`.
/// A missing `id` is generated (`pnd-…`).
#[wasm_bindgen(unchecked_return_type = "ToolResult")]
pub fn pending(#[wasm_bindgen(unchecked_param_type = "Partial<Request>")] request: JsValue) -> JsResult<JsValue> {
    let req = request_of(&request, "pending(request)").map_err(js_error)?;
    to_js(&suspend::pending_result(req, &ids()).to_value()).map_err(js_error)
}

/// `pending({ kind: "authorization", prompt, url })`.
#[wasm_bindgen(js_name = authRequired, unchecked_return_type = "ToolResult")]
pub fn auth_required(url: Text, prompt: Option<Text>) -> JsResult<JsValue> {
    let run = || {
        let prompt = string_arg(&prompt.map_or(JsValue::UNDEFINED, Into::into), true, "authRequired: prompt must be a string")?;
        let url = string_arg(&url, false, "authRequired: url must be a string")?.unwrap_or_default();
        let req = suspend::auth_required(&url, prompt.as_deref());
        to_js(&suspend::pending_result(req, &ids()).to_value())
    };
    run().map_err(js_error)
}

/// Whether a request is a relay tool call (`kind === "tool_call"`).
#[wasm_bindgen(js_name = isRelayRequest)]
pub fn is_relay_request(#[wasm_bindgen(unchecked_param_type = "Request | undefined | null")] request: JsValue) -> bool {
    request_of(&request, "request").map(|r| r.is_relay()).unwrap_or(false)
}

/// The relay calls a request carries (`data.calls`), in call order; `[]` for other requests.
#[wasm_bindgen(js_name = relayCallsOf, unchecked_return_type = "RelayCall[]")]
pub fn relay_calls_of(#[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue) -> JsResult<JsValue> {
    let req = request_of(&request, "request").map_err(js_error)?;
    let calls = if req.is_relay() { req.relay_calls() } else { Vec::new() };
    to_js(&serde_json::Value::Array(calls.into_iter().map(suspend::RelayCall::into_value).collect())).map_err(js_error)
}

/// Builds the answer to a relay request: `{ id: requestId, ok: true, data: { results } }`.
#[wasm_bindgen(js_name = relayAnswer, unchecked_return_type = "Answer")]
pub fn relay_answer(request_id: Text, #[wasm_bindgen(unchecked_param_type = "RelayResult[]")] results: JsValue) -> JsResult<JsValue> {
    let run = || {
        let id = string_arg(&request_id, false, "relayAnswer: requestId must be a string")?.unwrap_or_default();
        to_js(&suspend::relay_answer(&id, suspend::relay_results_from_json(&from_js(&results, "results")?)?).into_value())
    };
    run().map_err(js_error)
}
