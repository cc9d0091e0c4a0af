//! The one async driver: it walks the state machine's steps over two seams, a [`Transport`]
//! (HTTP, whole or streamed) and a [`ToolExecutor`] (host tools), plus optional host callbacks:
//! a [`Waiter`] (`waitFor`), an [`Observer`] (metrics), an [`EventSink`] (stream events) and a
//! [`Persist`] (the conversation store). It is the only code in the core that awaits. `run`,
//! `stream` and `ask` all go through it: there is one loop.
//!
//! All calls of a turn run concurrently, and so do the `waitFor` calls of several suspensions in
//! one turn (contract Part 1 rule 1). With a store, the state is saved after every completed turn
//! and before any `waitFor` is called (rule 8).

use crate::error::{Code, Error, Result};
use crate::events::{EventSink, StreamEvent};
use crate::hooks::{merge_params, Hook, Hooks, ToolCtx, ToolVerdict};
use crate::metrics::{Metric, Observer};
use crate::provider::{HttpRequest, HttpResponse, StreamAssembler};
use crate::retry::{backoff_ms, retry_after_ms, retryable_status, ErrorInfo};
use crate::run::{Invocation, Outcome, Run, RunResult, Status, Step};
use crate::state::ConversationState;
use crate::suspend::{after_wait, relay_output, relay_request, unresolved, AfterWait, Answer, IdGen, Request};
use crate::tool::ToolResult;
use futures_util::future::{select, Either, LocalBoxFuture};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// A response body read chunk by chunk. `None` is the end of the body.
pub trait ByteStream {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>>;
}

pub struct StreamResponse {
    pub status: u16,
    pub body: Box<dyn ByteStream>,
    pub retry_after: Option<String>,
}

/// A body that is already whole: one chunk.
pub struct WholeBody(pub Option<Vec<u8>>);

impl ByteStream for WholeBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        let chunk = self.0.take();
        Box::pin(async move { Ok(chunk) })
    }
}

pub trait Transport {
    fn send(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse>>;

    /// Sends and hands back the body as it arrives. The default reads it whole.
    fn open(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<StreamResponse>> {
        Box::pin(async move {
            let r = self.send(req).await?;
            Ok(StreamResponse { status: r.status, body: Box::new(WholeBody(Some(r.body.into_bytes()))), retry_after: r.retry_after })
        })
    }
}

/// Runs host tools. A host tool that throws is a failed *result*, not an error: executors turn
/// it into `{ output: message, isError: true }`. `Err` is reserved for failures of the run itself.
pub trait ToolExecutor {
    fn execute<'a>(&'a self, name: &'a str, args: &'a Map<String, Value>, answer: Option<&'a Answer>)
        -> LocalBoxFuture<'a, Result<ToolResult>>;
}

/// The host's `waitFor`. `None` in [`Env::waiter`] means durable halt.
pub trait Waiter {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Answer>>;
}

/// Saves the conversation (the store under one id). A failed save fails the run: a host that
/// asked for persistence must not believe a state is safe when it is not.
pub trait Persist {
    fn save(&self, state: ConversationState) -> LocalBoxFuture<'_, Result<()>>;
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

pub struct Env<'a> {
    pub transport: &'a dyn Transport,
    pub tools: &'a dyn ToolExecutor,
    pub waiter: Option<&'a dyn Waiter>,
    pub observer: Option<&'a dyn Observer>,
    pub events: Option<&'a dyn EventSink>,
    pub persist: Option<&'a dyn Persist>,
    pub sleep: Option<&'a dyn Sleep>,
    pub on_error: Option<&'a dyn ErrorPolicy>,
    pub abort: Option<&'a dyn Abort>,
    pub hooks: Option<&'a dyn Hooks>,
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
    /// The two required seams; every host callback starts unset.
    pub fn new(transport: &'a dyn Transport, tools: &'a dyn ToolExecutor, ids: &'a IdGen, clock: &'a dyn Fn() -> f64) -> Self {
        Env {
            transport,
            tools,
            waiter: None,
            observer: None,
            events: None,
            persist: None,
            sleep: None,
            on_error: None,
            abort: None,
            hooks: None,
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
    fn event(&self, e: StreamEvent) {
        if let Some(s) = self.events {
            s.event(e);
        }
    }
    async fn save(&self, state: impl FnOnce() -> ConversationState) -> Result<()> {
        match self.persist {
            Some(p) => p.save(state()).await,
            None => Ok(()),
        }
    }
}

/// Runs to a result and reports exactly one `run` metric, whatever the outcome.
pub async fn drive(run: Run, first: Step, env: &Env<'_>) -> Result<RunResult> {
    let started = (env.clock)();
    let run = RefCell::new(run);
    let outcome = match env.abort {
        // Abort reaches everything in flight: the fetch, a stream, tools and parked waitFor calls
        // (contract Part 1 rule 10). Dropping the steps future abandons them; by rule 8 the
        // state was saved before any wait began.
        Some(a) => match a.aborted() {
            Some(e) => Err(e),
            None => match select(Box::pin(steps(&run, first, env)), a.wait()).await {
                Either::Left((r, _)) => r,
                Either::Right((e, _)) => Err(e),
            },
        },
        None => steps(&run, first, env).await,
    };
    let run = run.into_inner();
    let (turns, tool_calls, total_tokens, error) = match &outcome {
        Ok(r) => (r.turns, r.tool_call_count, r.usage.total_tokens, None),
        Err(e) => (run.turns(), 0, run.usage().total_tokens, Some(e.message.clone())),
    };
    env.emit(Metric::Run { model: run.model().to_string(), turns, tool_calls, total_tokens, ms: (env.clock)() - started, error });
    outcome
}

async fn steps(run: &RefCell<Run>, first: Step, env: &Env<'_>) -> Result<RunResult> {
    let mut step = first;
    loop {
        step = match step {
            Step::CallModel(req) => call_model(run, req, env).await?,
            Step::RunTools(invocations) => {
                for inv in &invocations {
                    env.event(StreamEvent::ToolCall { id: inv.call.id.clone(), name: inv.call.name.clone(), args: Value::Object(inv.args.clone()) });
                }
                let progress = RefCell::new(Vec::new());
                let outcomes = join_all(invocations.into_iter().map(|inv| Box::pin(resolve(inv, run, &progress, env))).collect()).await;
                let mut outcomes = outcomes.into_iter().collect::<Result<Vec<_>>>()?;
                outcomes.sort_unstable_by_key(|(slot, _)| *slot); // slots are unique
                let names: Vec<(String, String)> = {
                    let r = run.borrow();
                    outcomes.iter().map(|(slot, _)| r.call_at(*slot)).collect()
                };
                for ((_, outcome), (id, name)) in outcomes.iter().zip(names) {
                    match outcome {
                        Outcome::Completed(r) => env.event(StreamEvent::ToolResult { id, name, output: r.output.clone(), is_error: r.is_error }),
                        // A durable halt: in-process waits announced theirs already.
                        Outcome::Suspended(req) => env.event(StreamEvent::Pending { request: req.clone() }),
                    }
                }
                let next = run.borrow_mut().on_tool_outcomes(outcomes)?;
                if matches!(next, Step::CallModel(_)) {
                    env.save(|| run.borrow().checkpoint(&[])).await?; // a completed turn
                }
                next
            }
            Step::Done(result) => {
                env.save(|| run.borrow().conversation(result.pending.clone())).await?;
                if result.status == Status::Done {
                    env.event(StreamEvent::Usage { usage: result.usage });
                }
                env.event(StreamEvent::Done { result: result.clone() });
                return Ok(*result);
            }
        };
    }
}

async fn call_model(run: &RefCell<Run>, req: HttpRequest, env: &Env<'_>) -> Result<Step> {
    let t0 = (env.clock)();
    let before = run.borrow().usage();
    let streaming = run.borrow().is_streaming();
    let step = match shape(run, req, env).await {
        Err(e) => Err(e),
        Ok(req) if streaming => call_streaming(run, req, env).await,
        Ok(req) => match with_retries(&policy_of(run), req, env, false).await {
            Ok(Delivered::Whole(resp)) => {
                // The borrow ends here, before the hook (which reads the run) is awaited.
                let parsed = run.borrow_mut().on_model_response(&resp);
                match parsed {
                    Ok(step) => after_llm(run, env, || serde_json::from_str(&resp.body).unwrap_or(Value::Null)).await.map(|_| step),
                    Err(e) => Err(e),
                }
            }
            Ok(Delivered::Stream(_)) => Err(Error::internal("a whole reply was asked for")),
            Err(e) => Err(e),
        },
    };
    let after = run.borrow().usage();
    let ok = step.is_ok();
    env.emit(Metric::Llm {
        model: run.borrow().model().to_string(),
        status: if ok { "ok" } else { "error" },
        ms: (env.clock)() - t0,
        prompt_tokens: if ok { after.prompt_tokens - before.prompt_tokens } else { 0 },
        completion_tokens: if ok { after.completion_tokens - before.completion_tokens } else { 0 },
    });
    step
}

pub(crate) fn hook_failed(name: &'static str) -> impl Fn(Error) -> Error {
    move |e| match e.code {
        Code::Aborted => e,
        _ => Error::new(Code::HostCallback, format!("{name} hook failed: {}", e.message)),
    }
}

/// The request as sent (contract §b.5 step 3): base body → `beforeLLM` → `requestParams` →
/// `bodyTransform`.
async fn shape(run: &RefCell<Run>, mut req: HttpRequest, env: &Env<'_>) -> Result<HttpRequest> {
    if let Some(h) = env.hook(Hook::BeforeLlm) {
        let (messages, tools) = run.borrow().working_copies();
        let (model, turn) = (run.borrow().model().to_string(), run.borrow().turn_index());
        if let Some(change) = h.before_llm(messages, &tools, &model, turn).await.map_err(hook_failed("beforeLLM"))? {
            let messages = change.messages.map(|m| crate::dialect::read(&m)).transpose()?;
            run.borrow_mut().replace_working(messages, change.tools);
            req = run.borrow().build_request();
        }
    }
    let params = run.borrow().request_params().cloned();
    let transform = env.hook(Hook::BodyTransform);
    if params.is_some() || transform.is_some() {
        let mut body: Value = serde_json::from_str(&req.body).map_err(|e| Error::internal(e.to_string()))?;
        if let Some(p) = &params {
            merge_params(&mut body, p);
        }
        if let Some(h) = transform {
            if let Some(b) = h.transform_body(body.clone()).await.map_err(hook_failed("bodyTransform"))? {
                body = b;
            }
        }
        req.body = serde_json::to_string(&body).map_err(|e| Error::internal(e.to_string()))?;
    }
    Ok(req)
}

async fn after_llm(run: &RefCell<Run>, env: &Env<'_>, response: impl FnOnce() -> Value) -> Result<()> {
    match env.hook(Hook::AfterLlm) {
        Some(h) => {
            let (model, turn) = (run.borrow().model().to_string(), run.borrow().turn_index());
            h.after_llm(response(), &model, turn).await.map_err(hook_failed("afterLLM"))
        }
        None => Ok(()),
    }
}

/// A streamed model call: text deltas become events as they arrive; the assembled reply goes to
/// the machine exactly like a whole one.
async fn call_streaming(run: &RefCell<Run>, req: HttpRequest, env: &Env<'_>) -> Result<Step> {
    let cfg = run.borrow().provider().clone();
    let Delivered::Stream(mut resp) = with_retries(&policy_of(run), req, env, true).await? else {
        return Err(Error::internal("a streamed reply was asked for"));
    };
    let mut assembler = StreamAssembler::new(&cfg);
    while let Some(chunk) = resp.body.next_chunk().await? {
        for delta in assembler.push(&chunk)? {
            env.event(StreamEvent::Text { delta });
        }
    }
    let reply = assembler.finish()?;
    let usage = reply.usage;
    let step = run.borrow_mut().on_model_reply(reply)?;
    after_llm(run, env, || serde_json::json!({"streamed": true, "usage": usage})).await?;
    Ok(step)
}

pub(crate) enum Delivered {
    Whole(HttpResponse),
    Stream(StreamResponse),
}

/// What `with_retries` needs to know about a client.
pub(crate) struct RetryPolicy {
    pub retries: u32,
    pub base_ms: f64,
    /// Only to keep the key out of error text.
    pub secret: Option<String>,
}

fn policy_of(run: &RefCell<Run>) -> RetryPolicy {
    let r = run.borrow();
    RetryPolicy { retries: r.retries(), base_ms: r.retry_base_ms(), secret: r.provider().api_key.clone() }
}

/// Sends with retries (contract §b.11): retryable statuses and network errors are retried up to
/// `retries` times, waiting `Retry-After` delay-seconds when given, else exponential backoff
/// with jitter; `onError` may turn any failure into a retry or a failure, within the budget.
/// Aborts are never retried. For a stream only the request and its status are retried.
pub(crate) async fn with_retries(policy: &RetryPolicy, req: HttpRequest, env: &Env<'_>, streaming: bool) -> Result<Delivered> {
    let (retries, base_ms, secret) = (policy.retries, policy.base_ms, policy.secret.clone());
    let mut attempt = 0u32;
    loop {
        let (error, retry_after) = if streaming {
            match env.transport.open(req.clone()).await {
                Ok(resp) if (200..300).contains(&resp.status) => return Ok(Delivered::Stream(resp)),
                Ok(mut resp) => {
                    let mut body = Vec::new();
                    while let Some(chunk) = resp.body.next_chunk().await? {
                        body.extend(chunk);
                    }
                    let text = String::from_utf8_lossy(&body).into_owned();
                    (Error::provider_http(resp.status, &text, secret.as_deref()), resp.retry_after)
                }
                Err(e) => (e, None),
            }
        } else {
            match env.transport.send(req.clone()).await {
                Ok(resp) if (200..300).contains(&resp.status) => return Ok(Delivered::Whole(resp)),
                Ok(resp) => (Error::provider_http(resp.status, &resp.body, secret.as_deref()), resp.retry_after),
                Err(e) => (e, None),
            }
        };
        let retryable = match error.code {
            Code::ProviderHttp => error.status.is_some_and(retryable_status),
            Code::Transport => true,
            _ => return Err(error), // aborts and everything else are final
        };
        let info = ErrorInfo { error: error.message.clone(), status: error.status, attempt, retryable };
        let tier = match env.on_error {
            Some(policy) => policy.decide(&info).await?,
            None if retryable => Tier::Retry,
            None => Tier::Fail,
        };
        if tier == Tier::Fail || attempt >= retries {
            return Err(error);
        }
        let wait = retry_after_ms(retry_after.as_deref()).unwrap_or_else(|| backoff_ms(base_ms, attempt, (env.random)()));
        if let Some(s) = env.sleep {
            s.sleep(wait).await;
        }
        attempt += 1;
    }
}

/// One call, to its final outcome (contract §c.1): execute; a suspension goes to `waitFor` when
/// there is one; `ok` re-runs the tool once with `ctx.answer`; a second suspension is
/// `unresolved`; `ok: false` is `declined/expired`. Without `waitFor` the suspension is returned
/// and the machine halts the run. `progress` is what the turn has settled so far, for saves.
async fn resolve(mut inv: Invocation, run: &RefCell<Run>, progress: &RefCell<Vec<(usize, Outcome)>>, env: &Env<'_>) -> Result<(usize, Outcome)> {
    let slot = inv.slot;
    let turn = run.borrow().turn_index();
    // beforeTool: a result short-circuits the tool (afterTool then never runs); args rewrite it.
    let mut first = None;
    if let (Some(h), None) = (env.hook(Hook::BeforeTool), &inv.answer) {
        let ctx = ToolCtx { name: &inv.call.name, id: &inv.call.id, args: &inv.args, turn };
        match h.before_tool(ctx).await.map_err(hook_failed("beforeTool"))? {
            Some(ToolVerdict::Result(r)) => {
                let pending = r.pending().is_some();
                env.emit(Metric::Tool { tool: inv.call.name.clone(), source: inv.source.clone(), is_error: r.is_error && !pending, ms: 0.0, pending });
                first = Some((r, false));
            }
            Some(ToolVerdict::Args(a)) => {
                run.borrow_mut().note_args(slot, a.clone());
                inv.args = a;
                // New arguments replace invalid ones; an unknown tool (source "custom") stays unknown.
                if inv.source != "custom" {
                    inv.preset = None;
                }
            }
            None => {}
        }
    }
    let (first, ran) = match first {
        Some(f) => f,
        None => (execute(&inv, inv.answer.as_ref(), env).await?, true),
    };
    let Some(req) = first.pending() else {
        let result = if ran { after_tool(&inv, turn, first, env).await? } else { first };
        progress.borrow_mut().push((slot, Outcome::Completed(result.clone())));
        return Ok((slot, Outcome::Completed(result)));
    };
    let Some(waiter) = env.waiter else {
        return Ok((slot, Outcome::Suspended(req)));
    };
    // Persist before waiting: a host that dies while this wait is outstanding resumes from here.
    progress.borrow_mut().push((slot, Outcome::Suspended(req.clone())));
    env.save(|| run.borrow().checkpoint(&progress.borrow())).await?;
    env.event(StreamEvent::Pending { request: req.clone() });
    let answer = waiter.wait(req.clone()).await.map_err(|e| match e.code {
        Code::Aborted | Code::HostCallback => e,
        _ => Error::new(Code::HostCallback, format!("waitFor failed: {}", e.message)),
    })?;
    let result = match after_wait(&req, Some(answer)) {
        AfterWait::Final(result) => result,
        AfterWait::Retry(answer) => {
            let retried = execute(&inv, Some(&answer), env).await?;
            if retried.pending().is_some() { unresolved(&req) } else { after_tool(&inv, turn, retried, env).await? }
        }
    };
    progress.borrow_mut().push((slot, Outcome::Completed(result.clone())));
    let still_waiting = {
        let p = progress.borrow();
        p.iter().any(|(s, o)| matches!(o, Outcome::Suspended(_)) && !p.iter().any(|(s2, o2)| s2 == s && matches!(o2, Outcome::Completed(_))))
    };
    if still_waiting {
        env.save(|| run.borrow().checkpoint(&progress.borrow())).await?;
    }
    Ok((slot, Outcome::Completed(result)))
}

/// `afterTool` may replace a result the tool produced (never a suspension).
async fn after_tool(inv: &Invocation, turn: u32, result: ToolResult, env: &Env<'_>) -> Result<ToolResult> {
    match env.hook(Hook::AfterTool) {
        Some(h) => {
            let ctx = ToolCtx { name: &inv.call.name, id: &inv.call.id, args: &inv.args, turn };
            Ok(h.after_tool(ctx, &result).await.map_err(hook_failed("afterTool"))?.unwrap_or(result))
        }
        None => Ok(result),
    }
}

/// Executes once and reports a `tool` metric (a suspension: `isError: false, pending: true`).
async fn execute(inv: &Invocation, answer: Option<&Answer>, env: &Env<'_>) -> Result<ToolResult> {
    let t0 = (env.clock)();
    let result = if let Some(preset) = &inv.preset {
        preset.clone()
    } else if inv.relay {
        // Relay tools are declaration-only: nothing runs here. First execution suspends with the
        // call; with an answer, the host's output for this call is the result. Fail-closed: an
        // `ok` answer that carries no result for this call is an error, never an empty success.
        match answer {
            None => crate::suspend::pending_result(relay_request(&inv.call, &inv.args, env.ids), env.ids),
            Some(a) => relay_output(a, &inv.call.id, true)
                .unwrap_or_else(|| ToolResult::error(format!("no result supplied for relay call {}", inv.call.name))),
        }
    } else {
        env.tools.execute(&inv.call.name, &inv.args, answer).await?
    };
    let pending = result.pending().is_some();
    env.emit(Metric::Tool {
        tool: inv.call.name.clone(),
        source: inv.source.clone(),
        is_error: result.is_error && !pending,
        ms: (env.clock)() - t0,
        pending,
    });
    Ok(result)
}

/// Polls every future until all are done; outputs in input order. futures-util's `join_all`
/// switches to `FuturesOrdered` past 30 futures, which brings a whole executor's worth of code
/// into the wasm; a turn's tool calls need none of it.
async fn join_all<F: std::future::Future + Unpin>(futures: Vec<F>) -> Vec<F::Output> {
    let mut slots: Vec<(F, Option<F::Output>)> = futures.into_iter().map(|f| (f, None)).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, out) in slots.iter_mut().filter(|(_, o)| o.is_none()) {
            match std::pin::Pin::new(f).poll(cx) {
                std::task::Poll::Ready(v) => *out = Some(v),
                std::task::Poll::Pending => pending = true,
            }
        }
        if pending { std::task::Poll::Pending } else { std::task::Poll::Ready(()) }
    })
    .await;
    slots.into_iter().filter_map(|(_, o)| o).collect()
}
