//! One agent call: the child's loop, driven by the same driver over the parent's seams. The
//! child's tools run through the parent's executor under the agent's name (`research/click`),
//! its waits go to the parent's `waitFor` with its path, its events reach the parent's stream
//! marked with its agent, and its saves become the parent's (its checkpoint kept in the
//! parent's slot, then the parent's own save). A child that halts is the parent's suspension;
//! resumed, it continues from its checkpoint and never starts over.

use super::{drive, stored, Env, EventSink, Persist, ToolExecutor, Waiter};
use crate::error::{Code, Error, Result};
use crate::events::StreamEvent;
use crate::message::Message;
use crate::prelude::*;
use crate::run::{Invocation, LoopConfig, ResumeInput, Run, RunResult, Status, Step};
use crate::small::{borrow, borrow_mut};
use crate::state::{Child, ConversationState};
use crate::suspend::{Answer, PathStep, Request, ToolOutcome};
use crate::tool::{AgentSpec, ToolResult};
use core::cell::RefCell;
use futures_util::future::LocalBoxFuture;
use serde_json::{Map, Value};

/// Runs (or continues) the child of agent call `inv` to its outcome: its final text as the
/// call's result, or its halt as the call's suspension (its request, one step longer).
pub(super) async fn call(
    inv: &Invocation,
    spec: &AgentSpec,
    answer: Option<&Answer>,
    run: &RefCell<Run>,
    env: &Env<'_>,
) -> Result<ToolOutcome> {
    let (child, first) = match begin(inv, spec, answer, run)? {
        Ok(started) => started,
        Err(asks_again) => return Ok(asks_again),
    };
    let agent = inv.call.name.as_str();
    let step = PathStep { agent: agent.into(), call_id: inv.call.id.clone() };
    let call_path = if env.call_path.is_empty() { step.call_id.clone() } else { format!("{}/{}", env.call_path, step.call_id) };
    let tools = Scoped { inner: env.tools, prefix: format!("{agent}/"), call: format!("{call_path}/") };
    let waiter = env.waiter.map(|inner| Up { inner, step: step.clone() });
    let events = env.events.map(|inner| Marked { inner, agent });
    let persist = env.persist.map(|_| Kept { run, slot: inv.slot, step: step.clone(), env });
    let child_env = Env {
        tools: &tools,
        call_path: &call_path,
        waiter: waiter.as_ref().map(|w| w as &dyn Waiter),
        events: events.as_ref().map(|e| e as &dyn EventSink),
        persist: persist.as_ref().map(|p| p as &dyn Persist),
        // The client's hooks are the root's: a child's calls are its own to shape.
        hooks: None,
        ..*env
    };
    let ended = drive(child, first, &child_env).await;
    outcome(ended, &step, inv.slot, run)
}

/// The child as this call last left it (from the resumed state, or from its own last save),
/// started, resumed or continued; or, halted and not answered now, its request again.
fn begin(
    inv: &Invocation,
    spec: &AgentSpec,
    answer: Option<&Answer>,
    run: &RefCell<Run>,
) -> Result<core::result::Result<(Run, Step), ToolOutcome>> {
    let saved = inv.child.clone().or_else(|| borrow(run).child(inv.slot));
    let cfg = config(spec, &borrow(run));
    let kit = spec.tools.clone();
    Ok(Ok(match (saved, answer) {
        // Halted, and this answer is another call's: the child asks again, as it was.
        (Some(c), None) if c.state.pending.is_some() => {
            let req = c.request();
            borrow_mut(run).note_child(inv.slot, Some(c));
            return Ok(Err(ToolOutcome::Suspend(req.unwrap_or_default())));
        }
        // Halted and answered, it resumes from its checkpoint; saved between turns (its host
        // stopped while it ran), it goes on from there.
        (Some(Child { state, .. }), answer) => {
            let history = crate::dialect::read(&state.messages).map_err(|e| Error::bad_state(e.message))?;
            match (state.pending, answer) {
                (Some(pending), Some(a)) => {
                    Run::resume(cfg, kit, ResumeInput { history, pending, answer: a.clone(), children: state.children })
                }
                _ => Run::proceed(cfg, kit, history),
            }
        }
        (None, _) => Run::start(cfg, kit, Vec::new(), prompt_of(&inv.args)),
    }?))
}

/// The child's settings: the parent's provider, with the model, style and address the agent
/// names; its own system prompt; its own turn cap, else the parent's.
fn config(spec: &AgentSpec, parent: &Run) -> LoopConfig {
    let mut provider = parent.provider().clone();
    if let Some(style) = spec.style {
        provider.style = style;
    }
    if let Some(m) = &spec.model {
        provider.model.clone_from(m);
    }
    if let Some(u) = &spec.base_url {
        provider.base_url.clone_from(u);
    }
    LoopConfig { provider, system_prompt: spec.system_prompt.clone(), max_turns: spec.max_turns.unwrap_or(parent.max_turns()) }
}

/// What the child's end is to the parent's call: its usage counts as the parent's, and its
/// checkpoint is kept while it is halted.
fn outcome(ended: Result<RunResult>, step: &PathStep, slot: usize, run: &RefCell<Run>) -> Result<ToolOutcome> {
    let agent = step.agent.as_str();
    let r = match ended {
        Ok(r) => r,
        // The child's model failed it: the parent's model hears so, as of any failed tool.
        Err(e)
            if matches!(
                e.code,
                Code::ProviderHttp | Code::ProviderParse | Code::ProviderError | Code::Transport | Code::ResponseTooLarge
            ) =>
        {
            borrow_mut(run).note_child(slot, None);
            return Ok(ToolOutcome::Result(ToolResult::error(format!("agent {agent} failed: {}", e.message))));
        }
        Err(e) => return Err(e),
    };
    let mut parent = borrow_mut(run);
    parent.roll_in(agent, r.usage, &r.agent_usage);
    Ok(match r.status {
        Status::Pending => {
            let req = r.pending.clone().unwrap_or_default();
            let state = ConversationState::new(r.style, &r.transcript, r.pending).with_children(r.children);
            parent.note_child(slot, Some(Child { call_id: step.call_id.clone(), agent: agent.into(), state }));
            ToolOutcome::Suspend(req.surfaced(agent, &step.call_id))
        }
        status => {
            parent.note_child(slot, None);
            ToolOutcome::Result(match status {
                Status::Done => ToolResult::ok(r.text),
                _ => ToolResult::error(format!(
                    "agent {agent} stopped at its {} limit before it answered; its last text: {}",
                    r.limit.as_deref().unwrap_or("turn"),
                    r.text
                )),
            })
        }
    })
}

/// The child's tools are the parent executor's, under the agent's name, their call ids under
/// the delegate call's (`d1/call_0_0`): unique in the whole tree, as a Workflow's step names
/// must be (two children may give their calls the same ids).
struct Scoped<'a> {
    inner: &'a dyn ToolExecutor,
    prefix: String,
    call: String,
}

impl ToolExecutor for Scoped<'_> {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        id: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        Box::pin(async move { self.inner.execute(&format!("{}{name}", self.prefix), &format!("{}{id}", self.call), args, answer).await })
    }
}

/// A child's wait is the parent's, for a request one step longer.
struct Up<'a> {
    inner: &'a dyn Waiter,
    step: PathStep,
}

impl Waiter for Up<'_> {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>> {
        self.inner.wait(req.surfaced(&self.step.agent, &self.step.call_id))
    }
}

/// A child's events in the parent's stream, marked with its agent; its `done` and `usage` are
/// the parent's `tool_result` and `usage`.
struct Marked<'a> {
    inner: &'a dyn EventSink,
    agent: &'a str,
}

impl EventSink for Marked<'_> {
    fn event(&self, e: StreamEvent) {
        let e = match e {
            StreamEvent::Done { .. } | StreamEvent::Usage { .. } => return,
            StreamEvent::Agent { agent, event } => StreamEvent::Agent { agent: format!("{}/{agent}", self.agent), event },
            e => StreamEvent::Agent { agent: self.agent.into(), event: Box::new(e) },
        };
        self.inner.event(e);
    }
}

/// A child's save: its checkpoint goes into the parent's slot, and the parent saves.
struct Kept<'a, 'e> {
    run: &'a RefCell<Run>,
    slot: usize,
    step: PathStep,
    env: &'a Env<'e>,
}

impl Persist for Kept<'_, '_> {
    fn save(&self, state: ConversationState) -> LocalBoxFuture<'_, Result<()>> {
        let child = Child { call_id: self.step.call_id.clone(), agent: self.step.agent.clone(), state };
        borrow_mut(self.run).note_child(self.slot, Some(child));
        Box::pin(async move { self.env.save(&|| stored(borrow(self.run).checkpoint())).await })
    }
}

/// The child's prompt from the call's arguments: `prompt` when it is the only member and a
/// string, else the arguments as JSON text (a child with a schema of its own reads them whole).
pub fn prompt_of(args: &Map<String, Value>) -> Message {
    match args.get("prompt") {
        Some(Value::String(p)) if args.len() == 1 => Message::User(p.clone()),
        _ => Message::User(crate::json::to_text(&Value::Object(args.clone()))),
    }
}
