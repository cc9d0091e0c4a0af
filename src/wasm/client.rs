//! `createClient` and the `Client` class: decode options and each call's inputs, call the core
//! (`session::run` for the loop operations, `translate::translate`) over the JS seams, encode
//! the result. Every method clones an `Rc` into its future, so several runs of one client may be
//! in flight at once (a `&mut self` export would throw "recursive use"). Which operations keep
//! their conversation in the store, and what a prompt or a resume continues, is decided in
//! `crate::session`.

use super::convert::{from_js, get, js_error, string_arg, thrown_message, to_js, JsResult, Text};
use super::hooks::JsHooks;
use super::host::{abort_error, end_run, host_options, options_json, resume_json, run_signal, Fetch, JsTools, RunHost};
use super::store::JsStore;
use super::stream::{EventStream, Sink};
use super::toolkit::{decode as decode_toolkit, Decoded};
use crate::conversation;
use crate::driver::{Abort, CallPolicy, Env, ErrorPolicy, Waiter};
use crate::error::{Error, Result};
use crate::events::EventSink;
use crate::json_hooks::JsonHooks;
use crate::metrics::Observer;
use crate::options::ClientOptions;
use crate::run::LoopConfig;
use crate::session::{self, Input, Mode};
use crate::translate::TranslateRequest;
use js_sys::{Function, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

struct Inner {
    cfg: LoopConfig,
    policy: CallPolicy,
    wait_for: Option<Function>,
    fetch: Option<Function>,
    on_metric: Option<Function>,
    on_error: Option<Function>,
    timeout_ms: Option<f64>,
    max_response_bytes: f64,
    hooks: JsonHooks<JsHooks>,
    store: JsStore,
    registry: std::cell::RefCell<crate::metrics::Registry>,
}

#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

/// The data options are read in the core (`crate::options`) from their JSON text; the edge
/// reads only the host's functions and the store.
fn decode_options(opts: &JsValue, default_store: JsValue) -> Result<Inner> {
    // No text: `undefined` or a function, which the core refuses as not an options object.
    let ClientOptions { cfg, policy, timeout_ms, max_response_bytes } = ClientOptions::from_json_text(options_json(opts).as_deref())?;
    let host = host_options(opts).map_err(|e| Error::bad_input(thrown_message(&e)))?;
    let f = |i: u32| host.get(i).dyn_into::<Function>().ok();
    let store = host.get(9);
    Ok(Inner {
        cfg,
        policy,
        wait_for: f(0),
        fetch: f(1),
        on_metric: f(2),
        on_error: f(3),
        hooks: JsonHooks(JsHooks([f(4), f(5), f(6), f(7), f(8)])),
        timeout_ms,
        max_response_bytes,
        store: JsStore { store: if store.is_undefined() { default_store } else { store }, signal: JsValue::UNDEFINED },
        registry: Default::default(),
    })
}

/// Creates a client. The API key stays inside the client: it is never part of a result, a
/// state or an error message. `default_store` is used when `opts.store` is absent: the entries'
/// `createClient` (pkg-template/api.js) passes a fresh `memoryStore()`.
#[wasm_bindgen(js_name = createClient)]
pub fn create_client(
    #[wasm_bindgen(unchecked_param_type = "ClientOptions")] opts: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConversationStore | undefined")] default_store: JsValue,
) -> JsResult<Client> {
    decode_options(&opts, default_store).map(|inner| Client { inner: Rc::new(inner) }).map_err(js_error)
}

/// What an operation does once its inputs are decoded.
enum Work<'a> {
    Loop(Mode, Input<'a>),
    Translate(TranslateRequest),
}

impl Inner {
    /// Drives one operation through the core over the JS seams, built over the run's signal
    /// (`runSignal` in host.js): a loop operation (`session::run`) or a translation, whose chunks
    /// go to the sink.
    async fn execute(&self, work: Work<'_>, toolkit: Decoded, sink: Option<&Sink>, signal: &JsValue, store: &JsStore) -> Result<JsValue> {
        let host = RunHost {
            wait_for: self.wait_for.as_ref(),
            on_error: self.on_error.as_ref(),
            on_metric: self.on_metric.as_ref(),
            registry: &self.registry,
            signal,
            timeout_ms: self.timeout_ms,
        };
        let transport =
            Fetch { fetch: self.fetch.as_ref(), signal, secret: self.cfg.provider.api_key.as_deref(), max: self.max_response_bytes };
        // Tools see the caller's own signal when there is no deadline (`public`, host.js).
        let tools = JsTools { fns: toolkit.fns, signal: get(signal, "public"), run: signal };
        let ids = super::ids();
        let clock = js_sys::Date::now;
        let policy = CallPolicy { stream: sink.is_some(), ..self.policy.clone() };
        let env = Env {
            policy: &policy,
            waiter: host.wait_for.is_some().then_some(&host as &dyn Waiter),
            observer: Some(&host as &dyn Observer),
            events: sink.map(|s| s as &dyn EventSink),
            sleep: Some(&host),
            on_error: host.on_error.is_some().then_some(&host as &dyn ErrorPolicy),
            abort: (!signal.is_undefined()).then_some(&host as &dyn Abort),
            hooks: self.hooks.0.any().then_some(&self.hooks as &dyn crate::hooks::Hooks),
            random: &js_sys::Math::random,
            ..Env::new(&transport, &tools, &ids, &clock)
        };
        match work {
            Work::Loop(mode, input) => {
                let r = session::run(&self.cfg, mode, toolkit.kit, input, store, &env).await?;
                // A stream's result went out in its `done` event: nothing to return.
                Ok(match sink.and_then(Sink::iterable) {
                    Some(_) => JsValue::UNDEFINED,
                    None => super::convert::result_to_js(&r),
                })
            }
            Work::Translate(request) => {
                let emit = |chunk: serde_json::Value| {
                    if let Some(s) = sink {
                        s.push(&chunk);
                    }
                };
                let chunks = sink.map(|_| &emit as &dyn Fn(serde_json::Value));
                to_js(&crate::translate::translate(&self.cfg.provider, &self.cfg.system_prompt, request, &env, chunks).await?)
            }
        }
    }
}

/// A prompt as the core reads it (a string or an array of parts). Out of line: inlined, it
/// would be copied into the one future that serves every operation.
#[inline(never)]
fn prompt_of(v: &JsValue) -> Result<crate::message::Message> {
    // The usual prompt, a string, needs no JSON round.
    if let Some(s) = v.as_string() {
        return crate::message::Message::prompt(&serde_json::Value::String(s));
    }
    // JSON makes a Date (or a boxed String) a string: only a string itself is one.
    let data = match from_js(v, "prompt")? {
        serde_json::Value::String(_) if !v.is_string() => serde_json::Value::Null,
        data => data,
    };
    crate::message::Message::prompt(&data)
}

/// Every operation of the client, so that one future type (and one task) serves
/// them all: each distinct future would otherwise be compiled into the wasm again. A loop
/// operation has a prompt, or none to resume with the host's answer.
enum Op {
    Loop(Mode, Option<JsValue>, JsValue),
    Discard(JsValue, JsValue),
    Translate(JsValue),
}

/// What an operation's options hold besides JSON data, read and checked in one crossing
/// (`runOptions` in host.js): any JS value may arrive, and a getter that throws is refused too.
struct Args {
    toolkit: JsValue,
    /// Absent, or an object with `aborted` and `addEventListener`.
    signal: JsValue,
    /// `onText`, wrapped so that neither its throw nor its rejection reaches the host.
    on_text: JsValue,
    /// A non-empty conversation id.
    id: Option<String>,
    keep_history: bool,
    history: JsValue,
}

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// `[toolkit, signal, onText, id, keepHistory, history]`; throws a refusal's message.
    #[wasm_bindgen(js_name = runOptions, catch)]
    fn run_options(opts: &JsValue) -> std::result::Result<js_sys::Array, JsValue>;
}

fn read_args(opts: &JsValue) -> Result<Args> {
    let a = run_options(opts).map_err(|e| Error::bad_input(thrown_message(&e)))?;
    Ok(Args {
        toolkit: a.get(0),
        signal: a.get(1),
        on_text: a.get(2),
        id: a.get(3).as_string(),
        keep_history: a.get(4).is_truthy(),
        history: a.get(5),
    })
}

/// The run's signal (`runSignal`), ended (`endRun`, host.js) when the operation's future completes
/// or is dropped, so that a settled run holds nothing.
struct RunSignal(JsValue);

impl Drop for RunSignal {
    fn drop(&mut self) {
        end_run(&self.0);
    }
}

/// Each inner future is awaited at one place only: every await site of a future is a copy of
/// its polling in the wasm.
async fn perform(inner: Rc<Inner>, op: Op, sink: Option<Sink>) -> Result<JsValue> {
    let (Op::Loop(_, _, opts) | Op::Discard(_, opts) | Op::Translate(opts)) = &op;
    let a = read_args(opts)?;
    // No signal, no deadline and no stream: nothing can abort the run, and nothing is made for it.
    let user = if matches!(op, Op::Discard(..)) { JsValue::UNDEFINED } else { a.signal.clone() };
    // A stream always has one: its consumer leaving aborts the run.
    let stream = sink.as_ref().and_then(Sink::iterable);
    let run = RunSignal(match (user.is_undefined() && inner.timeout_ms.is_none(), stream) {
        (true, None) => user,
        (_, s) => run_signal(&user, inner.timeout_ms, s.map_or(&JsValue::UNDEFINED, |s| s.as_ref())),
    });
    let signal = &run.0;
    let text = |t: &JsValue| string_arg(t, false, "the prompt (or id) must be a string").map(Option::unwrap_or_default);
    let mut sink = sink;
    let history = || from_js(&a.history, "history");
    let (work, toolkit) = match op {
        Op::Discard(id, _) => return conversation::discard(&inner.store, &text(&id)?, a.keep_history).await.map(|_| JsValue::UNDEFINED),
        Op::Translate(req) => {
            let toolkit = decode_toolkit(&a.toolkit)?;
            (Work::Translate(TranslateRequest::from_json(&from_js(&req, "translate request")?, &toolkit.kit)?), toolkit)
        }
        Op::Loop(mode, prompt, opts) => {
            let prompt = prompt.as_ref().map(prompt_of).transpose()?;
            // `ask`: with `onText` the model replies are streamed and each text delta is handed
            // over; neither its throw nor its rejection may reach the host as uncaught.
            if mode == Mode::Ask && prompt.is_some() && a.on_text.is_function() {
                sink = Some(Sink::text_callback(a.on_text.clone().unchecked_into()));
            }
            // The resume options are read before the toolkit, and a refusal of either while the
            // run is aborted reports the abort, as the core does for the rest of the preparation.
            let begin = || -> Result<_> {
                let input = match prompt {
                    Some(prompt) => Input::Prompt { prompt, id: a.id.clone(), history: &history },
                    None => Input::resume(&resume_json(&opts), mode)?,
                };
                Ok((Work::Loop(mode, input), decode_toolkit(&a.toolkit)?))
            };
            begin().map_err(|e| abort_error(signal, inner.timeout_ms).unwrap_or(e))?
        }
    };
    // The deadline and the signal cover the store too: its calls are settled by the abort.
    let run_store;
    let store = match signal.is_undefined() {
        true => &inner.store,
        false => {
            run_store = JsStore { store: inner.store.store.clone(), signal: signal.clone() };
            &run_store
        }
    };
    inner.execute(work, toolkit, sink.as_ref(), signal, store).await
}

fn promise(inner: &Rc<Inner>, op: Op) -> Promise {
    let fut = perform(inner.clone(), op, None);
    super::task::promise(async move { fut.await.map_err(js_error) })
}

fn event_stream(inner: &Rc<Inner>, op: Op) -> EventStream {
    let inner = inner.clone();
    EventStream::start(move |sink| Box::pin(async move { perform(inner, op, Some(sink)).await.map(|_| ()) }))
}

#[wasm_bindgen]
impl Client {
    /// Runs the loop on a prompt: a `RunResult`, `"done"`, `"incomplete"` or `"pending"` (a tool
    /// suspended and no `waitFor` was given). Never touches the store.
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Part[]")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunOptions")] opts: JsValue,
    ) -> Promise {
        promise(&self.inner, Op::Loop(Mode::Run, Some(prompt), opts))
    }

    /// Resumes a halted run with the host's answer (`history` + `pending`, or the `state`).
    #[wasm_bindgen(js_name = runWithAnswer, unchecked_return_type = "Promise<RunResult>")]
    pub fn run_with_answer(&self, #[wasm_bindgen(unchecked_param_type = "ResumeOptions")] opts: JsValue) -> Promise {
        promise(&self.inner, Op::Loop(Mode::Run, None, opts))
    }

    /// `run` keeping the conversation `id` in the store (loaded, then saved after every turn and
    /// before any `waitFor`); `onText(delta)` streams the text.
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn ask(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Part[]")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AskOptions")] opts: JsValue,
    ) -> Promise {
        promise(&self.inner, Op::Loop(Mode::Ask, Some(prompt), opts))
    }

    /// Resumes the halted conversation `id` with the host's answer (`pending` from the store).
    #[wasm_bindgen(js_name = askWithAnswer, unchecked_return_type = "Promise<RunResult>")]
    pub fn ask_with_answer(&self, #[wasm_bindgen(unchecked_param_type = "AskWithAnswerOptions")] opts: JsValue) -> Promise {
        promise(&self.inner, Op::Loop(Mode::Ask, None, opts))
    }

    /// Streams a run as `StreamEvent`s ending with `done`; with `id` the store is used, as by `ask`.
    #[wasm_bindgen(unchecked_return_type = "EventStream")]
    pub fn stream(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Part[]")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StreamOptions")] opts: JsValue,
    ) -> EventStream {
        event_stream(&self.inner, Op::Loop(Mode::Stream, Some(prompt), opts))
    }

    /// Streams a resume: `{ answer }` with `id` (from the store), `state`, or `history` + `pending`.
    #[wasm_bindgen(js_name = streamWithAnswer, unchecked_return_type = "EventStream")]
    pub fn stream_with_answer(&self, #[wasm_bindgen(unchecked_param_type = "StreamWithAnswerOptions")] opts: JsValue) -> EventStream {
        event_stream(&self.inner, Op::Loop(Mode::Stream, None, opts))
    }

    /// One provider call for an OpenAI chat request, whatever this client's style; an OpenAI
    /// shaped `TranslateResult`. Nothing runs.
    #[wasm_bindgen(unchecked_return_type = "Promise<TranslateResult>")]
    pub fn translate(&self, #[wasm_bindgen(unchecked_param_type = "TranslateRequest")] request: JsValue) -> Promise {
        promise(&self.inner, Op::Translate(request))
    }

    /// `translate` streamed as OpenAI `chat.completion.chunk` objects, then a usage chunk.
    #[wasm_bindgen(js_name = translateStream, unchecked_return_type = "AsyncIterable<ChatCompletionChunk>")]
    pub fn translate_stream(&self, #[wasm_bindgen(unchecked_param_type = "TranslateRequest")] request: JsValue) -> EventStream {
        event_stream(&self.inner, Op::Translate(request))
    }

    /// Drops the conversation `id`; `keepHistory` keeps it, its waiting calls closed as declined.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn discard(
        &self,
        id: Text,
        #[wasm_bindgen(unchecked_param_type = "{ keepHistory?: boolean } | undefined")] opts: JsValue,
    ) -> Promise {
        promise(&self.inner, Op::Discard(id.into(), opts))
    }

    /// The store this client keeps conversations in (the exact object given, or the default).
    #[wasm_bindgen(js_name = conversationStore, unchecked_return_type = "ConversationStore")]
    pub fn conversation_store(&self) -> JsValue {
        self.inner.store.store.clone()
    }

    /// Prometheus text of this client's LLM requests, tokens, durations, tool calls and errors.
    pub fn metrics(&self) -> String {
        self.inner.registry.borrow().render()
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
