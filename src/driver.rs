//! The one async driver: it walks the state machine's steps over two seams, a [`Transport`]
//! (HTTP) and a [`ToolExecutor`] (host tools), plus an optional [`Waiter`] (`waitFor`) and
//! [`Observer`] (metrics). It is the only code in the core that awaits. All calls of a turn run
//! concurrently, and so do the `waitFor` calls of several suspensions in one turn (contract
//! Part 1 rule 1).

use crate::error::{Code, Error, Result};
use crate::metrics::{Metric, Observer};
use crate::provider::{HttpRequest, HttpResponse};
use crate::run::{Invocation, Outcome, Run, RunResult, Step};
use crate::suspend::{after_wait, relay_output, relay_request, unresolved, AfterWait, Answer, IdGen, Request};
use crate::tool::ToolResult;
use futures_util::future::{join_all, LocalBoxFuture};
use serde_json::{Map, Value};

pub trait Transport {
    fn send(&self, req: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse>>;
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

pub struct Env<'a> {
    pub transport: &'a dyn Transport,
    pub tools: &'a dyn ToolExecutor,
    pub waiter: Option<&'a dyn Waiter>,
    pub observer: Option<&'a dyn Observer>,
    pub ids: &'a IdGen,
    /// Milliseconds from any fixed origin; only differences are used.
    pub clock: &'a dyn Fn() -> f64,
}

impl Env<'_> {
    fn emit(&self, m: Metric) {
        if let Some(o) = self.observer {
            o.metric(&m);
        }
    }
}

/// Runs to a result and reports exactly one `run` metric, whatever the outcome.
pub async fn drive(mut run: Run, first: Step, env: &Env<'_>) -> Result<RunResult> {
    let started = (env.clock)();
    let outcome = steps(&mut run, first, env).await;
    let (turns, tool_calls, total_tokens, error) = match &outcome {
        Ok(r) => (r.turns, r.tool_call_count, r.usage.total_tokens, None),
        Err(e) => (run.turns(), 0, run.usage().total_tokens, Some(e.message.clone())),
    };
    env.emit(Metric::Run { model: run.model().to_string(), turns, tool_calls, total_tokens, ms: (env.clock)() - started, error });
    outcome
}

async fn steps(run: &mut Run, first: Step, env: &Env<'_>) -> Result<RunResult> {
    let mut step = first;
    loop {
        step = match step {
            Step::CallModel(req) => call_model(run, req, env).await?,
            Step::RunTools(invocations) => {
                let outcomes = join_all(invocations.into_iter().map(|inv| resolve(inv, env))).await;
                run.on_tool_outcomes(outcomes.into_iter().collect::<Result<Vec<_>>>()?)?
            }
            Step::Done(result) => return Ok(*result),
        };
    }
}

async fn call_model(run: &mut Run, req: HttpRequest, env: &Env<'_>) -> Result<Step> {
    let t0 = (env.clock)();
    let before = run.usage();
    let step = match env.transport.send(req).await {
        Ok(resp) => run.on_model_response(&resp),
        Err(e) => Err(e),
    };
    let after = run.usage();
    let ok = step.is_ok();
    env.emit(Metric::Llm {
        model: run.model().to_string(),
        status: if ok { "ok" } else { "error" },
        ms: (env.clock)() - t0,
        prompt_tokens: if ok { after.prompt_tokens - before.prompt_tokens } else { 0 },
        completion_tokens: if ok { after.completion_tokens - before.completion_tokens } else { 0 },
    });
    step
}

/// One call, to its final outcome (contract §c.1): execute; a suspension goes to `waitFor` when
/// there is one; `ok` re-runs the tool once with `ctx.answer`; a second suspension is
/// `unresolved`; `ok: false` is `declined/expired`. Without `waitFor` the suspension is returned
/// and the machine halts the run.
async fn resolve(inv: Invocation, env: &Env<'_>) -> Result<(usize, Outcome)> {
    let slot = inv.slot;
    let first = execute(&inv, inv.answer.as_ref(), env).await?;
    let Some(req) = first.pending() else {
        return Ok((slot, Outcome::Completed(first)));
    };
    let Some(waiter) = env.waiter else {
        return Ok((slot, Outcome::Suspended(req)));
    };
    let answer = waiter.wait(req.clone()).await.map_err(|e| match e.code {
        Code::Aborted | Code::HostCallback => e,
        _ => Error::new(Code::HostCallback, format!("waitFor failed: {}", e.message)),
    })?;
    let answer = match after_wait(&req, Some(answer)) {
        AfterWait::Final(result) => return Ok((slot, Outcome::Completed(result))),
        AfterWait::Retry(a) => a,
    };
    let retried = execute(&inv, Some(&answer), env).await?;
    if retried.pending().is_some() {
        return Ok((slot, Outcome::Completed(unresolved(&req))));
    }
    Ok((slot, Outcome::Completed(retried)))
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
