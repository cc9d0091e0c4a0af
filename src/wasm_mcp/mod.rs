//! The MCP entry's edge (built with the `mcp` feature, as its own wasm: `toolnexus-wasm/mcp`): one
//! class per tool source, each running the core's source (`crate::sources`) over one transport on
//! the host's `fetch`: `McpSession` (`session.rs`), `HttpTool`, `Builtins`, `SkillSet` and
//! `A2aAgent`, plus `authorizationGrant` (`auth.rs`). The JS of pkg-template/mcp/api.js turns
//! their declarations into ordinary tools for `createToolkit`, so the loop's wasm needs nothing
//! of them: a suspension an MCP call returns is the same data `authRequired()` makes.
//!
//! It stands on the loop entry's seam: one host.js in the package serves both wasm modules, bound
//! once for both edges in `crate::edge`. A request goes through `callModel` (by way of `mcpSend`
//! in src/wasm/mcp.js, which adds the token), with a signal made as a run's (`runOptions`: the
//! call's signal and the request's deadline as one), a successful reply that is no event stream
//! is read whole by `mcpSend` (any other body with `readChunk`), waits are `sleep`, and every
//! error is host.js's `ToolnexusError` (`edge::js_error`). What a source shares
//! with the others here: a source's `Host` (`host.rs`), one operation's `Transport`
//! (`transport.rs`) and a body being read (`body.rs`). What a request carries, where the token
//! may go and how a failure reads are the core's (`crate::sources::outgoing`).

mod a2a;
mod auth;
mod body;
mod builtins;
mod host;
mod http_tool;
mod session;
mod skills;
mod transport;

pub use a2a::A2aAgent;
pub use auth::authorization_grant;
pub use builtins::Builtins;
pub use http_tool::HttpTool;
pub use session::McpSession;
pub use skills::SkillSet;

use crate::edge::{js_error, thrown_message, to_js, JsResult};
use crate::error::Error;
use crate::suspend::IdGen;
use js_sys::{Array, Promise, JSON};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/mcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = mcpOptions, catch)]
    fn mcp_options(o: &JsValue, what: &str) -> std::result::Result<Array, JsValue>;
    /// `runOptions` (host.js) of `{ signal }`: a run's signal for one request or operation.
    #[wasm_bindgen(js_name = mcpSignal, catch)]
    fn mcp_signal(user: &JsValue, ms: Option<f64>) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = mcpSend)]
    #[allow(clippy::too_many_arguments)]
    fn mcp_send(
        f: &JsValue,
        token: &JsValue,
        who: &str,
        url: &str,
        head: &str,
        body: Option<String>,
        signal: &JsValue,
        max: f64,
        whole: bool,
    ) -> Promise;
    #[wasm_bindgen(js_name = mcpRead)]
    fn mcp_read(b: &JsValue, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = mcpCancel)]
    fn mcp_cancel(b: &JsValue);
    #[wasm_bindgen(js_name = mcpUuid)]
    fn mcp_uuid() -> String;
    /// `[protocol, hostname]` of `url` as the URL parser reads them (webfetch's refusals).
    #[wasm_bindgen(js_name = mcpUrlHost)]
    fn mcp_url_host(url: &str) -> js_sys::Array;
}

/// A source's options as `[JSON data, fetch, token]`, read by `mcpOptions` (mcp.js); a refusal is
/// `bad_input`.
fn options_of(o: &JsValue, what: &str) -> JsResult<(Value, JsValue, JsValue)> {
    let parts = mcp_options(o, what).map_err(|e| js_error(Error::bad_input(thrown_message(&e))))?;
    let data = crate::sources::text::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
    Ok((data, parts.get(1), parts.get(2)))
}

/// A host value as JSON data; `null` for one that is not.
fn json_of(v: &JsValue) -> Value {
    JSON::stringify(v).ok().and_then(|s| s.as_string()).and_then(|s| crate::sources::text::parse(s.as_bytes())).unwrap_or(Value::Null)
}

/// Data as a JS value (`edge::to_js`, which fails only if `JSON.parse` refused our own output).
fn js(v: &Value) -> JsValue {
    to_js(v).unwrap_or(JsValue::UNDEFINED)
}

thread_local! {
    /// The ids of the suspensions and relay calls this entry makes.
    static IDS: Rc<IdGen> = Rc::new(IdGen::new(Box::new(|| js_sys::Date::now() as u64)));
}
