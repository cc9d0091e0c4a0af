//! `Builtins`: `builtinTools(names?, options?)`'s runner (webfetch, question, todowrite), over
//! the core's `crate::sources::builtin`; webfetch's requests go over a transport of their own.

use super::host::Host;
use super::transport::Transport;
use super::{js, json_of, mcp_url_host, options_of, IDS};
use crate::edge::{js_error, JsResult};
use crate::error::Error;
use crate::sources::builtin;
use crate::sources::transport::{SourceRequest, SourceTransport};
use crate::suspend::{pending_result, Answer, ToolOutcome};
use js_sys::Promise;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// Why webfetch refuses `url`, by its scheme and host as the URL parser reads them.
fn refused_url(url: &str, allow_private: bool) -> Option<String> {
    let p = mcp_url_host(url);
    builtin::refused(&p.get(0).as_string().unwrap_or_default(), &p.get(1).as_string().unwrap_or_default(), allow_private)
}

/// `builtinTools(names?, options?)`'s runner: webfetch, question and todowrite.
#[wasm_bindgen]
pub struct Builtins {
    names: Vec<&'static str>,
    fetch: JsValue,
    max_bytes: usize,
    /// Whether webfetch may fetch loopback, private and link-local addresses.
    allow_private: bool,
}

#[wasm_bindgen]
impl Builtins {
    /// `names` (default all three) and `{ fetch?, maxBytes? }` (webfetch's body cap, default 512 KiB).
    #[wasm_bindgen(constructor)]
    pub fn new(names: JsValue, options: JsValue) -> JsResult<Builtins> {
        let names = builtin::select(Some(&json_of(&names))).map_err(js_error)?;
        let (fetch, (max_bytes, allow_private)) = match options.is_object() {
            true => {
                let (data, fetch, _) = options_of(&options, "builtinTools(names, options)")?;
                (fetch, builtin::options(&data).map_err(js_error)?)
            }
            false => (JsValue::UNDEFINED, (builtin::DEFAULT_MAX_BYTES, false)),
        };
        Ok(Builtins { names, fetch, max_bytes, allow_private })
    }

    /// The declarations, in the order asked for.
    pub fn declarations(&self) -> JsValue {
        js(&Value::Array(self.names.iter().map(|n| builtin::declaration(n)).collect()))
    }

    /// One call of builtin `name`; resolves to a tool result (a suspension for a new question).
    pub fn call(&self, name: String, args: JsValue, signal: JsValue, answer: JsValue) -> Promise {
        let args = json_of(&args);
        let answer = Answer::from_json(&json_of(&answer), "ctx.answer").ok();
        let (fetch, max, allow_private) = (self.fetch.clone(), self.max_bytes, self.allow_private);
        future_to_promise(async move {
            let r = match name.as_str() {
                "question" => match builtin::question(&args, answer.as_ref()) {
                    ToolOutcome::Result(r) => r,
                    ToolOutcome::Suspend(req) => pending_result(req, &IDS.with(Rc::clone)),
                },
                "todowrite" => builtin::todowrite(&args),
                _ => match builtin::webfetch_request(&args) {
                    Err(r) => r,
                    Ok((url, ..)) if refused_url(&url, allow_private).is_some() => {
                        crate::tool::ToolResult::error(refused_url(&url, allow_private).unwrap_or_default())
                    }
                    Ok((url, format, timeout_ms)) => {
                        // Read to `max` and cut there (`truncated`), not refused.
                        let t = Transport::new(&Host::new(fetch, "webfetch".into(), timeout_ms, usize::MAX), signal);
                        let req = SourceRequest { method: "GET", url, headers: Vec::new(), body: None, stream: false };
                        let run = async {
                            let mut res = t.send(&req).await?;
                            let mut body = Vec::new();
                            let mut truncated = false;
                            while let Some(chunk) = res.body.next_chunk().await? {
                                body.extend_from_slice(&chunk);
                                if body.len() > max {
                                    body.truncate(max);
                                    truncated = true;
                                    break; // dropping the body cancels the rest
                                }
                            }
                            Ok::<_, Error>(builtin::webfetch_result(res.status, &String::from_utf8_lossy(&body), format, truncated))
                        };
                        run.await.unwrap_or_else(|e| crate::tool::ToolResult::error(e.message))
                    }
                },
            };
            Ok(js(&r.to_value()))
        })
    }
}
