//! The driver's seams implemented over JS: `fetch` (the host's `fetch` option, or the global
//! binding, never `window`), JS tool functions, the host's `waitFor`, timers and the run's abort.
//! Host objects are reached through the helpers in host.js, which settle each call into plain
//! values, so a wrong shape is a typed error, never a throw through Rust frames.

use super::convert::{from_js, from_thrown, settle, to_js};
use super::task::settle as await_js;
use crate::driver::{
    aborted, host_status, request_head, too_large, Abort, ByteStream, ErrorPolicy, Sleep, StreamResponse, Tier, ToolExecutor, Transport,
    Waiter, WholeBody,
};
use crate::error::{redact, Code, Error, Result};
use crate::metrics::{Metric, Observer};
use crate::provider::{HttpRequest, HttpResponse};
use crate::retry::ErrorInfo;
use crate::suspend::{Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use futures_util::future::LocalBoxFuture;
use js_sys::{Array, Function, Promise, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    #[wasm_bindgen(js_name = callModel)]
    fn call_model(f: &JsValue, url: &str, head: &str, body: &str, signal: &JsValue, stream: bool, max: f64) -> Promise;
    #[wasm_bindgen(js_name = callTool)]
    fn call_tool(f: &Function, args: &str, signal: &JsValue, answer: Option<String>) -> Promise;
    /// `createClient`'s options as JSON text, without the store; `""` for a value that is not
    /// JSON data (a cycle, a BigInt), which the core refuses.
    #[wasm_bindgen(js_name = optionsJson)]
    pub fn options_json(opts: &JsValue) -> Option<String>;
    #[wasm_bindgen(js_name = resumeJson)]
    pub fn resume_json(opts: &JsValue) -> String;
    /// `createClient`'s functions and store (host.js); throws a refusal's message.
    #[wasm_bindgen(js_name = hostOptions, catch)]
    pub fn host_options(opts: &JsValue) -> std::result::Result<Array, JsValue>;
    /// The run's signal; a stream given here is bound to it (its consumer leaving aborts the
    /// run, and host calls wait for it to drain).
    #[wasm_bindgen(js_name = runSignal)]
    pub fn run_signal(user: &JsValue, ms: Option<f64>, stream: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = endRun)]
    pub fn end_run(signal: &JsValue);
    pub fn guard(p: &Promise, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = abortState)]
    fn abort_state(signal: &JsValue) -> u8;
    #[wasm_bindgen(js_name = onAbort)]
    fn on_abort(signal: &JsValue) -> Promise;
    fn sleep(ms: f64, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = readChunk)]
    fn read_chunk(reader: &JsValue, max: f64, signal: &JsValue) -> Promise;
}

pub struct Fetch<'a> {
    pub fetch: Option<&'a Function>,
    /// The run's signal (`undefined` for none).
    pub signal: &'a JsValue,
    /// Only used to scrub transport error text.
    pub secret: Option<&'a str>,
    /// `maxResponseBytes`: a longer body is refused while it is read.
    pub max: f64,
}

impl Fetch<'_> {
    /// One model call through `callModel` (host.js): status, `Retry-After` and the body text (or
    /// reader, with `stream`) in one await.
    async fn call(&self, req: &HttpRequest, stream: bool) -> Result<(u16, Option<String>, JsValue)> {
        if !self.signal.is_undefined() && abort_state(self.signal) != 0 {
            return Err(aborted(false, None));
        }
        let f = self.fetch.map_or(JsValue::UNDEFINED, |f| f.into());
        let out = await_js(&call_model(&f, &req.url, &request_head(req), &req.body, self.signal, stream, self.max))
            .await
            .map_err(|e| scrubbed(&e, "fetch failed", self.secret))?;
        let out: Array = out.unchecked_into();
        Ok((host_status(out.get(0).as_f64())?, out.get(1).as_string(), out.get(2)))
    }

    async fn send_inner(&self, req: &HttpRequest) -> Result<HttpResponse> {
        let (status, retry_after, body) = self.call(req, false).await?;
        Ok(HttpResponse { status, body: text_of(body)?, retry_after })
    }

    /// The body as it arrives, through `response.body.getReader()`; a Response without a
    /// readable body (a hand-made mock) is read whole.
    async fn open_inner(&self, req: &HttpRequest) -> Result<StreamResponse> {
        let (status, retry_after, body) = self.call(req, true).await?;
        let body: Box<dyn ByteStream> = if body.is_object() {
            Box::new(Reader { reader: body, secret: self.secret.map(str::to_string), max: self.max, signal: self.signal.clone() })
        } else {
            Box::new(WholeBody(Some(text_of(body)?.into_bytes())))
        };
        Ok(StreamResponse { status, body, retry_after })
    }
}

/// A transport failure, its text scrubbed of the API key.
fn scrubbed(e: &JsValue, context: &str, secret: Option<&str>) -> Error {
    let mut err = from_thrown(e, Code::Transport, context);
    err.message = redact(&err.message, secret);
    err
}

fn text_of(body: JsValue) -> Result<String> {
    body.as_string().ok_or_else(|| Error::new(Code::Transport, "Response.text() did not give a string"))
}

impl Transport for Fetch<'_> {
    fn send<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        Box::pin(self.send_inner(req))
    }
    fn open<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<StreamResponse>> {
        Box::pin(self.open_inner(req))
    }
}

/// The reader of a fetch body.
struct Reader {
    reader: JsValue,
    secret: Option<String>,
    /// `maxResponseBytes`, counted in host.js.
    max: f64,
    signal: JsValue,
}

impl ByteStream for Reader {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            let r = await_js(&read_chunk(&self.reader, self.max, &self.signal))
                .await
                .map_err(|e| scrubbed(&e, "reading the response body failed", self.secret.as_deref()))?;
            match r {
                r if r.is_undefined() => Ok(None),
                r if r.is_null() => Err(Error::new(Code::Transport, "the body reader gave no { done, value }")),
                r if r.is_falsy() => Err(too_large()),
                r => Ok(Some(r.unchecked_into::<Uint8Array>().to_vec())),
            }
        })
    }
}

/// Host tool functions by name. Declaration-only (relay) tools have none.
pub struct JsTools<'a> {
    pub fns: std::rc::Rc<Vec<(String, Function)>>,
    /// Handed to tools as `ctx.signal` (`undefined` for none).
    pub signal: JsValue,
    /// The run's signal, which settles a tool call left running by an abort.
    pub run: &'a JsValue,
}

impl JsTools<'_> {
    async fn call(&self, name: &str, args: &Map<String, Value>, answer: Option<&Answer>) -> Result<ToolResult> {
        let Some((_, f)) = self.fns.iter().find(|(n, _)| n == name) else {
            return Ok(ToolResult::unknown(name));
        };
        // The hand writer (`json`): serde_json's would be a second one on the run's path.
        let mut text = String::with_capacity(64);
        crate::json::write_object(&mut text, args);
        let args = text;
        let answer = answer.map(|a| crate::json::to_text(&a.clone().into_value()));
        // `callTool` (host.js) never rejects: a throw is a failed result fed back to the model.
        let out: Array = match await_js(&guard(&call_tool(f, &args, &self.signal, answer), self.run)).await {
            Ok(v) => v.unchecked_into(),
            Err(e) => return Ok(ToolResult::error(super::convert::thrown_message(&e))),
        };
        Ok(ToolResult::from_host_reply(name, out.get(0).as_f64(), out.get(1).as_string().unwrap_or_default()))
    }
}

impl ToolExecutor for JsTools<'_> {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        // The `pending()` marker a JS tool returns is read here, once.
        Box::pin(async move { self.call(name, args, answer).await.map(ToolOutcome::from_result) })
    }
}

/// The run's host side behind the driver's other seams: `waitFor`, `onError`, metrics (the
/// client's registry, `client.metrics()`, and `onMetric`), backoff sleeps, and the abort: the
/// caller's `signal` and the `timeoutMs` deadline as one signal (`runSignal` in host.js), which
/// fetch, the body reader and tools are given too.
pub struct RunHost<'a> {
    pub wait_for: Option<&'a Function>,
    pub on_error: Option<&'a Function>,
    pub on_metric: Option<&'a Function>,
    pub registry: &'a std::cell::RefCell<crate::metrics::Registry>,
    pub signal: &'a JsValue,
    pub timeout_ms: Option<f64>,
}

/// Calls a host callback with JSON data and `{ signal }` (the run's, so a host can withdraw what
/// a parked `waitFor` shows when the run is aborted or its stream abandoned) and awaits it
/// (settled when the run aborts: see `guard` in host.js); a throw or rejection is
/// `Code::HostCallback`.
async fn call_host(f: Option<&Function>, arg: Result<JsValue>, what: &str, signal: &JsValue) -> Result<JsValue> {
    let f = f.ok_or_else(|| Error::internal("no host callback"))?;
    // `f` is hostOptions' wrapper: it waits for the stream to drain and adds `{ signal }`.
    let v = f.call2(&JsValue::UNDEFINED, &arg?, signal).map(|v| if v.is_object() { guard(v.unchecked_ref(), signal).into() } else { v });
    settle(v).await.map_err(|e| from_thrown(&e, Code::HostCallback, &format!("{what} failed")))
}

impl Waiter for RunHost<'_> {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>> {
        Box::pin(async move {
            let returned = call_host(self.wait_for, to_js(&req.to_value()), "waitFor", self.signal).await?;
            Answer::from_wait_for(&from_js(&returned, "the answer from waitFor")?)
        })
    }
}

/// A sink that throws is ignored: metrics never fail a run.
impl Observer for RunHost<'_> {
    fn metric(&self, m: &Metric) {
        self.registry.borrow_mut().record(m);
        // Encoded only for a sink: most clients have none, and a run makes five metrics.
        if let Some(f) = self.on_metric {
            if let Ok(v) = to_js(&m.to_value()) {
                let _ = f.call1(&JsValue::UNDEFINED, &v);
            }
        }
    }
}

impl Sleep for RunHost<'_> {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let p = sleep(ms, self.signal);
        Box::pin(async move {
            let _ = await_js(&p).await;
        })
    }
}

/// The host's `onError(info)`, its reply read by the core (`Tier::from_reply`).
impl ErrorPolicy for RunHost<'_> {
    fn decide(&self, info: &ErrorInfo) -> LocalBoxFuture<'_, Result<Tier>> {
        let info = to_js(&info.to_value());
        Box::pin(async move {
            let v = call_host(self.on_error, info, "onError", self.signal).await?;
            Ok(Tier::from_reply(v.as_string().as_deref()))
        })
    }
}

/// The error of an aborted run (`signal` from `runSignal`), `None` while it runs.
pub fn abort_error(signal: &JsValue, timeout_ms: Option<f64>) -> Option<Error> {
    let state = if signal.is_undefined() { 0 } else { abort_state(signal) };
    (state != 0).then(|| aborted(state == 2, timeout_ms))
}

impl Abort for RunHost<'_> {
    fn aborted(&self) -> Option<Error> {
        abort_error(self.signal, self.timeout_ms)
    }

    fn wait(&self) -> LocalBoxFuture<'_, Error> {
        if self.signal.is_undefined() {
            // Nothing can abort this run: no JS promise to make.
            return Box::pin(futures_util::future::pending());
        }
        let fired = on_abort(self.signal);
        Box::pin(async move {
            let _ = await_js(&fired).await;
            self.aborted().unwrap_or_else(|| aborted(false, None))
        })
    }
}
