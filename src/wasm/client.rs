//! `createClient` and the `Client` class's one wasm operation, `op(kind, a, b, stream)`: the
//! class's methods are written in pkg-template/client-methods.js, each one kind of it (one export instead
//! of thirteen: each would be glue JS and a wasm shim of its own). This file decodes options and
//! each call's inputs, calls the core (`session::run` for the loop operations,
//! `translate::translate`) over the JS seams, and encodes the result. Every operation clones an
//! `Rc` into its future, so several runs of one client may be in flight at once (a `&mut self`
//! export would throw "recursive use"). Which operations keep their conversation in the store,
//! and what a prompt or a resume continues, is decided in `crate::session`.

use super::host::{abort_error, end_run, host_options, options_json, resume_json, HostFns, RunHost};
use super::stream::Sink;
use super::toolkit::decode as decode_toolkit;
use crate::conversation;
use crate::driver::{CallPolicy, Env};
use crate::edge::{from_js, js_error, string_arg, thrown_message, to_js, JsResult};
use crate::error::{Error, Result};
use crate::events::EventSink;
use crate::json_hooks::JsonHooks;
use crate::ops::{ClientOp, RunSlot};
use crate::options::{ClientOptions, HostSlot};
use crate::run::LoopConfig;
use crate::session::{self, Input, Mode};
use crate::translate::TranslateRequest;
use alloc::rc::Rc;
use js_sys::Function;
use wasm_bindgen::prelude::*;

struct Inner {
    cfg: LoopConfig,
    policy: CallPolicy,
    host: HostFns,
}

// Typed in pkg-template/index.d.ts, where its methods are: only `free()` is the glue's.
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    inner: Rc<Inner>,
}

/// Creates a client. The API key stays inside the client: it is never part of a result, a
/// state or an error message. `default_store` is used when `opts.store` is absent: the entries'
/// `createClient` (pkg-template/create-client.js) passes a fresh `memoryStore()`. The data options are read
/// in the core (`crate::options`) from their JSON text; the edge reads only the host's functions
/// and the store.
#[wasm_bindgen(js_name = createClient, skip_typescript)]
pub fn create_client(opts: JsValue, default_store: JsValue) -> JsResult<Client> {
    let decode = || -> Result<Inner> {
        // No text: `undefined` or a function, which the core refuses as not an options object.
        let ClientOptions { cfg, policy, timeout_ms, max_response_bytes: max } =
            ClientOptions::from_json_text(options_json(&opts).as_deref())?;
        let fns = host_options(&opts, &default_store).map_err(|e| Error::bad_input(thrown_message(&e)))?;
        let host = HostFns {
            fns: core::array::from_fn(|i| fns.get(i as u32).dyn_into::<Function>().ok()),
            store: fns.get(HostSlot::Store.at()),
            timeout_ms,
            max,
        };
        Ok(Inner { cfg, policy, host })
    };
    decode().map(|inner| Client { inner: Rc::new(inner) }).map_err(js_error)
}

/// What an operation does once its inputs are decoded, matched at the end of `perform` rather
/// than in a function of its own: each extra future around `session::run` and `translate` is
/// compiled again (docs/decisions/small-std.md). Made once per operation and moved once, as
/// `Input` is: a box would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Work<'a> {
    Loop(Mode, Input<'a>),
    Translate(TranslateRequest),
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

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// What an operation's options hold besides JSON data, read and checked in one crossing
    /// (any JS value may arrive, and a getter that throws is refused too): `[toolkit, signal,
    /// onText (wrapped so that neither its throw nor its rejection reaches the host), id
    /// (non-empty), keepHistory, history, keys (those not `undefined`)]`; throws a refusal's
    /// message. `signal` is the run's:
    /// none when nothing can abort the run (no signal, no deadline, no stream: nothing is made
    /// for it) or with `run` false; a stream given here is bound to it (its consumer leaving
    /// aborts the run, and host calls wait for it to drain).
    #[wasm_bindgen(js_name = runOptions, catch)]
    fn run_options(opts: &JsValue, run: bool, ms: Option<f64>, stream: Option<&JsValue>) -> core::result::Result<js_sys::Array, JsValue>;
}

/// The run's signal (`runSignal`), ended (`endRun`, host.js) when the operation's future completes
/// or is dropped, so that a settled run holds nothing.
struct RunSignal(JsValue);

impl Drop for RunSignal {
    fn drop(&mut self) {
        end_run(&self.0);
    }
}

/// Every operation of the client, so that one future type (and one task) serves
/// them all: each distinct future would otherwise be compiled again. Each inner future is
/// awaited at one place only: every await site of a future compiles its polling again.
async fn perform(inner: Rc<Inner>, kind: ClientOp, a: JsValue, b: JsValue, sink: Option<Sink>) -> Result<JsValue> {
    let discard = kind == ClientOp::Discard;
    let prompt = kind.takes_prompt().then_some(&a);
    let (opts, ms) = (if prompt.is_some() || discard { &b } else { &a }, inner.host.timeout_ms);
    let o = run_options(opts, !discard, ms, sink.as_ref().and_then(Sink::iterable).map(AsRef::as_ref))
        .map_err(|e| Error::bad_input(thrown_message(&e)))?;
    let slot = |s: RunSlot| o.get(s.at());
    let run = RunSignal(slot(RunSlot::Signal));
    // Every key checked, as `createClient`'s are (the rule and its hints are the core's).
    crate::options::check_call_options(kind, &crate::edge::strings(slot(RunSlot::Keys).unchecked_ref()))?;
    let signal = &run.0;
    if discard {
        let id = string_arg(&a, false, "the prompt (or id) must be a string")?.unwrap_or_default();
        let store = RunHost { fns: &inner.host, signal, secret: None, tools: Default::default() };
        return conversation::discard(&store, &id, slot(RunSlot::KeepHistory).is_truthy()).await.map(|_| JsValue::UNDEFINED);
    }
    let mut sink = sink;
    let history = || from_js(&slot(RunSlot::History), "history");
    let (work, toolkit) = if matches!(kind, ClientOp::Translate | ClientOp::TranslateStream) {
        let toolkit = decode_toolkit(&slot(RunSlot::Toolkit))?;
        (Work::Translate(TranslateRequest::from_json(&from_js(&a, "translate request")?, &toolkit.kit)?), toolkit)
    } else {
        let mode = match kind {
            ClientOp::Run | ClientOp::RunWithAnswer => Mode::Run,
            ClientOp::Ask | ClientOp::AskWithAnswer => Mode::Ask,
            _ => Mode::Stream,
        };
        let prompt = prompt.map(prompt_of).transpose()?;
        // `ask`: with `onText` the model replies are streamed and each text delta is handed
        // over; neither its throw nor its rejection may reach the host as uncaught.
        if mode == Mode::Ask && prompt.is_some() && slot(RunSlot::OnText).is_function() {
            sink = Some(Sink::Text(slot(RunSlot::OnText).unchecked_into()));
        }
        // The resume options are read before the toolkit, and a refusal of either while the
        // run is aborted reports the abort, as the core does for the rest of the preparation.
        let begin = || -> Result<_> {
            let input = match prompt {
                Some(prompt) => Input::Prompt { prompt, id: slot(RunSlot::Id).as_string(), history: &history },
                None => Input::resume(&resume_json(&a), mode)?,
            };
            Ok((Work::Loop(mode, input), decode_toolkit(&slot(RunSlot::Toolkit))?))
        };
        begin().map_err(|e| abort_error(signal, ms).unwrap_or(e))?
    };
    // One operation through the core over the JS seams, built over the run's signal: a loop
    // operation (`session::run`) or a translation, whose chunks go to the sink. The deadline and
    // the signal cover the store too: its calls are settled by the abort.
    let (sink, fns) = (sink.as_ref(), &inner.host);
    let host = RunHost { fns, signal, secret: inner.cfg.provider.api_key.as_deref(), tools: toolkit.fns };
    let ids = super::ids();
    let clock = js_sys::Date::now;
    let policy = CallPolicy { stream: sink.is_some(), ..inner.policy.clone() };
    let hooks = JsonHooks(fns);
    let env = Env {
        policy: &policy,
        waiter: fns.get(HostSlot::WaitFor).is_some().then_some(&host as _),
        observer: Some(&host),
        events: sink.map(|s| s as &dyn EventSink),
        sleep: Some(&host),
        on_error: fns.get(HostSlot::OnError).is_some().then_some(&host as _),
        abort: (!signal.is_undefined()).then_some(&host as _),
        hooks: fns.has_hooks().then_some(&hooks as _),
        random: &js_sys::Math::random,
        ..Env::new(&host, &host, &ids, &clock)
    };
    let emit = |chunk: serde_json::Value| {
        if let Some(s) = sink.and_then(Sink::iterable) {
            s.push(&crate::json::to_text(&chunk));
        }
    };
    let chunks = sink.map(|_| &emit as &dyn Fn(serde_json::Value));
    Ok(match work {
        Work::Loop(mode, input) => {
            let r = session::run(&inner.cfg, mode, toolkit.kit, input, &host, &env).await?;
            // A stream's result went out in its `done` event: nothing to return.
            match sink.and_then(Sink::iterable) {
                Some(_) => JsValue::UNDEFINED,
                None => crate::edge::result_to_js(&r),
            }
        }
        Work::Translate(request) => {
            to_js(&crate::translate::translate(&inner.cfg.provider, &inner.cfg.system_prompt, request, &env, chunks).await?)?
        }
    })
}

#[wasm_bindgen]
impl Client {
    /// Every method of the class by kind (`ClientOp`, named in pkg-template/api.js): the loop
    /// operations (see `perform`), `translate(request)`, `translateStream(request)`, `discard(id,
    /// options)`, `conversationStore()`, `metrics()`, the `style` and `model` getters: a promise or
    /// the value itself. A streamed operation is given the `EventStream` its events go to (api.js
    /// makes it and ends it when the promise settles). `free` is the glue's own.
    pub fn op(&self, kind: u8, a: JsValue, b: JsValue, stream: JsValue) -> JsValue {
        let inner = self.inner.clone();
        match ClientOp::of(kind) {
            Some(ClientOp::ConversationStore) => inner.host.store.clone(),
            // Counted and rendered by the JS client from its `onMetric` events (metrics.js).
            Some(ClientOp::Metrics) => JsValue::UNDEFINED,
            Some(ClientOp::Style) => inner.cfg.provider.style.as_str().into(),
            Some(ClientOp::Model) => inner.cfg.provider.model.as_str().into(),
            None | Some(ClientOp::Free) => js_sys::Promise::reject(&js_error(Error::internal("no such operation"))).into(),
            Some(kind) => {
                let sink = (!stream.is_undefined()).then(|| Sink::Stream(stream.unchecked_into()));
                // Boxed: the promise's wrappers move their future several times before its
                // first poll, and a pointer moves cheaper than the whole operation's state.
                let fut = alloc::boxed::Box::pin(perform(inner, kind, a, b, sink));
                wasm_bindgen_futures::future_to_promise(async move { fut.await.map_err(js_error) }).into()
            }
        }
    }
}
