//! `createClient` and the `Client` class: decode options, run the core driver over the JS seams,
//! encode the `RunResult`. Methods take `&self` and clone an `Rc`, so several runs of one
//! client may be in flight at once (a `&mut self` export would throw "recursive use").

use super::convert::{from_js, get, js_error, opt_function, opt_string, req_string, to_js, JsResult};
use super::host::{Fetch, JsTools, OnMetric, WaitFor};
use super::toolkit::decode as decode_toolkit;
use crate::dialect;
use crate::driver::{drive, Env, Waiter};
use crate::message::Message;
use crate::metrics::Observer;
use crate::error::{Error, Result};
use crate::provider::{ProviderConfig, Style};
use crate::run::{ResumeInput, Run, RunConfig, Step, DEFAULT_MAX_TURNS};
use crate::suspend::{Answer, Request};
use js_sys::{Function, Object, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

struct Inner {
    cfg: RunConfig,
    wait_for: Option<Function>,
    fetch: Option<Function>,
    on_metric: Option<Function>,
}

#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

fn decode_options(opts: &JsValue) -> Result<Inner> {
    let what = "createClient options";
    if !opts.is_object() {
        return Err(Error::bad_input("createClient needs an options object"));
    }
    let style = Style::parse(&req_string(opts, "style", what)?)?;
    let mut headers = Vec::new();
    let h = get(opts, "headers");
    if h.is_object() {
        for key in Object::keys(h.unchecked_ref::<Object>()).iter() {
            let k = key.as_string().unwrap_or_default();
            let v = get(&h, &k).as_string().ok_or_else(|| Error::bad_input(format!("headers.{k} must be a string")))?;
            headers.push((k, v));
        }
    } else if !h.is_undefined() && !h.is_null() {
        return Err(Error::bad_input("headers must be an object of strings"));
    }
    let max_turns = match get(opts, "maxTurns").as_f64() {
        None if get(opts, "maxTurns").is_undefined() => DEFAULT_MAX_TURNS,
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => n as u32,
        _ => return Err(Error::bad_input("maxTurns must be a whole number of at least 1")),
    };
    Ok(Inner {
        cfg: RunConfig {
            provider: ProviderConfig {
                base_url: req_string(opts, "baseUrl", what)?,
                style,
                model: req_string(opts, "model", what)?,
                api_key: opt_string(opts, "apiKey", what)?,
                headers,
            },
            system_prompt: opt_string(opts, "systemPrompt", what)?.unwrap_or_default(),
            max_turns,
            stream: false,
        },
        wait_for: opt_function(opts, "waitFor", what)?,
        fetch: opt_function(opts, "fetch", what)?,
        on_metric: opt_function(opts, "onMetric", what)?,
    })
}

/// Creates a client. The API key stays inside the client: it is never part of a result, a
/// state or an error message.
#[wasm_bindgen(js_name = createClient)]
pub fn create_client(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] opts: JsValue) -> JsResult<Client> {
    decode_options(&opts).map(|inner| Client { inner: Rc::new(inner) }).map_err(js_error)
}

/// A history (JS array of messages in either dialect) to the neutral transcript, parsed from one
/// `JSON.stringify` text.
fn history_of(v: &JsValue) -> Result<Vec<Message>> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    if !js_sys::Array::is_array(v) {
        return Err(Error::bad_input("history must be an array of messages"));
    }
    let text = js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::bad_input("history is not JSON data"))?;
    dialect::read_json(&text)
}

impl Inner {
    async fn execute(&self, run: Run, step: Step, fns: Vec<(String, Function)>, signal: JsValue) -> Result<JsValue> {
        let transport = Fetch { fetch: self.fetch.clone(), signal, secret: self.cfg.provider.api_key.clone() };
        let tools = JsTools { fns, signal: transport.signal.clone() };
        let waiter = self.wait_for.clone().map(WaitFor);
        let observer = self.on_metric.clone().map(OnMetric);
        let ids = super::ids();
        let clock = || js_sys::Date::now();
        let env = Env {
            transport: &transport,
            tools: &tools,
            waiter: waiter.as_ref().map(|w| w as &dyn Waiter),
            observer: observer.as_ref().map(|o| o as &dyn Observer),
            events: None,
            persist: None,
            ids: &ids,
            clock: &clock,
        };
        let result = drive(run, step, &env).await?;
        to_js(&result)
    }

    async fn run(&self, prompt: String, opts: JsValue) -> Result<JsValue> {
        let toolkit = decode_toolkit(&get(&opts, "toolkit"))?;
        let history = history_of(&get(&opts, "history"))?;
        let (run, step) = Run::start(self.cfg.clone(), toolkit.kit, history, &prompt)?;
        self.execute(run, step, toolkit.fns, get(&opts, "signal")).await
    }

    async fn run_with_answer(&self, opts: JsValue) -> Result<JsValue> {
        let toolkit = decode_toolkit(&get(&opts, "toolkit"))?;
        let answer_v = get(&opts, "answer");
        if !answer_v.is_object() {
            return Err(Error::bad_input("runWithAnswer needs an answer object { id, ok, data? }"));
        }
        let answer: Answer = serde_json::from_value(from_js(&answer_v, "answer")?)
            .map_err(|e| Error::bad_input(format!("answer is invalid: {e}")))?;
        let state = get(&opts, "state");
        let (history, pending) = if state.is_undefined() || state.is_null() {
            let pending_v = get(&opts, "pending");
            if !pending_v.is_object() {
                return Err(Error::bad_input("runWithAnswer needs { history, pending } or a pending RunResult as state"));
            }
            let pending: Request = serde_json::from_value(from_js(&pending_v, "pending")?)
                .map_err(|e| Error::bad_input(format!("pending is invalid: {e}")))?;
            (history_of(&get(&opts, "history"))?, pending)
        } else {
            let h = crate::state::load(&from_js(&state, "state")?)?;
            (dialect::read(&h.messages)?, h.pending)
        };
        let (run, step) = Run::resume(self.cfg.clone(), toolkit.kit, ResumeInput { history, pending, answer })?;
        self.execute(run, step, toolkit.fns, get(&opts, "signal")).await
    }
}

#[wasm_bindgen]
impl Client {
    /// Runs the loop on a prompt. Resolves to a `RunResult` whose `status` is `"done"`,
    /// `"incomplete"` (with `limit`), or `"pending"` (with `pending`) when a tool suspended and
    /// no `waitFor` was given.
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn run(&self, prompt: String, #[wasm_bindgen(unchecked_param_type = "RunOptions")] opts: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move { inner.run(prompt, opts).await.map_err(js_error) })
    }

    /// Resumes a halted run with the host's answer: `{ toolkit, history, pending, answer }` or
    /// `{ toolkit, state, answer }` where `state` is the whole pending `RunResult`.
    #[wasm_bindgen(js_name = runWithAnswer, unchecked_return_type = "Promise<RunResult>")]
    pub fn run_with_answer(&self, #[wasm_bindgen(unchecked_param_type = "ResumeOptions")] opts: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move { inner.run_with_answer(opts).await.map_err(js_error) })
    }

    /// The client's style.
    #[wasm_bindgen(getter)]
    pub fn style(&self) -> String {
        self.inner.cfg.provider.style.as_str().into()
    }

    /// The model id sent verbatim to the provider.
    #[wasm_bindgen(getter)]
    pub fn model(&self) -> String {
        self.inner.cfg.provider.model.clone()
    }
}
