//! The driver's seams implemented over JS: `fetch` (the global binding, never `window`, or the
//! host's `fetch` option), JS tool functions, and the host's `waitFor`.

use super::convert::{from_js, from_thrown, get, thrown_message, to_js};
use crate::driver::{ToolExecutor, Transport, Waiter};
use crate::metrics::{Metric, Observer};
use crate::error::{redact, Code, Error, Result};
use crate::provider::{HttpRequest, HttpResponse};
use crate::suspend::{Answer, Request};
use crate::tool::ToolResult;
use futures_util::future::LocalBoxFuture;
use js_sys::{Function, Object, Promise, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub struct Fetch {
    pub fetch: Option<Function>,
    pub signal: JsValue,
    /// Only used to scrub transport error text.
    pub secret: Option<String>,
}

impl Fetch {
    fn function(&self) -> Result<Function> {
        if let Some(f) = &self.fetch {
            return Ok(f.clone());
        }
        get(&js_sys::global(), "fetch")
            .dyn_into::<Function>()
            .map_err(|_| Error::new(Code::Transport, "no global fetch in this host; pass the `fetch` option"))
    }

    async fn send_inner(&self, req: HttpRequest) -> Result<HttpResponse> {
        if get(&self.signal, "aborted").as_bool() == Some(true) {
            return Err(Error::new(Code::Aborted, "the run was aborted"));
        }
        let headers = Object::new();
        for (k, v) in &req.headers {
            let _ = Reflect::set(&headers, &k.into(), &v.into());
        }
        let body = req.body;
        let init = Object::new();
        let _ = Reflect::set(&init, &"method".into(), &"POST".into());
        let _ = Reflect::set(&init, &"headers".into(), &headers);
        let _ = Reflect::set(&init, &"body".into(), &body.into());
        if !self.signal.is_undefined() && !self.signal.is_null() {
            let _ = Reflect::set(&init, &"signal".into(), &self.signal);
        }
        // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
        let f = self.function()?;
        let call = f.call2(&js_sys::global(), &req.url.as_str().into(), &init);
        let resp = match call {
            Ok(p) => JsFuture::from(Promise::resolve(&p)).await,
            Err(e) => Err(e),
        }
        .map_err(|e| self.transport_error(&e))?;
        let status = get(&resp, "status")
            .as_f64()
            .filter(|s| (100.0..=599.0).contains(s))
            .ok_or_else(|| Error::new(Code::Transport, "fetch resolved to something that is not a Response"))?;
        let text = get(&resp, "text")
            .dyn_into::<Function>()
            .map_err(|_| Error::new(Code::Transport, "fetch resolved to a Response without text()"))?;
        let body = match text.call0(&resp) {
            Ok(p) => JsFuture::from(Promise::resolve(&p)).await,
            Err(e) => Err(e),
        }
        .map_err(|e| self.transport_error(&e))?;
        let body = body.as_string().ok_or_else(|| Error::new(Code::Transport, "Response.text() did not give a string"))?;
        Ok(HttpResponse { status: status as u16, body })
    }

    fn transport_error(&self, e: &JsValue) -> Error {
        let mut err = from_thrown(e, Code::Transport, "fetch failed");
        err.message = redact(&err.message, self.secret.as_deref());
        err
    }
}

impl Transport for Fetch {
    fn send(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse>> {
        Box::pin(self.send_inner(req))
    }
}

/// Host tool functions by name. Declaration-only (relay) tools have none.
pub struct JsTools {
    pub fns: Vec<(String, Function)>,
    /// The run's AbortSignal, handed to tools as `ctx.signal`.
    pub signal: JsValue,
}

impl JsTools {
    async fn call(&self, name: &str, args: &Map<String, Value>, answer: Option<&Answer>) -> Result<ToolResult> {
        let Some((_, f)) = self.fns.iter().find(|(n, _)| n == name) else {
            return Ok(ToolResult::error(format!("Unknown tool: {name}")));
        };
        let ctx = Object::new();
        if !self.signal.is_undefined() {
            let _ = Reflect::set(&ctx, &"signal".into(), &self.signal);
        }
        if let Some(a) = answer {
            let _ = Reflect::set(&ctx, &"answer".into(), &to_js(a)?);
        }
        let returned = match f.call2(&JsValue::UNDEFINED, &to_js(args)?, &ctx) {
            Ok(v) => JsFuture::from(Promise::resolve(&v)).await,
            Err(e) => Err(e),
        };
        // A tool that throws or rejects is a failed result fed back to the model (contract §b.7).
        let value = match returned {
            Ok(v) => v,
            Err(e) => return Ok(ToolResult::error(thrown_message(&e))),
        };
        Ok(match from_js(&value, "a tool's return value") {
            Ok(v) => ToolResult::from_return(v),
            Err(_) => ToolResult::error(format!("tool {name} returned a value that is not JSON data")),
        })
    }
}

impl ToolExecutor for JsTools {
    fn execute<'a>(&'a self, name: &'a str, args: &'a Map<String, Value>, answer: Option<&'a Answer>)
        -> LocalBoxFuture<'a, Result<ToolResult>> {
        Box::pin(self.call(name, args, answer))
    }
}

pub struct WaitFor(pub Function);

impl WaitFor {
    async fn call(&self, req: Request) -> Result<Answer> {
        let returned = match self.0.call1(&JsValue::UNDEFINED, &to_js(&req)?) {
            Ok(v) => JsFuture::from(Promise::resolve(&v)).await,
            Err(e) => Err(e),
        }
        .map_err(|e| from_thrown(&e, Code::HostCallback, "waitFor failed"))?;
        // No answer at all counts as "not ok" (contract §c.1).
        if returned.is_undefined() || returned.is_null() {
            return Ok(Answer { id: req.id, ok: false, data: None, reason: None });
        }
        let v = from_js(&returned, "the answer from waitFor")?;
        serde_json::from_value::<Answer>(v)
            .map_err(|e| Error::new(Code::HostCallback, format!("waitFor must resolve to an Answer {{ id, ok, data? }}: {e}")))
    }
}

impl Waiter for WaitFor {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Answer>> {
        Box::pin(self.call(req))
    }
}

/// The host's `onMetric`. A sink that throws is ignored: metrics never fail a run.
pub struct OnMetric(pub Function);

impl Observer for OnMetric {
    fn metric(&self, m: &Metric) {
        if let Ok(v) = to_js(m) {
            let _ = self.0.call1(&JsValue::UNDEFINED, &v);
        }
    }
}
