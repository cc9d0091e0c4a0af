//! The one async driver: it walks the state machine's steps over two seams, a [`Transport`]
//! (HTTP, whole or streamed) and a [`ToolExecutor`] (host tools), plus optional host callbacks:
//! a [`Waiter`] (`waitFor`), an [`Observer`] (metrics), an [`EventSink`] (stream events) and a
//! [`Persist`] (the conversation store). It is the only code in the core that awaits. `run`,
//! `stream` and `ask` all go through it: there is one loop, and one model call
//! (`call::model_call`, which `translate` uses too).
//!
//! All calls of a turn run concurrently, and so do the `waitFor` calls of several suspensions in
//! one turn. With a store, the state is saved after every completed turn and before any
//! `waitFor` is called.

use crate::prelude::*;
mod agent;
mod call;
mod tools;

pub(crate) use call::{hook_failed, model_call, CallSubject};

use crate::error::{Error, Result};
use crate::events::{EventSink, StreamEvent};
use crate::hooks::{Hook, Hooks};
/// The body seam lives below the driver and the tool sources; the edge takes it from here too.
pub use crate::http::{ByteStream, WholeBody};
use crate::metrics::{Metric, Observer};
pub use crate::options::CallPolicy;
use crate::provider::{HttpRequest, HttpResponse, ModelReply};
use crate::retry::{ErrorInfo, DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_RETRY_BASE_MS};
use crate::run::{Checkpoint, Run, RunResult, Status, Step};
use crate::small::{borrow, borrow_mut};
use crate::state::ConversationState;
use crate::suspend::{Answer, IdGen, Request, ToolOutcome};
use crate::tool::ToolSpec;
use core::cell::RefCell;
use futures_util::future::{select, Either, LocalBoxFuture};
use serde_json::{Map, Value};

pub struct StreamResponse {
    pub status: u16,
    pub body: Box<dyn ByteStream>,
    pub retry_after: Option<String>,
}

pub trait Transport {
    /// Borrowed: a retried call sends the same request again without copying it.
    fn send<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>>;

    /// Sends and hands back the body as it arrives. The default reads it whole.
    fn open<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<StreamResponse>> {
        Box::pin(async move {
            let r = self.send(req).await?;
            Ok(StreamResponse { status: r.status, body: Box::new(WholeBody(Some(r.body.into_bytes()))), retry_after: r.retry_after })
        })
    }
}

/// The error of an aborted run: by its deadline (`timeoutMs`), or by its signal.
pub fn aborted(by_deadline: bool, timeout_ms: Option<f64>) -> Error {
    match timeout_ms.filter(|_| by_deadline) {
        Some(ms) => Error::new(crate::error::Code::Aborted, format!("run timeout after {}ms", crate::metrics::js_number(ms))),
        None => Error::new(crate::error::Code::Aborted, "the run was aborted"),
    }
}

/// A reply body longer than `maxResponseBytes` (the host's reader counts it).
pub fn too_large() -> Error {
    Error::new(crate::error::Code::ResponseTooLarge, "the reply is longer than maxResponseBytes")
}

/// The status of a host's model call, where two values below any HTTP status stand for failures
/// the host's fetch helper found: 0 (or none) a value that is not a `Response`, 1 a body longer
/// than `maxResponseBytes`.
pub fn host_status(status: Option<f64>) -> Result<u16> {
    use crate::ops::{STATUS_NO_RESPONSE, STATUS_TOO_LARGE};
    match status.unwrap_or(0.0) as u16 {
        STATUS_NO_RESPONSE => Err(Error::new(crate::error::Code::Transport, "fetch resolved to something that is not a Response")),
        STATUS_TOO_LARGE => Err(too_large()),
        status => Ok(status),
    }
}

/// Method and headers of a request as one JSON text, for a host that takes them whole (one
/// `JSON.parse` in JS, not a call per header), with `redirect: "manual"`: a redirect is never
/// followed, since following it would send the key headers to whatever origin it names.
/// `"error"` would say the same, but workerd refuses that mode for every request; `"manual"`
/// hands the 3xx (or a browser's opaque redirect) back, and the caller refuses it
/// ([`crate::provider::status_error`]).
pub fn request_head(req: &HttpRequest) -> String {
    let mut head = String::new();
    crate::json::write_obj(&mut head, |o| {
        o.str("method", "POST").str("redirect", "manual").obj("headers", |h| {
            for (k, v) in &req.headers {
                h.str(k, v);
            }
        });
        // Not part of the request: host.js hands it to `fetch` apart, as its third argument.
        if !req.call_path.is_empty() {
            o.str("callPath", &req.call_path);
        }
    });
    head
}

/// Runs host tools. A host tool that throws is a failed *result*, not an error: executors turn
/// it into `{ output: message, isError: true }`. `Err` is reserved for failures of the run itself.
/// A suspension (the host tool returned `pending(...)`) is [`ToolOutcome::Suspend`]: the host
/// edge decodes its wire marker once, and the core never looks into result metadata for it.
pub trait ToolExecutor {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        // The provider's id of the call: a host names durable work after it (a Workflow step).
        id: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>>;
}

/// The host's `waitFor`. `None` in [`Env::waiter`] means durable halt. No answer at all
/// (`Ok(None)`) is a decline, by the core's rule.
pub trait Waiter {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>>;
}

/// Saves the conversation (the store under one id). A failed save fails the run: a host that
/// asked for persistence must not believe a state is safe when it is not.
pub trait Persist {
    fn save(&self, state: ConversationState) -> LocalBoxFuture<'_, Result<()>>;
    /// Saves what `state()` gives when the save is sent. A store-backed persister may serve
    /// several requests with one save of the latest state (see `conversation::Saver`).
    fn save_latest<'s>(&'s self, state: &'s dyn Fn() -> ConversationState) -> LocalBoxFuture<'s, Result<()>> {
        self.save(state())
    }
}

/// Waits between retries. Without one, retries happen at once (tests).
pub trait Sleep {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Retry,
    Fail,
}

impl Tier {
    /// What a host's `onError` returned: the string `"retry"` retries, anything else fails.
    pub fn from_reply(reply: Option<&str>) -> Tier {
        if reply == Some("retry") {
            Tier::Retry
        } else {
            Tier::Fail
        }
    }
}

/// The host's `onError(info)`: retry or fail this failed attempt (never beyond `retries`).
pub trait ErrorPolicy {
    fn decide(&self, info: &ErrorInfo) -> LocalBoxFuture<'_, Result<Tier>>;
}

/// The run's abort signal (`signal` and `timeoutMs` together).
pub trait Abort {
    /// `Some(error)` once aborted.
    fn aborted(&self) -> Option<Error>;
    /// Resolves with the abort error when the run is aborted.
    fn wait(&self) -> LocalBoxFuture<'_, Error>;
}

impl CallPolicy {
    /// One attempt, whole replies, the body as built.
    pub const SINGLE: CallPolicy = CallPolicy {
        stream: false,
        retries: 0,
        retry_base_ms: DEFAULT_RETRY_BASE_MS,
        max_retry_after_ms: DEFAULT_MAX_RETRY_AFTER_MS,
        request_params: None,
    };
}

static SINGLE: CallPolicy = CallPolicy::SINGLE;

pub struct Env<'a> {
    pub transport: &'a dyn Transport,
    pub tools: &'a dyn ToolExecutor,
    pub policy: &'a CallPolicy,
    pub waiter: Option<&'a dyn Waiter>,
    pub observer: Option<&'a dyn Observer>,
    pub events: Option<&'a dyn EventSink>,
    pub persist: Option<&'a dyn Persist>,
    pub sleep: Option<&'a dyn Sleep>,
    pub on_error: Option<&'a dyn ErrorPolicy>,
    pub abort: Option<&'a dyn Abort>,
    pub hooks: Option<&'a dyn Hooks>,
    /// For an agent's child, its delegate calls' ids from the root down (`d1/d7`; empty at the
    /// root): its model calls carry it to the host (`HttpRequest::call_path`), and its tools'
    /// call ids are qualified by it.
    pub call_path: &'a str,
    pub ids: &'a IdGen,
    /// Milliseconds from any fixed origin; only differences are used.
    pub clock: &'a dyn Fn() -> f64,
    /// Uniform in [0, 1), for backoff jitter.
    pub random: &'a dyn Fn() -> f64,
}

fn no_jitter() -> f64 {
    0.0
}

impl<'a> Env<'a> {
    /// The two required seams; every host callback starts unset and calls follow
    /// [`CallPolicy::SINGLE`].
    pub fn new(transport: &'a dyn Transport, tools: &'a dyn ToolExecutor, ids: &'a IdGen, clock: &'a dyn Fn() -> f64) -> Self {
        Env {
            transport,
            tools,
            policy: &SINGLE,
            waiter: None,
            observer: None,
            events: None,
            persist: None,
            sleep: None,
            on_error: None,
            abort: None,
            hooks: None,
            call_path: "",
            ids,
            clock,
            random: &no_jitter,
        }
    }
}

impl Env<'_> {
    /// The hooks seam, if that hook is set.
    pub(crate) fn hook(&self, which: Hook) -> Option<&dyn Hooks> {
        self.hooks.filter(|h| h.has(which))
    }

    pub(crate) fn emit(&self, m: Metric) {
        if let Some(o) = self.observer {
            o.metric(&m);
        }
    }

    /// Emits the event `e()` builds; it is built only when there is a sink (a run without one
    /// would otherwise copy its tool arguments, outputs and the whole result for nothing).
    fn event(&self, e: impl FnOnce() -> StreamEvent) {
        if let Some(s) = self.events {
            s.event(e());
        }
    }

    /// Saves the conversation `state()` gives, when there is a store (the state is built only
    /// then).
    async fn save(&self, state: &dyn Fn() -> ConversationState) -> Result<()> {
        match self.persist {
            Some(p) => p.save_latest(state).await,
            None => Ok(()),
        }
    }
}

/// Runs `work` to its end unless the run is aborted first. Abort reaches everything in flight
/// (the fetch, a stream, tools and parked `waitFor` calls): dropping `work` abandons them, and
/// since the state is saved before any wait begins, nothing durable is lost. `work` comes boxed,
/// as the race with the abort polls it: one race per result type, not one per future.
pub async fn abortable<T>(abort: Option<&dyn Abort>, work: LocalBoxFuture<'_, Result<T>>) -> Result<T> {
    let Some(a) = abort else { return work.await };
    if let Some(e) = a.aborted() {
        return Err(e);
    }
    match select(work, a.wait()).await {
        // Work that failed as the run was aborted (a fetch or a tool rejected by the abort)
        // reports the abort itself: its message says which (the deadline or the signal).
        Either::Left((Err(e), _)) => Err(a.aborted().unwrap_or(e)),
        Either::Left((r, _)) => r,
        Either::Right((e, _)) => Err(e),
    }
}

/// Runs to a result and reports exactly one `run` metric, whatever the outcome. Boxed: a root
/// and an agent's child (a run inside its parent's) poll the one compiled driver.
pub fn drive<'a>(run: Run, first: Step, env: &'a Env<'_>) -> LocalBoxFuture<'a, Result<RunResult>> {
    Box::pin(run_to_end(run, first, env))
}

async fn run_to_end(run: Run, first: Step, env: &Env<'_>) -> Result<RunResult> {
    let started = (env.clock)();
    let run = RefCell::new(run);
    let outcome = abortable(env.abort, Box::pin(steps(&run, first, env))).await;
    let run = run.into_inner();
    let (turns, tool_calls, total_tokens, error) = match &outcome {
        Ok(r) => (r.turns, r.tool_call_count, r.usage.total_tokens, None),
        Err(e) => (run.turns(), 0, run.usage().total_tokens, Some(e.message.clone())),
    };
    env.emit(Metric::Run { model: run.model().to_string(), turns, tool_calls, total_tokens, ms: (env.clock)() - started, error });
    outcome
}

async fn steps(run: &RefCell<Run>, first: Step, env: &Env<'_>) -> Result<RunResult> {
    // The provider does not change during a run; one copy serves every model call.
    let provider = borrow(run).provider().clone();
    let mut step = first;
    // A completed tool turn is saved before the next model call, and every run's end is saved:
    // both through this one await (each await site is another copy of the save's polling).
    let mut turn_completed = false;
    loop {
        if turn_completed || matches!(step, Step::Done(_)) {
            turn_completed = false;
            env.save(&|| match &step {
                // A finished run's transcript is in its result.
                Step::Done(result) => stored(Checkpoint {
                    style: result.style,
                    transcript: alloc::borrow::Cow::Borrowed(&result.transcript),
                    pending: result.pending.clone(),
                    children: result.children.clone(),
                }),
                _ => stored(borrow(run).checkpoint()),
            })
            .await?;
        }
        step = match step {
            Step::CallModel => {
                let turn = LoopTurn { run, env, next: core::cell::Cell::new(None), reasoned: core::cell::Cell::new(false) };
                model_call(&provider, &turn, env.policy.stream, env).await?;
                turn.next.into_inner().ok_or_else(|| Error::internal("the model call ended without a reply"))?
            }
            Step::RunTools(invocations) => {
                // The machine hands a turn's invocations in call (slot) order; `tool_result`
                // events follow that order whatever order the calls settle in.
                let mut slots: Vec<usize> = Vec::new();
                if env.events.is_some() {
                    for inv in &invocations {
                        slots.push(inv.slot);
                    }
                }
                for inv in &invocations {
                    env.event(|| StreamEvent::ToolCall {
                        id: inv.call.id.clone(),
                        name: inv.call.name.clone(),
                        args: Value::Object((*inv.args).clone()),
                    });
                }
                let mut calls = Vec::with_capacity(invocations.len());
                for inv in invocations {
                    calls.push((Box::pin(tools::resolve(inv, run, env)), None));
                }
                join_all(calls).await?;
                for slot in slots {
                    let event = match borrow(run).settled(slot) {
                        Some((call, ToolOutcome::Result(r))) => StreamEvent::ToolResult {
                            id: call.id.clone(),
                            name: call.name.clone(),
                            output: r.output.clone(),
                            is_error: r.is_error,
                            parts: r.parts.clone(),
                        },
                        // A durable halt: in-process waits announced theirs already.
                        Some((_, ToolOutcome::Suspend(req))) => StreamEvent::Pending { request: req.clone() },
                        None => return Err(Error::internal("a tool call of this turn has no outcome")),
                    };
                    env.event(|| event);
                }
                let next = borrow_mut(run).end_tool_turn()?;
                turn_completed = matches!(next, Step::CallModel);
                next
            }
            Step::Done(result) => {
                if result.status == Status::Done {
                    env.event(|| StreamEvent::Usage { usage: result.usage });
                }
                env.event(|| StreamEvent::Done { result: result.clone() });
                return Ok(*result);
            }
        };
    }
}

/// The machine's checkpoint as the document a store keeps.
pub(crate) fn stored(c: Checkpoint<'_>) -> ConversationState {
    ConversationState::new(c.style, &c.transcript, c.pending).with_children(c.children)
}

/// One model turn of the loop, as the model-call pipeline sees it.
struct LoopTurn<'r, 'e> {
    run: &'r RefCell<Run>,
    env: &'r Env<'e>,
    next: core::cell::Cell<Option<Step>>,
    /// This call has streamed readable reasoning already.
    reasoned: core::cell::Cell<bool>,
}

impl CallSubject for LoopTurn<'_, '_> {
    fn turn(&self) -> u32 {
        borrow(self.run).turn_index()
    }
    fn working_copies(&self) -> (Vec<Value>, Vec<ToolSpec>) {
        borrow(self.run).working_copies()
    }
    fn replace_working(&self, messages: Option<Vec<crate::message::Message>>, tools: Option<Vec<ToolSpec>>) {
        borrow_mut(self.run).replace_working(messages, tools);
    }
    fn request(&self, stream: bool) -> HttpRequest {
        borrow(self.run).build_request(stream)
    }
    /// A later call's reasoning starts with the separator `RunResult.reasoning` puts between
    /// calls, so the events joined are the result's reasoning.
    fn delta(&self, delta: crate::provider::Delta) {
        self.env.event(|| match delta {
            crate::provider::Delta::Text(delta) => StreamEvent::Text { delta },
            crate::provider::Delta::Reasoning(mut delta) => {
                if !self.reasoned.replace(true) && borrow(self.run).has_reasoning() {
                    delta.insert_str(0, crate::run::REASONING_SEPARATOR);
                }
                StreamEvent::Reasoning { delta }
            }
        });
    }
    fn accept(&self, reply: ModelReply, _raw: Option<&Value>) -> Result<()> {
        let step = borrow_mut(self.run).on_model_reply(reply)?;
        self.next.set(Some(step));
        Ok(())
    }
}

/// Polls every future until all are done; the first error in input order, if any. futures-util's
/// `join_all` switches to `FuturesOrdered` past 30 futures, which brings a whole executor's worth
/// of code into the wasm; a turn's tool calls need none of it.
/// Each future comes with the slot for its outcome (`None`), made by the caller's loop.
async fn join_all<F: core::future::Future<Output = Result<()>> + Unpin>(mut slots: Vec<(F, Option<Result<()>>)>) -> Result<()> {
    core::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, out) in slots.iter_mut().filter(|(_, o)| o.is_none()) {
            match core::pin::Pin::new(f).poll(cx) {
                core::task::Poll::Ready(v) => *out = Some(v),
                core::task::Poll::Pending => pending = true,
            }
        }
        if pending {
            core::task::Poll::Pending
        } else {
            core::task::Poll::Ready(())
        }
    })
    .await;
    for (_, out) in slots {
        out.unwrap_or(Ok(()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_status_below_any_http_status_is_the_failure_it_stands_for() {
        assert_eq!(host_status(Some(200.0)), Ok(200));
        assert_eq!(host_status(Some(429.0)), Ok(429));
        for none in [None, Some(0.0)] {
            assert_eq!(host_status(none).unwrap_err().message, "fetch resolved to something that is not a Response");
        }
        assert_eq!(host_status(Some(1.0)).unwrap_err().code(), "response_too_large");
    }

    #[test]
    fn only_retry_from_on_error_retries() {
        assert_eq!(Tier::from_reply(Some("retry")), Tier::Retry);
        for other in [None, Some("fail"), Some("Retry"), Some("")] {
            assert_eq!(Tier::from_reply(other), Tier::Fail, "{other:?}");
        }
    }
}
