//! The driver's seams implemented over JS, all by one value per run (`RunHost`): `fetch` (the
//! host's `fetch` option, or the global binding, never `window`), JS tool functions, the host's
//! `waitFor` and `onError`, metrics, backoff sleeps, the run's abort and the conversation store;
//! and the client's hooks. Host objects are reached through the helpers in host.js, which settle
//! each call into plain values, so a wrong shape is a typed error, never a throw through Rust
//! frames.

use crate::edge::{await_js, from_js, from_thrown, get, settle, thrown_message, to_js};
// host.js's signal and body helpers, bound once for both entries' edges.
use crate::conversation::ConversationStore;
use crate::driver::{
    aborted, host_status, request_head, too_large, Abort, ByteStream, ErrorPolicy, Sleep, StreamResponse, Tier, ToolExecutor, Transport,
    Waiter, WholeBody,
};
pub use crate::edge::end_run;
use crate::edge::{abort_state, read_chunk, sleep};
use crate::error::{redact, Code, Error, Result};
use crate::hooks::Hook;
use crate::json_hooks::HookHost;
use crate::metrics::{Metric, Observer};
use crate::options::HostSlot;
use crate::prelude::*;
use crate::provider::{HttpRequest, HttpResponse};
use crate::retry::ErrorInfo;
use crate::state::ConversationState;
use crate::suspend::{Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;
use js_sys::{Array, Function, Promise, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    #[wasm_bindgen(js_name = callModel)]
    fn call_model(f: &JsValue, url: &str, head: &str, body: &str, signal: &JsValue, stream: bool, max: f64) -> Promise;
    #[wasm_bindgen(js_name = callTool)]
    fn call_tool(f: &Function, args: &str, signal: &JsValue, answer: Option<String>, id: &str) -> Promise;
    /// `createClient`'s options as JSON text, without the store; `""` for a value that is not
    /// JSON data (a cycle, a BigInt), which the core refuses.
    #[wasm_bindgen(js_name = optionsJson)]
    pub fn options_json(opts: &JsValue) -> Option<String>;
    #[wasm_bindgen(js_name = resumeJson)]
    pub fn resume_json(opts: &JsValue) -> String;
    /// `createClient`'s functions and store (`default_store` when it has none); throws a
    /// refusal's message.
    #[wasm_bindgen(js_name = hostOptions, catch)]
    pub fn host_options(opts: &JsValue, default_store: &JsValue) -> core::result::Result<Array, JsValue>;
    pub fn guard(p: &Promise, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = callStore)]
    fn call_store(store: &JsValue, method: &str, id: &str, state: Option<String>, signal: &JsValue) -> Promise;
    /// One metric event for `onMetric`, built in JS (see `metric` in host.js for the fields).
    #[allow(clippy::too_many_arguments)]
    fn metric(f: &Function, kind: u8, name: &str, label: &str, ms: f64, a: f64, b: f64, c: f64, d: f64, flag: bool, error: Option<String>);
}

/// What a client keeps of its host: the functions among its options (read by `hostOptions` in
/// host.js) and its limits.
pub struct HostFns {
    /// The host's functions by [`HostSlot`] (`None` where it gave none, and in the store's slot).
    pub fns: [Option<Function>; HostSlot::COUNT],
    /// The store exactly as given, or the default.
    pub store: JsValue,
    pub timeout_ms: Option<f64>,
    /// `maxResponseBytes`: a longer body is refused while it is read.
    pub max: f64,
}

impl HostFns {
    /// The host's function in `slot`, if it gave one.
    pub fn get(&self, slot: HostSlot) -> Option<&Function> {
        self.fns[slot as usize].as_ref()
    }

    /// Whether the host gave any hook.
    pub fn has_hooks(&self) -> bool {
        [Hook::BeforeLlm, Hook::AfterLlm, Hook::BeforeTool, Hook::AfterTool, Hook::BodyTransform].into_iter().any(|h| self.has(h))
    }
}

/// The slot of each hook (`hooks: { beforeLLM, afterLLM, beforeTool, afterTool }` and
/// `bodyTransform`).
fn slot_of(hook: Hook) -> HostSlot {
    match hook {
        Hook::BeforeLlm => HostSlot::BeforeLlm,
        Hook::AfterLlm => HostSlot::AfterLlm,
        Hook::BeforeTool => HostSlot::BeforeTool,
        Hook::AfterTool => HostSlot::AfterTool,
        Hook::BodyTransform => HostSlot::BodyTransform,
    }
}

/// One run's host side: the client's functions over the run's signal (`undefined` for none: the
/// caller's `signal` and the `timeoutMs` deadline as one, `runSignal` in host.js), which fetch,
/// the body reader, tools, host callbacks and sleeps are given too.
pub struct RunHost<'a> {
    pub fns: &'a HostFns,
    pub signal: &'a JsValue,
    /// Only used to scrub transport error text.
    pub secret: Option<&'a str>,
    /// Host tool functions by name; declaration-only (relay) tools have none.
    pub tools: alloc::rc::Rc<Vec<(String, Function)>>,
}

impl RunHost<'_> {
    /// One model call through `callModel` (host.js): status, `Retry-After` and the body text (or
    /// reader, with `stream`) in one await.
    async fn fetch(&self, req: &HttpRequest, stream: bool) -> Result<(u16, Option<String>, JsValue)> {
        if !self.signal.is_undefined() && abort_state(self.signal) != 0 {
            return Err(aborted(false, None));
        }
        let f = self.fns.get(HostSlot::Fetch).map_or(JsValue::UNDEFINED, |f| f.into());
        let out = await_js(&call_model(&f, &req.url, &request_head(req), &req.body, self.signal, stream, self.fns.max))
            .await
            .map_err(|e| scrubbed(&e, "fetch failed", self.secret))?;
        let out: Array = out.unchecked_into();
        Ok((host_status(out.get(0).as_f64())?, out.get(1).as_string(), out.get(2)))
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

impl Transport for RunHost<'_> {
    fn send<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        Box::pin(async move {
            let (status, retry_after, body) = self.fetch(req, false).await?;
            Ok(HttpResponse { status, body: text_of(body)?, retry_after })
        })
    }

    /// The body as it arrives, through `response.body.getReader()`; a Response without a
    /// readable body (a hand-made mock) is read whole.
    fn open<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<StreamResponse>> {
        Box::pin(async move {
            let (status, retry_after, body) = self.fetch(req, true).await?;
            let body: Box<dyn ByteStream> = match body.is_object() {
                true => Box::new(Reader {
                    reader: body,
                    secret: self.secret.map(str::to_string),
                    max: self.fns.max,
                    signal: self.signal.clone(),
                }),
                false => Box::new(WholeBody(Some(text_of(body)?.into_bytes()))),
            };
            Ok(StreamResponse { status, body, retry_after })
        })
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

impl ToolExecutor for RunHost<'_> {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        id: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        Box::pin(async move {
            let Some((_, f)) = self.tools.iter().find(|(n, _)| n == name) else {
                return Ok(ToolOutcome::from_result(ToolResult::unknown(name)));
            };
            // The hand writer (`json`): serde_json's would be a second one on the run's path.
            let mut text = String::with_capacity(64);
            crate::json::write_object(&mut text, args);
            let answer = answer.map(|a| crate::json::to_text(&a.clone().into_value()));
            // `callTool` (host.js) never rejects: a throw is a failed result fed back to the model.
            let result = match await_js(&guard(&call_tool(f, &text, self.signal, answer, id), self.signal)).await {
                Ok(out) => {
                    let out: Array = out.unchecked_into();
                    ToolResult::from_host_reply(name, out.get(0).as_f64(), out.get(1).as_string().unwrap_or_default())
                }
                Err(e) => ToolResult::error(thrown_message(&e)),
            };
            // The `pending()` marker a JS tool returns is read here, once.
            Ok(ToolOutcome::from_result(result))
        })
    }
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
            let returned = call_host(self.fns.get(HostSlot::WaitFor), to_js(&req.to_value()), "waitFor", self.signal).await?;
            Answer::from_wait_for(&from_js(&returned, "the answer from waitFor")?)
        })
    }
}

/// The host's `onError(info)`, its reply read by the core (`Tier::from_reply`).
impl ErrorPolicy for RunHost<'_> {
    fn decide(&self, info: &ErrorInfo) -> LocalBoxFuture<'_, Result<Tier>> {
        let info = to_js(&info.to_value());
        Box::pin(async move {
            let v = call_host(self.fns.get(HostSlot::OnError), info, "onError", self.signal).await?;
            Ok(Tier::from_reply(v.as_string().as_deref()))
        })
    }
}

/// A sink that throws is ignored: metrics never fail a run.
impl Observer for RunHost<'_> {
    fn metric(&self, m: &Metric) {
        // The JS client's `onMetric` counts every event for `metrics()` (pkg-template/metrics.js),
        // then hands it to the caller's own.
        let Some(f) = self.fns.get(HostSlot::OnMetric) else { return };
        match m {
            Metric::Llm { model, status, ms, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens } => {
                let (p, c, r, w) =
                    (*prompt_tokens as f64, *completion_tokens as f64, *cache_read_tokens as f64, *cache_write_tokens as f64);
                metric(f, 0, model, status, *ms, p, c, r, w, false, None)
            }
            Metric::Tool { tool, source, is_error, ms, pending } => {
                metric(f, 1, tool, source, *ms, 0.0, 0.0, f64::from(u8::from(*pending)), 0.0, *is_error, None)
            }
            Metric::Run { model, turns, tool_calls, total_tokens, ms, error } => {
                metric(f, 2, model, "", *ms, f64::from(*turns), *tool_calls as f64, *total_tokens as f64, 0.0, false, error.clone())
            }
        }
    }
}

/// A backoff sleep and the wait for the abort are one host timer helper (`sleep` in host.js).
fn sleep_for(ms: Option<f64>, signal: &JsValue) -> LocalBoxFuture<'static, ()> {
    let p = sleep(ms, signal);
    Box::pin(async move {
        let _ = await_js(&p).await;
    })
}

impl Sleep for RunHost<'_> {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        sleep_for(Some(ms), self.signal)
    }
}

impl RunHost<'_> {
    /// Calls `method(id, state?)` through `callStore` (host.js). One boxed future serves the
    /// three methods: each distinct future would otherwise be compiled into the wasm again.
    fn call_store<'a>(
        &'a self,
        method: &'static str,
        id: &'a str,
        state: Option<&'a ConversationState>,
    ) -> LocalBoxFuture<'a, Result<JsValue>> {
        Box::pin(async move {
            let state = state.map(ConversationState::to_json);
            let mut p = call_store(&self.fns.store, method, id, state, self.signal);
            if !self.signal.is_undefined() {
                p = guard(&p, self.signal);
            }
            let out = await_js(&p).await.map_err(|e| from_thrown(&e, Code::Store, &format!("store.{method} failed")))?;
            let out: Array = out.unchecked_into();
            if out.length() == 0 {
                return Err(Error::bad_input(format!("the conversation store has no {method}() method")));
            }
            Ok(out.get(0))
        })
    }
}

/// The client's store behind the core's store seam. A store is any object with async `get(id)`,
/// `save(id, state)` and `delete(id)`; `state` is the versioned `ConversationState` as plain JSON
/// data. The rules are in `crate::conversation`; the stores themselves (`memoryStore()`, the
/// default, and the host adapters) are plain JS in `pkg-template/stores.js`: thin wrappers over a
/// `Map` or a host API, and async methods written in Rust would each add a compiled future to
/// the wasm. The run's signal settles a store call that never would.
impl ConversationStore for RunHost<'_> {
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(self.call_store("get", id, None).map(|r| match r? {
            v if v.is_undefined() || v.is_null() => Ok(None),
            v => from_js(&v, "the stored conversation").map(Some),
        }))
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(self.call_store("save", id, Some(state)).map(|r| r.map(drop)))
    }

    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(self.call_store("delete", id, None).map(|r| r.map(drop)))
    }
}

/// The host's hooks, each an async JS function called with JSON data; what they return is read
/// by the core (`crate::json_hooks`), and so is what they throw.
impl HookHost for HostFns {
    fn has(&self, hook: Hook) -> bool {
        self.get(slot_of(hook)).is_some()
    }

    fn call(&self, hook: Hook, arg: Value) -> LocalBoxFuture<'_, Result<Value>> {
        Box::pin(async move {
            let Some(f) = self.get(slot_of(hook)) else { return Ok(Value::Null) };
            let v = settle(f.call1(&JsValue::UNDEFINED, &to_js(&arg)?))
                .await
                .map_err(|e| crate::json_hooks::thrown(get(&e, "name").as_string().as_deref(), thrown_message(&e)))?;
            // The hooks but `bodyTransform` only act on an object; anything else is ignored.
            if hook != Hook::BodyTransform && !v.is_object() {
                return Ok(Value::Null);
            }
            from_js(&v, "a hook's return value")
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
        abort_error(self.signal, self.fns.timeout_ms)
    }

    fn wait(&self) -> LocalBoxFuture<'_, Error> {
        if self.signal.is_undefined() {
            // Nothing can abort this run: no JS promise to make.
            return Box::pin(futures_util::future::pending());
        }
        let fired = sleep_for(None, self.signal);
        Box::pin(async move {
            fired.await;
            self.aborted().unwrap_or_else(|| aborted(false, None))
        })
    }
}
