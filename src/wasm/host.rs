//! The driver's seams implemented over JS: `fetch` (the host's `fetch` option, or the global
//! binding, never `window`), JS tool functions, the host's `waitFor`, timers and the run's abort.
//! Host objects are typed `web-sys` bindings; the ones a host may lack or a mock may shape
//! loosely are called through `catch` imports, so a wrong shape is a typed error, never a throw
//! through Rust frames.

use super::convert::{from_js, from_thrown, settle, thrown_message, to_js};
use crate::driver::{Abort, ByteStream, ErrorPolicy, Sleep, StreamResponse, Tier, ToolExecutor, Transport, Waiter, WholeBody};
use crate::error::{redact, Code, Error, Result};
use crate::metrics::{Metric, Observer};
use crate::provider::{HttpRequest, HttpResponse};
use crate::retry::ErrorInfo;
use crate::suspend::{Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use futures_util::future::LocalBoxFuture;
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use web_sys::{AbortSignal, ReadableStreamReadResult, Response};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch` of whatever host this is (page, service worker, workerd, Node): called
    /// as a plain function, so the receiver is the global object and no `Window` is needed.
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &Object) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = setTimeout, catch)]
    fn set_timeout(f: &Function, ms: f64) -> std::result::Result<JsValue, JsValue>;
    // `catch`: older hosts lack these statics; the run then works with what it has.
    #[wasm_bindgen(js_namespace = AbortSignal, js_name = timeout, catch)]
    fn signal_timeout(ms: f64) -> std::result::Result<AbortSignal, JsValue>;
    #[wasm_bindgen(js_namespace = AbortSignal, js_name = any, catch)]
    fn signal_any(signals: &Array) -> std::result::Result<AbortSignal, JsValue>;
    /// A Response body as far as the edge reads it. Declared here rather than taken from
    /// `web-sys` because there `getReader()` and `read()` cannot fail, and they do (a locked or
    /// foreign stream, a mock's odd reader): here they are `catch`, so that is a typed error.
    type Body;
    #[wasm_bindgen(method, catch, js_name = getReader)]
    fn get_reader(this: &Body) -> std::result::Result<BodyReader, JsValue>;
    type BodyReader;
    #[wasm_bindgen(method, catch)]
    fn read(this: &BodyReader) -> std::result::Result<JsValue, JsValue>;
    /// `Response.headers` for one lookup: `catch`, as a mock may have no `headers`; the value
    /// comes back as is (web-sys's `Option<String>` return costs more glue than `as_string`).
    type HeaderList;
    #[wasm_bindgen(method, catch, js_name = get)]
    fn header(this: &HeaderList, name: &str) -> std::result::Result<JsValue, JsValue>;
}

fn aborted_error() -> Error {
    Error::new(Code::Aborted, "the run was aborted")
}

pub struct Fetch {
    pub fetch: Option<Function>,
    pub signal: Option<AbortSignal>,
    /// Only used to scrub transport error text.
    pub secret: Option<String>,
}

impl Fetch {
    /// Calls fetch; resolves to the status and the Response.
    async fn respond(&self, req: HttpRequest) -> Result<(u16, Response)> {
        if self.signal.as_ref().is_some_and(AbortSignal::aborted) {
            return Err(aborted_error());
        }
        // The init is a plain dictionary we make, not a host object: method and headers cross as
        // one JSON text (one `JSON.parse`, not a call per header) and two `Reflect.set`s add the
        // body and signal. Typed `RequestInit` setters would each be one more import (~50 B gzip).
        let mut head = String::from(r#"{"method":"POST","headers":{"#);
        for (i, (k, v)) in req.headers.iter().enumerate() {
            head.push_str(if i > 0 { "," } else { "" });
            head.push_str(&Value::from(k.as_str()).to_string());
            head.push(':');
            head.push_str(&Value::from(v.as_str()).to_string());
        }
        head.push_str("}}");
        let init: Object = js_sys::JSON::parse(&head).map_err(|_| Error::internal("JSON.parse refused our own output"))?.unchecked_into();
        let _ = Reflect::set(&init, &"body".into(), &req.body.into());
        if let Some(s) = &self.signal {
            let _ = Reflect::set(&init, &"signal".into(), s);
        }
        let call = match &self.fetch {
            // `this` is the global object: browsers throw "Illegal invocation" for any other receiver.
            Some(f) => f.call2(&js_sys::global(), &req.url.into(), &init),
            // A host without one throws "fetch is not defined", which the error carries.
            None => global_fetch(&req.url, &init),
        };
        let resp = settle(call).await.map_err(|e| self.transport_error(&e))?;
        if !resp.is_object() {
            return Err(not_a_response());
        }
        // Structural access: a hand-made `{ status, text }` from a `fetch` option works too.
        let resp: Response = resp.unchecked_into();
        match resp.status() {
            s @ 100..=599 => Ok((s, resp)),
            _ => Err(not_a_response()),
        }
    }

    async fn text_of(&self, resp: &Response) -> Result<String> {
        settle(resp.text().map(JsValue::from))
            .await
            .map_err(|e| self.transport_error(&e))?
            .as_string()
            .ok_or_else(|| Error::new(Code::Transport, "Response.text() did not give a string"))
    }

    async fn send_inner(&self, req: HttpRequest) -> Result<HttpResponse> {
        let (status, resp) = self.respond(req).await?;
        Ok(HttpResponse { status, body: self.text_of(&resp).await?, retry_after: retry_after_of(status, &resp) })
    }

    /// The body as it arrives, through `response.body.getReader()`; a Response without a
    /// readable body (a hand-made mock) is read whole.
    async fn open_inner(&self, req: HttpRequest) -> Result<StreamResponse> {
        let (status, resp) = self.respond(req).await?;
        let retry_after = retry_after_of(status, &resp);
        // A body that gives no reader (none, a mock's, a locked one) is read whole: `text()`
        // then reports what is wrong with it, if anything.
        let body: Box<dyn ByteStream> = match resp.body().filter(|b| b.is_object()).map(|b| b.unchecked_into::<Body>().get_reader()) {
            Some(Ok(reader)) => Box::new(Reader { reader, secret: self.secret.clone() }),
            _ => Box::new(WholeBody(Some(self.text_of(&resp).await?.into_bytes()))),
        };
        Ok(StreamResponse { status, body, retry_after })
    }

    fn transport_error(&self, e: &JsValue) -> Error {
        let mut err = from_thrown(e, Code::Transport, "fetch failed");
        err.message = redact(&err.message, self.secret.as_deref());
        err
    }
}

fn not_a_response() -> Error {
    Error::new(Code::Transport, "fetch resolved to something that is not a Response")
}

/// `Retry-After` of a failed Response, if any: only a refusal is retried, so a success never
/// pays for the header lookup.
fn retry_after_of(status: u16, resp: &Response) -> Option<String> {
    (status >= 400).then(|| resp.headers().unchecked_into::<HeaderList>().header("retry-after").ok()?.as_string()).flatten()
}

impl Transport for Fetch {
    fn send(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse>> {
        Box::pin(self.send_inner(req))
    }
    fn open(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<StreamResponse>> {
        Box::pin(self.open_inner(req))
    }
}

/// The reader of a fetch body.
struct Reader {
    reader: BodyReader,
    secret: Option<String>,
}

impl ByteStream for Reader {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            let r = settle(self.reader.read()).await.map_err(|e| {
                let mut err = from_thrown(&e, Code::Transport, "reading the response body failed");
                err.message = redact(&err.message, self.secret.as_deref());
                err
            })?;
            if !r.is_object() {
                return Err(Error::new(Code::Transport, "the body reader gave no { done, value }"));
            }
            let r: ReadableStreamReadResult = r.unchecked_into();
            if r.get_done() == Some(true) {
                return Ok(None);
            }
            Ok(Some(Uint8Array::new(&r.get_value()).to_vec()))
        })
    }
}

/// Host tool functions by name. Declaration-only (relay) tools have none.
pub struct JsTools {
    pub fns: Vec<(String, Function)>,
    /// The run's AbortSignal, handed to tools as `ctx.signal`.
    pub signal: Option<AbortSignal>,
}

impl JsTools {
    async fn call(&self, name: &str, args: &Map<String, Value>, answer: Option<&Answer>) -> Result<ToolResult> {
        let Some((_, f)) = self.fns.iter().find(|(n, _)| n == name) else {
            return Ok(ToolResult::error(format!("Unknown tool: {name}")));
        };
        let ctx = Object::new();
        if let Some(s) = &self.signal {
            let _ = Reflect::set(&ctx, &"signal".into(), s);
        }
        if let Some(a) = answer {
            let _ = Reflect::set(&ctx, &"answer".into(), &to_js(a)?);
        }
        // A tool that throws or rejects is a failed result fed back to the model.
        let value = match settle(f.call2(&JsValue::UNDEFINED, &to_js(args)?, &ctx)).await {
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

/// Backoff sleeps with the host's `setTimeout`.
pub struct Timers;

impl Sleep for Timers {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let p = Promise::new(&mut |resolve, _| {
            if set_timeout(&resolve, ms.max(0.0)).is_err() {
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
    signals: Vec<AbortSignal>,
    timeout_ms: Option<f64>,
}

impl RunAbort {
    /// `signal` and `timeoutMs` as AbortSignals, and one signal to hand to fetch and tools
    /// (`AbortSignal.any` of both where the host has it).
    pub fn new(user: JsValue, timeout_ms: Option<f64>) -> (RunAbort, Option<AbortSignal>) {
        let mut signals: Vec<AbortSignal> = Vec::new();
        // Structural: any object with `aborted` and `addEventListener` serves as a signal.
        if user.is_object() {
            signals.push(user.unchecked_into());
        }
        if let Some(s) = timeout_ms.and_then(|ms| signal_timeout(ms).ok()) {
            signals.push(s);
        }
        let combined = match signals.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            [first, ..] => Some(signal_any(&signals.iter().collect()).unwrap_or_else(|_| first.clone())),
        };
        (RunAbort { signals, timeout_ms }, combined)
    }

    fn error_for(&self, signal: &AbortSignal) -> Error {
        let reason = signal.reason();
        let timed_out = reason.is_object() && Reflect::get(&reason, &"name".into()).ok().and_then(|n| n.as_string()).as_deref() == Some("TimeoutError");
        match (timed_out, self.timeout_ms) {
            (true, Some(ms)) => Error::new(Code::Aborted, format!("run timeout after {}ms", crate::metrics::js_number(ms))),
            _ => aborted_error(),
        }
    }
}

impl Abort for RunAbort {
    fn aborted(&self) -> Option<Error> {
        self.signals.iter().find(|s| s.aborted()).map(|s| self.error_for(s))
    }

    fn wait(&self) -> LocalBoxFuture<'_, Error> {
        if self.signals.is_empty() {
            // Nothing can abort this run: no JS promise (and no closures) to make.
            return Box::pin(futures_util::future::pending());
        }
        let fired = Promise::new(&mut |resolve, _| {
            let once = Object::new();
            let _ = Reflect::set(&once, &"once".into(), &true.into());
            for s in &self.signals {
                let _ = s.add_event_listener_with_callback_and_add_event_listener_options("abort", &resolve, once.unchecked_ref());
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(fired).await;
            self.aborted().unwrap_or_else(aborted_error)
        })
    }
}
