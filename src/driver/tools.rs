//! One tool call of a turn, to its outcome: `beforeTool`, execution (host tool, relay or a
//! result the machine preset), a suspension's in-process wait, the retry with `ctx.answer`,
//! `afterTool`, the `tool` metric. Each outcome goes to the machine as it settles, so a save
//! taken while other calls still run or wait sees it.

use super::{stored, Env};
use crate::error::{Code, Error, Result};
use crate::events::StreamEvent;
use crate::hooks::{Hook, ToolCtx, ToolVerdict};
use crate::metrics::Metric;
use crate::prelude::*;
use crate::run::{Invocation, Run, UNKNOWN_TOOL_LABEL};
use crate::small::{borrow, borrow_mut};
use crate::suspend::{after_wait, ask_again, check_answer, relay_output, relay_request, AfterWait, Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use core::cell::RefCell;

/// Executes; a suspension goes to `waitFor` when there is one; `ok` re-runs the tool with
/// `ctx.answer`, and a re-run that suspends again on a new request is waited for again (up to
/// `MAX_ANSWERS`, then `unresolved after …`; the same request again is `unresolved`); `ok:
/// false` (or no answer) is `declined/expired`, unless the request has `rerunOnDecline`: then
/// the tool is re-run with the refusal. Without `waitFor` the suspension is the call's outcome
/// and the machine halts the run.
pub(super) async fn resolve(mut inv: Invocation, run: &RefCell<Run>, env: &Env<'_>) -> Result<()> {
    let slot = inv.slot;
    let turn = borrow(run).turn_index();
    // beforeTool: an outcome short-circuits the tool (afterTool then never runs); args rewrite it.
    let mut first = None;
    if let (Some(h), None) = (env.hook(Hook::BeforeTool), &inv.answer) {
        let ctx = ToolCtx { name: &inv.call.name, id: &inv.call.id, args: &inv.args, turn };
        match h.before_tool(ctx).await.map_err(super::hook_failed("beforeTool"))? {
            Some(ToolVerdict::Result(outcome)) => {
                report(&inv, &outcome, 0.0, env);
                first = Some((outcome, false));
            }
            Some(ToolVerdict::Args(a)) => {
                inv.args = alloc::rc::Rc::new(a);
                borrow_mut(run).note_args(slot, inv.args.clone());
                // New arguments replace invalid ones; a call to an undeclared tool stays unknown.
                if inv.known {
                    inv.preset = None;
                }
            }
            None => {}
        }
    }
    // One pass per execution: the first (or beforeTool's outcome), then one per answer that
    // re-runs the tool. Each future below is awaited at one place.
    let mut answer = inv.answer.take();
    let mut asked: Option<Request> = None;
    let mut answers = 0;
    let result = loop {
        let (outcome, ran) = match first.take() {
            Some(f) => f,
            None => (execute(&inv, answer.as_ref(), run, env).await?, true),
        };
        let next = match outcome {
            ToolOutcome::Result(r) if ran => break after_tool(&inv, turn, r, env).await?,
            ToolOutcome::Result(r) => break r,
            ToolOutcome::Suspend(next) => next.for_call(&inv.call.id),
        };
        // A re-run may ask again (a server's second question): each new request is waited for
        // like the first, up to `MAX_ANSWERS` answers for the call.
        let req = match &asked {
            None => next,
            Some(asked) => match ask_again(asked, next, answers) {
                Ok(next) => next,
                Err(result) => break result,
            },
        };
        let Some(waiter) = env.waiter else {
            return borrow_mut(run).on_tool_outcome(slot, ToolOutcome::Suspend(req));
        };
        // Persist before waiting: a host that dies while this wait is outstanding resumes from here.
        borrow_mut(run).on_tool_outcome(slot, ToolOutcome::Suspend(req.clone()))?;
        env.save(&|| stored(borrow(run).checkpoint())).await?;
        env.event(|| StreamEvent::Pending { request: req.clone() });
        let reply = waiter.wait(req.clone()).await.map_err(|e| match e.code {
            Code::Aborted | Code::HostCallback => e,
            _ => Error::new(Code::HostCallback, format!("waitFor failed: {}", e.message)),
        })?;
        answers += 1;
        // The answer must be this request's (and its results this call's): one typo in an id
        // fails the run here, its halted state saved above, rather than telling the model that
        // no result came.
        if let Some(a) = &reply {
            let relay = req.relay_calls();
            let mut open: Vec<&str> = Vec::new();
            for c in &relay {
                open.push(&c.id);
            }
            check_answer(&req, a, &open, "waitFor: ")?;
        }
        match after_wait(&req, reply) {
            AfterWait::Final(result) => break result,
            AfterWait::Retry(a) => answer = Some(a),
        }
        asked = Some(req);
    };
    borrow_mut(run).on_tool_outcome(slot, ToolOutcome::Result(result))?;
    // Other calls still waiting after this one waited: the store must not keep this call's now
    // stale suspension.
    if answers > 0 && borrow(run).has_suspended() {
        env.save(&|| stored(borrow(run).checkpoint())).await?;
    }
    Ok(())
}

/// `afterTool` may replace a result the tool produced (never a suspension).
async fn after_tool(inv: &Invocation, turn: u32, result: ToolResult, env: &Env<'_>) -> Result<ToolResult> {
    match env.hook(Hook::AfterTool) {
        Some(h) => {
            let ctx = ToolCtx { name: &inv.call.name, id: &inv.call.id, args: &inv.args, turn };
            Ok(h.after_tool(ctx, &result).await.map_err(super::hook_failed("afterTool"))?.unwrap_or(result))
        }
        None => Ok(result),
    }
}

/// Executes once and reports a `tool` metric.
async fn execute(inv: &Invocation, answer: Option<&Answer>, run: &RefCell<Run>, env: &Env<'_>) -> Result<ToolOutcome> {
    let t0 = (env.clock)();
    let agent = match inv.preset {
        None if inv.known && inv.source == crate::tool::ToolSource::Agent => borrow(run).agent_spec(&inv.call.name),
        _ => None,
    };
    let outcome = if let Some(preset) = &inv.preset {
        ToolOutcome::Result(preset.clone())
    } else if let Some(spec) = agent {
        super::agent::call(inv, &spec, answer, run, env).await?
    } else if inv.is_relay() {
        // Relay tools are declaration-only: nothing runs here. First execution suspends with the
        // call; with an answer, the host's output for this call is the result. Fail-closed: an
        // `ok` answer that carries no result for this call is an error, never an empty success.
        match answer {
            None => ToolOutcome::Suspend(relay_request(&inv.call, &inv.args, env.ids)),
            Some(a) => ToolOutcome::Result(
                relay_output(a, &inv.call.id, true)
                    .unwrap_or_else(|| ToolResult::error(format!("no result supplied for relay call {}", inv.call.name))),
            ),
        }
    } else {
        env.tools.execute(&inv.call.name, &inv.call.id, &inv.args, answer).await?
    };
    report(inv, &outcome, (env.clock)() - t0, env);
    Ok(outcome)
}

/// The `tool` metric; a suspension is `isError: false, pending: true`.
fn report(inv: &Invocation, outcome: &ToolOutcome, ms: f64, env: &Env<'_>) {
    let (is_error, pending) = match outcome {
        ToolOutcome::Result(r) => (r.is_error, false),
        ToolOutcome::Suspend(_) => (false, true),
    };
    // A name the provider made up is not a series: one label for all of them keeps the metrics
    // bounded however many names a model invents (the transcript keeps the name).
    let tool = if inv.known { inv.call.name.clone() } else { UNKNOWN_TOOL_LABEL.into() };
    env.emit(Metric::Tool { tool, source: inv.source.as_str().to_string(), is_error, ms, pending });
}
