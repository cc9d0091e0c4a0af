//! The driver's seams implemented over JS: `fetch` (the global binding, never `window`, or the
//! host's `fetch` option), JS tool functions, and the host's `waitFor`.

use super::convert::{from_js, from_thrown, get, settle, thrown_message, to_js};
use crate::driver::{Abort, ByteStream, ErrorPolicy, Sleep, StreamResponse, Tier, ToolExecutor, Transport, Waiter, WholeBody};
use crate::retry::ErrorInfo;
use crate::metrics::{Metric, Observer};
use crate::error::{redact, Code, Error, Result};
use crate::provider::{HttpRequest, HttpResponse};
use crate::suspend::{Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use futures_util::future::LocalBoxFuture;
use js_sys::{Function, Object, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::{JsCast, JsValue};

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

    /// Calls fetch; resolves to the status and the Response object.
    async fn respond(&self, req: HttpRequest) -> Result<(u16, JsValue)> {
        if get(&self.signal, "aborted").as_bool() == Some(true) {
            return Err(Error::new(Code::Aborted, "the run was aborted"));
        }
        let headers = Object::new();
        for (k, v) in &req.headers {
            let _ = Reflect::set(&headers, &k.into(), &v.into());
        }
        let init = Object::new();
        let _ = Reflect::set(&init, &"method".into(), &"POST".into());
        let _ = Reflect::set(&init, &"headers".into(), &headers);
        let _ = Reflect::set(&init, &"body".into(), &req.body.into());
        if !self.signal.is_undefined() && !self.signal.is_null() {
            let _ = Reflect::set(&init, &"signal".into(), &self.signal);
        }
        // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
        let f = self.function()?;
        let resp = settle(f.call2(&js_sys::global(), &req.url.as_str().into(), &init)).await.map_err(|e| self.transport_error(&e))?;
        let status = get(&resp, "status")
            .as_f64()
            .filter(|s| (100.0..=599.0).contains(s))
            .ok_or_else(|| Error::new(Code::Transport, "fetch resolved to something that is not a Response"))?;
        Ok((status as u16, resp))
    }

    async fn text_of(&self, resp: &JsValue) -> Result<String> {
        let text = get(resp, "text")
            .dyn_into::<Function>()
            .map_err(|_| Error::new(Code::Transport, "fetch resolved to a Response without text()"))?;
        settle(text.call0(resp))
            .await
            .map_err(|e| self.transport_error(&e))?
            .as_string()
            .ok_or_else(|| Error::new(Code::Transport, "Response.text() did not give a string"))
    }

    async fn send_inner(&self, req: HttpRequest) -> Result<HttpResponse> {
        let (status, resp) = self.respond(req).await?;
        Ok(HttpResponse { status, body: self.text_of(&resp).await?, retry_after: retry_after_of(&resp) })
    }

    /// The body as it arrives, through `response.body.getReader()`; a Response without a
    /// readable body (a hand-made mock) is read whole.
    async fn open_inner(&self, req: HttpRequest) -> Result<StreamResponse> {
        let (status, resp) = self.respond(req).await?;
        let reader = match get(&get(&resp, "body"), "getReader").dyn_into::<Function>() {
            Ok(f) => f.call0(&get(&resp, "body")).ok(),
            Err(_) => None,
        };
        let body: Box<dyn ByteStream> = match reader {
            Some(reader) => Box::new(Reader { reader, secret: self.secret.clone() }),
            None => Box::new(WholeBody(Some(self.text_of(&resp).await?.into_bytes()))),
        };
        Ok(StreamResponse { status, body, retry_after: retry_after_of(&resp) })
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
    fn open(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<StreamResponse>> {
        Box::pin(self.open_inner(req))
    }
}

/// A `ReadableStreamDefaultReader` of a fetch body.
struct Reader {
    reader: JsValue,
    secret: Option<String>,
}

impl ByteStream for Reader {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            let read = get(&self.reader, "read").dyn_into::<Function>().map_err(|_| Error::new(Code::Transport, "body reader has no read()"))?;
            let r = settle(read.call0(&self.reader)).await.map_err(|e| {
                let mut err = from_thrown(&e, Code::Transport, "reading the response body failed");
                err.message = redact(&err.message, self.secret.as_deref());
                err
            })?;
            if get(&r, "done").as_bool() == Some(true) {
                return Ok(None);
            }
            Ok(Some(js_sys::Uint8Array::new(&get(&r, "value")).to_vec()))
        })
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
        let returned = settle(f.call2(&JsValue::UNDEFINED, &to_js(args)?, &ctx)).await;
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
        -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        // The `pending()` marker a JS tool returns is read here, once.
        Box::pin(async move { self.call(name, args, answer).await.map(ToolOutcome::from_result) })
    }
}

pub struct WaitFor(pub Function);

impl WaitFor {
    async fn call(&self, req: Request) -> Result<Option<Answer>> {
        let returned = settle(self.0.call1(&JsValue::UNDEFINED, &to_js(&req)?))
            .await
            .map_err(|e| from_thrown(&e, Code::HostCallback, "waitFor failed"))?;
        // No answer at all: the core declines the call.
        if returned.is_undefined() || returned.is_null() {
            return Ok(None);
        }
        let v = from_js(&returned, "the answer from waitFor")?;
        Answer::from_json(&v, "the answer from waitFor")
            .map(Some)
            .map_err(|e| Error::new(Code::HostCallback, format!("waitFor must resolve to an Answer {{ id, ok, data? }}: {e}")))
    }
}

impl Waiter for WaitFor {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>> {
        Box::pin(self.call(req))
    }
}

/// Every metric goes into the client's registry (`client.metrics()`) and to the host's
/// `onMetric` when given. A sink that throws is ignored: metrics never fail a run.
pub struct Metrics<'a> {
    pub registry: &'a std::cell::RefCell<crate::metrics::Registry>,
    pub on_metric: Option<&'a Function>,
}

impl Observer for Metrics<'_> {
    fn metric(&self, m: &Metric) {
        self.registry.borrow_mut().record(m);
        if let Some(f) = self.on_metric {
            if let Ok(v) = to_js(m) {
                let _ = f.call1(&JsValue::UNDEFINED, &v);
            }
        }
    }
}

/// Reads `Retry-After` from a fetch Response (`headers.get`), if any.
pub fn retry_after_of(resp: &JsValue) -> Option<String> {
    let headers = get(resp, "headers");
    let f = get(&headers, "get").dyn_into::<Function>().ok()?;
    f.call1(&headers, &"retry-after".into()).ok()?.as_string()
}

/// Backoff sleeps with the host's `setTimeout`.
pub struct Timers;

impl Sleep for Timers {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let global = js_sys::global();
            if let Ok(set_timeout) = get(&global, "setTimeout").dyn_into::<Function>() {
                let _ = set_timeout.call2(&global, &resolve, &JsValue::from(ms.max(0.0)));
            } else {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        })
    }
}

/// The host's `onError(info)`: `"retry"` retries, anything else fails.
pub struct OnError(pub Function);

impl ErrorPolicy for OnError {
    fn decide(&self, info: &ErrorInfo) -> LocalBoxFuture<'_, Result<Tier>> {
        let info = to_js(info);
        Box::pin(async move {
            let v = settle(self.0.call1(&JsValue::UNDEFINED, &info?)).await.map_err(|e| from_thrown(&e, Code::HostCallback, "onError failed"))?;
            Ok(if v.as_string().as_deref() == Some("retry") { Tier::Retry } else { Tier::Fail })
        })
    }
}

/// The run's abort: the caller's `signal` and the `timeoutMs` deadline, each an AbortSignal.
pub struct RunAbort {
    pub signals: Vec<JsValue>,
    pub timeout_ms: Option<f64>,
}

impl RunAbort {
    /// `signal` and `timeoutMs` as AbortSignals, and one signal to hand to fetch and tools
    /// (`AbortSignal.any` of both where the host has it).
    pub fn new(user: JsValue, timeout_ms: Option<f64>) -> (RunAbort, JsValue) {
        let ctor = get(&js_sys::global(), "AbortSignal");
        let mut signals = Vec::new();
        if user.is_object() {
            signals.push(user.clone());
        }
        if let (Some(ms), Ok(timeout)) = (timeout_ms, get(&ctor, "timeout").dyn_into::<Function>()) {
            if let Ok(s) = timeout.call1(&ctor, &JsValue::from(ms)) {
                signals.push(s);
            }
        }
        let combined = match (signals.len(), get(&ctor, "any").dyn_into::<Function>()) {
            (0, _) => JsValue::UNDEFINED,
            (1, _) => signals[0].clone(),
            (_, Ok(any)) => any.call1(&ctor, &js_sys::Array::from_iter(signals.iter())).unwrap_or_else(|_| signals[0].clone()),
            (_, Err(_)) => signals[0].clone(),
        };
        (RunAbort { signals, timeout_ms }, combined)
    }

    fn error_for(&self, signal: &JsValue) -> Error {
        let timed_out = get(&get(signal, "reason"), "name").as_string().as_deref() == Some("TimeoutError");
        match (timed_out, self.timeout_ms) {
            (true, Some(ms)) => Error::new(Code::Aborted, format!("run timeout after {ms}ms")),
            _ => Error::new(Code::Aborted, "the run was aborted"),
        }
    }
}

impl Abort for RunAbort {
    fn aborted(&self) -> Option<Error> {
        self.signals.iter().find(|s| get(s, "aborted").as_bool() == Some(true)).map(|s| self.error_for(s))
    }

    fn wait(&self) -> LocalBoxFuture<'_, Error> {
        let fired = js_sys::Promise::new(&mut |resolve, _| {
            let once = js_sys::Object::new();
            let _ = Reflect::set(&once, &"once".into(), &true.into());
            for s in &self.signals {
                if let Ok(add) = get(s, "addEventListener").dyn_into::<Function>() {
                    let _ = add.call3(s, &"abort".into(), &resolve, &once);
                }
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(fired).await;
            self.aborted().unwrap_or_else(|| Error::new(Code::Aborted, "the run was aborted"))
        })
    }
}
