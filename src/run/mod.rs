//! The agent loop as a state machine that does no I/O. A driver asks for
//! the next [`Step`], performs it (HTTP call or tool calls), and feeds the outcome back:
//!
//! ```text
//! start/resume ─▶ CallModel ─▶ on_model_reply ─▶ RunTools ─▶ on_tool_outcome × n ─▶ end_tool_turn ─┐
//!                    ▲               │ no calls                                                      │
//!                    └───────────────┼───────────────────────────────────────────────────────────────┘
//!                                    ▼
//!                                  Done(RunResult: done | pending | incomplete)
//! ```
//!
//! Suspension resolution with `waitFor` is per call and lives in the driver; the machine takes
//! each call's outcome as it settles (a result, or a suspension) and keeps it in the turn's slot,
//! so a checkpoint taken mid-turn reads only the machine's own state. The machine knows nothing
//! of how a call is sent (streaming, retries, request params: the driver's `CallPolicy`) nor of
//! stores: `checkpoint` hands out the parts of a stored conversation and the caller assembles it.

use crate::prelude::*;
pub mod result;
mod resume;
mod slots;
use slots::TurnSlots;

pub use result::{RunResult, Status, ToolCallRecord, MAX_SCHEMA_VERSION, SCHEMA_VERSION};

/// What `RunResult.reasoning` puts between the readable reasoning of two model calls.
pub const REASONING_SEPARATOR: &str = "\n\n";
pub use resume::ResumeInput;

use crate::dialect;
use crate::error::{Error, Result};
use crate::message::AgentUsage;
use crate::message::{balance, Message, ToolCall, ToolOutput, Usage};
use crate::provider::{self, HttpRequest, HttpResponse, ModelReply, ModelRequest, ProviderConfig, Style};
use crate::state::Child;
use crate::suspend::{merge_for_halt, Answer, Request, ToolOutcome};
use crate::tool::{ToolResult, ToolSource, ToolSpec, Toolkit};
use alloc::borrow::Cow;
use alloc::rc::Rc;
use serde_json::{Map, Value};

pub const DEFAULT_MAX_TURNS: u32 = 10;

/// What the machine needs: the provider (to build requests), the system prompt and the turn cap.
#[derive(Clone, Debug)]
pub struct LoopConfig {
    pub provider: ProviderConfig,
    pub system_prompt: String,
    pub max_turns: u32,
}

/// What the driver must do next.
#[derive(Debug)]
pub enum Step {
    /// Call the model with `build_request` (the driver shapes and sends it).
    CallModel,
    RunTools(Vec<Invocation>),
    Done(Box<RunResult>),
}

/// The metrics `source` label of a call to a tool that is not declared.
pub const UNKNOWN_TOOL_SOURCE: &str = "custom";
/// The metrics `tool` label of every call to a tool that is not declared, whatever its name.
pub const UNKNOWN_TOOL_LABEL: &str = "unknown";

/// One tool call to execute. `answer` is set when the call is re-run after its suspension was
/// answered (`ctx.answer`). `preset` is a result the machine already decided (unknown tool,
/// invalid arguments): the driver reports it like any execution but runs nothing, unless
/// `beforeTool` gives a declared tool new arguments.
#[derive(Clone, Debug)]
pub struct Invocation {
    pub slot: usize,
    pub call: ToolCall,
    /// Shared with the turn's record (`TurnSlots::used_args`): not copied per call.
    pub args: Rc<Map<String, Value>>,
    /// Whether the call names a declared tool.
    pub known: bool,
    /// The declared tool's source; an unknown tool is labelled [`UNKNOWN_TOOL_SOURCE`].
    pub source: ToolSource,
    pub answer: Option<Answer>,
    pub preset: Option<ToolResult>,
    /// An agent call resumed from a halt: the child as its parent kept it.
    pub child: Option<Child>,
}

impl Invocation {
    pub fn is_relay(&self) -> bool {
        self.known && self.source == ToolSource::Relay
    }
}

/// The parts of a stored conversation, as the machine sees them now: the caller (driver or
/// store) turns them into its document.
#[derive(Debug)]
pub struct Checkpoint<'a> {
    pub style: Style,
    pub transcript: Cow<'a, [Message]>,
    /// The request the conversation is halted on, if any.
    pub pending: Option<Request>,
    /// The halted (or waiting) children of the turn's agent calls.
    pub children: Vec<Child>,
}

#[derive(Debug)]
enum Phase {
    Model,
    Tools(TurnSlots),
    Finished,
}

pub struct Run {
    cfg: LoopConfig,
    toolkit: Toolkit,
    transcript: Vec<Message>,
    /// Index of the first message this call added; "the last assistant text of this run".
    segment_start: usize,
    turns: u32,
    usage: Usage,
    records: Vec<ToolCallRecord>,
    phase: Phase,
    /// Declarations that replaced the toolkit's in requests (`beforeLLM`).
    declared: Option<Vec<ToolSpec>>,
    /// The usage of the agents below this run, by path.
    agent_usage: AgentUsage,
    /// How the last model call of this segment ended: normalised, and the provider's own word.
    last_finish: Option<(provider::Finish, Option<String>)>,
    /// The readable reasoning of this segment's model calls.
    reasoning: String,
}

impl Run {
    /// `run(prompt, { history })`: the history (read with `dialect::read` or `read_json`) is
    /// balanced (a call left without a result by an abandoned halt gets an error result), then
    /// the prompt is appended. A style that carries the system prompt as a message gets it only
    /// in a fresh transcript.
    pub fn start(cfg: LoopConfig, toolkit: Toolkit, history: Vec<Message>, prompt: impl Into<Message>) -> Result<(Run, Step)> {
        Run::open(cfg, toolkit, history, Some(prompt.into()))
    }

    /// Goes on from a transcript saved between turns (an agent's child whose host stopped while
    /// it ran): no new prompt, the next model call. A turn left without results is balanced.
    pub fn proceed(cfg: LoopConfig, toolkit: Toolkit, history: Vec<Message>) -> Result<(Run, Step)> {
        Run::open(cfg, toolkit, history, None)
    }

    fn open(cfg: LoopConfig, toolkit: Toolkit, history: Vec<Message>, prompt: Option<Message>) -> Result<(Run, Step)> {
        let mut transcript = history;
        balance(&mut transcript);
        let segment_start = transcript.len();
        if let Some(prompt) = prompt {
            if transcript.is_empty() {
                crate::provider::seed_system(cfg.provider.style, &mut transcript, &cfg.system_prompt);
            }
            transcript.push(prompt);
        }
        let mut run = Run::new(cfg, toolkit, transcript, segment_start)?;
        let step = run.next_model_step();
        Ok((run, step))
    }

    fn new(cfg: LoopConfig, toolkit: Toolkit, transcript: Vec<Message>, segment_start: usize) -> Result<Run> {
        if cfg.max_turns == 0 {
            return Err(Error::bad_input("maxTurns must be at least 1"));
        }
        Ok(Run {
            cfg,
            toolkit,
            transcript,
            segment_start,
            turns: 0,
            usage: Usage::default(),
            records: Vec::new(),
            phase: Phase::Model,
            declared: None,
            agent_usage: AgentUsage::default(),
            last_finish: None,
            reasoning: String::new(),
        })
    }

    pub fn style(&self) -> Style {
        self.cfg.provider.style
    }

    fn next_model_step(&mut self) -> Step {
        if self.turns >= self.cfg.max_turns {
            return self.finish_exhausted();
        }
        self.turns += 1;
        self.phase = Phase::Model;
        Step::CallModel
    }

    /// The request for the current model turn (declarations from `beforeLLM` if it replaced
    /// them), asking for an SSE reply when `stream`.
    pub fn build_request(&self, stream: bool) -> HttpRequest {
        let req = ModelRequest {
            system: &self.cfg.system_prompt,
            messages: &self.transcript,
            tools: self.declared.as_deref().unwrap_or(self.toolkit.tools()),
            stream,
            tool_choice: provider::ToolChoice::Auto,
            max_tokens: None,
        };
        provider::build_request(&self.cfg.provider, &req)
    }

    /// What `beforeLLM` sees: the transcript in this style's dialect and the declared tools.
    pub fn working_copies(&self) -> (Vec<Value>, Vec<ToolSpec>) {
        (dialect::render(&self.transcript, self.style()), self.declared.clone().unwrap_or_else(|| self.toolkit.tools().to_vec()))
    }

    /// `beforeLLM` replaced the messages and/or the declared tools for the rest of the run
    ///. Tools still run by name from the toolkit.
    pub fn replace_working(&mut self, messages: Option<Vec<Message>>, tools: Option<Vec<ToolSpec>>) {
        if let Some(m) = messages {
            self.segment_start = self.segment_start.min(m.len());
            self.transcript = m;
        }
        if let Some(t) = tools {
            self.declared = Some(t);
        }
    }

    /// Zero-based index of the current model turn (for hooks).
    pub fn turn_index(&self) -> u32 {
        self.turns.saturating_sub(1)
    }

    /// A `beforeTool` hook rewrote the arguments of call `slot`.
    pub fn note_args(&mut self, slot: usize, args: Rc<Map<String, Value>>) {
        if let Phase::Tools(t) = &mut self.phase {
            if let Some(a) = t.used_args.get_mut(slot) {
                *a = Some(args);
            }
        }
    }

    /// Feeds the provider's HTTP response. A typed error leaves the run unusable but loses
    /// nothing the caller had: its history and state are the caller's own values.
    pub fn on_model_response(&mut self, resp: &HttpResponse) -> Result<Step> {
        let reply = provider::parse_response(&self.cfg.provider, resp)?;
        self.on_model_reply(reply)
    }

    /// Feeds a reply already parsed (from a whole body or an assembled stream).
    pub fn on_model_reply(&mut self, reply: ModelReply) -> Result<Step> {
        if !matches!(self.phase, Phase::Model) {
            return Err(Error::internal("model response fed while not waiting for the model"));
        }
        self.usage.add(reply.usage);
        self.last_finish = Some((reply.finish, reply.stop_reason));
        if !self.reasoning.is_empty() && !reply.reasoning_text.is_empty() {
            self.reasoning.push_str(REASONING_SEPARATOR);
        }
        self.reasoning.push_str(&reply.reasoning_text);
        let mut turn = reply.turn;
        assign_call_ids(&mut turn.calls, self.turns);
        if turn.calls.is_empty() {
            let text = turn.text.clone();
            self.transcript.push(Message::Assistant(turn));
            return Ok(self.finish(Status::Done, text, None, None));
        }
        let mut slots = TurnSlots::new(turn.calls.clone(), true);
        self.transcript.push(Message::Assistant(turn));
        let mut invocations = Vec::with_capacity(slots.calls.len());
        for i in 0..slots.calls.len() {
            let inv = self.dispatch(i, &slots.calls[i], None);
            slots.note_parsed(&inv);
            invocations.push(inv);
        }
        self.phase = Phase::Tools(slots);
        Ok(Step::RunTools(invocations))
    }

    /// Resolves what can be resolved without the host: an unknown tool or arguments that are
    /// not a JSON object become preset error results fed back to the model.
    fn dispatch(&self, slot: usize, call: &ToolCall, answer: Option<Answer>) -> Invocation {
        let mut inv = Invocation {
            slot,
            call: call.clone(),
            args: Rc::default(),
            known: false,
            source: ToolSource::Other(UNKNOWN_TOOL_SOURCE.into()),
            answer,
            preset: None,
            child: None,
        };
        let Some(spec) = self.toolkit.get(&call.name) else {
            inv.preset = Some(ToolResult::unknown(&call.name));
            return inv;
        };
        inv.known = true;
        inv.source = spec.source.clone();
        match call.input() {
            Ok(args) => inv.args = Rc::new(args),
            Err(e) => inv.preset = Some(ToolResult::error(format!("Invalid arguments for tool {}: {e}", call.name))),
        }
        inv
    }

    /// Whether this segment's model calls gave readable reasoning so far.
    pub fn has_reasoning(&self) -> bool {
        !self.reasoning.is_empty()
    }

    pub fn usage(&self) -> Usage {
        self.usage
    }

    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn model(&self) -> &str {
        &self.cfg.provider.model
    }

    pub fn provider(&self) -> &ProviderConfig {
        &self.cfg.provider
    }

    /// The transcript as a stored conversation, halted on `pending` when given.
    pub fn conversation(&self, pending: Option<Request>) -> Checkpoint<'_> {
        Checkpoint { style: self.style(), transcript: Cow::Borrowed(&self.transcript), pending, children: Vec::new() }
    }

    /// The conversation as it stands, for a store. Between turns it is
    /// the transcript; while tools run it also holds the results settled so far (and any filled
    /// on resume) and is halted on the suspensions settled so far, merged as a durable halt
    /// would merge them, so a host that dies while waiting can resume from it.
    pub fn checkpoint(&self) -> Checkpoint<'_> {
        let Phase::Tools(turn) = &self.phase else {
            return self.conversation(None);
        };
        let mut outputs = Vec::new();
        let mut suspended = Vec::new();
        for (i, (call, slot)) in turn.calls.iter().zip(&turn.slots).enumerate() {
            if let Some(ToolOutcome::Result(r)) = slot {
                outputs.push(ToolOutput {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    output: r.output.clone(),
                    is_error: r.is_error,
                    parts: r.parts.clone(),
                });
            } else if let Some(req) = turn.suspension(i) {
                suspended.push(req);
            }
        }
        let mut transcript = Cow::Borrowed(self.transcript.as_slice());
        if !outputs.is_empty() {
            transcript.to_mut().push(Message::Tool(outputs));
        }
        let mut children = Vec::new();
        for c in turn.children.iter().flatten() {
            children.push(c.clone());
        }
        Checkpoint { style: self.style(), transcript, pending: merge_for_halt(&suspended), children }
    }

    /// Whether a call of the running turn is suspended right now, or runs a child that is
    /// (a checkpoint would be halted).
    pub fn has_suspended(&self) -> bool {
        matches!(&self.phase, Phase::Tools(t) if (0..t.calls.len()).any(|i| t.suspension(i).is_some()))
    }

    /// The child of agent call `slot` as last kept (halted, or saved while it ran).
    pub fn child(&self, slot: usize) -> Option<Child> {
        match &self.phase {
            Phase::Tools(t) => t.children.get(slot)?.clone(),
            _ => None,
        }
    }

    /// What an agent tool of this run's toolkit runs.
    pub fn agent_spec(&self, name: &str) -> Option<Rc<crate::tool::AgentSpec>> {
        self.toolkit.get(name)?.agent.clone()
    }

    pub fn max_turns(&self) -> u32 {
        self.cfg.max_turns
    }

    /// Keeps (or, with `None`, forgets) the child of agent call `slot`, as it halts or waits.
    pub fn note_child(&mut self, slot: usize, child: Option<Child>) {
        if let Phase::Tools(t) = &mut self.phase {
            if let Some(c) = t.children.get_mut(slot) {
                *c = child;
            }
        }
    }

    /// A child segment of agent `agent` ended (done, halted or stopped): its usage, and its
    /// agents', count as this run's.
    pub fn roll_in(&mut self, agent: &str, usage: Usage, below: &AgentUsage) {
        self.usage.add(usage);
        self.agent_usage.roll_in(agent, usage, below);
    }

    /// Takes the outcome of call `slot` of the running turn as it settles. A later outcome for
    /// the same slot replaces the earlier one (a suspension answered in-process).
    pub fn on_tool_outcome(&mut self, slot: usize, outcome: ToolOutcome) -> Result<()> {
        let Phase::Tools(turn) = &mut self.phase else {
            return Err(Error::internal("tool outcome fed while no tools were running"));
        };
        let s = turn.slots.get_mut(slot).ok_or_else(|| Error::internal(format!("tool outcome for unknown slot {slot}")))?;
        *s = Some(outcome);
        Ok(())
    }

    /// Call `slot` of the running turn and its outcome, once settled.
    pub fn settled(&self, slot: usize) -> Option<(&ToolCall, &ToolOutcome)> {
        match &self.phase {
            Phase::Tools(t) => t.calls.get(slot).zip(t.slots.get(slot)?.as_ref()),
            _ => None,
        }
    }

    /// Every call of the running turn has settled: the turn closes.
    pub fn end_tool_turn(&mut self) -> Result<Step> {
        let Phase::Tools(turn) = &self.phase else {
            return Err(Error::internal("tool outcomes fed while no tools were running"));
        };
        if turn.slots.iter().any(Option::is_none) {
            return Err(Error::internal("a tool call of this turn has no outcome"));
        }
        self.close_tool_turn()
    }

    /// Writes the turn's results in call order. With any suspension the run halts durably
    ///: completed results are kept in the transcript, suspended calls
    /// are left without a result (that is how resume finds them), and the surfaced request is
    /// the first suspension with every relay call of the turn merged in.
    fn close_tool_turn(&mut self) -> Result<Step> {
        let Phase::Tools(turn) = core::mem::replace(&mut self.phase, Phase::Finished) else {
            return Err(Error::internal("no tool turn to close"));
        };
        // The turn is taken out of the phase: its calls and outcomes move into the record and
        // the transcript (only a recorded result's output is copied, it goes to both).
        let mut outputs = Vec::new();
        let mut suspended = Vec::new();
        // Only a halted call's child is kept.
        let mut children: Vec<Child> = Vec::new();
        for (slot, child) in turn.slots.iter().zip(turn.children) {
            if let (Some(ToolOutcome::Suspend(_)), Some(c)) = (slot, child) {
                children.push(c);
            }
        }
        for (((call, slot), record), used) in turn.calls.into_iter().zip(turn.slots).zip(turn.record).zip(turn.used_args) {
            let (result, req) = match slot {
                Some(ToolOutcome::Result(r)) => (r, None),
                Some(ToolOutcome::Suspend(req)) => (placeholder(&req), Some(req)),
                None => return Err(Error::internal("closing a turn with a call still running")),
            };
            // The invocations are gone by now: the shared arguments are this record's alone.
            let args = || Value::Object(used.map_or_else(|| call.input_or_empty(), |a| Rc::try_unwrap(a).unwrap_or_else(|a| (*a).clone())));
            if let Some(r) = req {
                if record {
                    let (id, name) = (call.id.clone(), call.name.clone());
                    self.records.push(ToolCallRecord {
                        args: args(),
                        id,
                        name,
                        output: result.output,
                        is_error: result.is_error,
                        metadata: result.metadata,
                    });
                }
                suspended.push(r);
                continue;
            }
            if record {
                let (id, name, output) = (call.id.clone(), call.name.clone(), result.output.clone());
                self.records.push(ToolCallRecord { args: args(), id, name, output, is_error: result.is_error, metadata: result.metadata });
            }
            outputs.push(ToolOutput {
                call_id: call.id,
                name: call.name,
                output: result.output,
                is_error: result.is_error,
                parts: result.parts,
            });
        }
        if !outputs.is_empty() {
            self.transcript.push(Message::Tool(outputs));
        }
        if let Some(pending) = merge_for_halt(&suspended) {
            let text = pending.prompt.clone();
            let Step::Done(mut result) = self.finish(Status::Pending, text, None, Some(pending)) else {
                return Err(Error::internal("finish gives a result"));
            };
            result.children = children;
            return Ok(Step::Done(result));
        }
        Ok(self.next_model_step())
    }

    /// The turn cap stopped a run that was still calling tools: always `incomplete` with
    /// `limit: "maxTurns"`, and `text` is the last assistant text of this run (may be empty).
    fn finish_exhausted(&mut self) -> Step {
        let this_run = self.transcript.get(self.segment_start..).unwrap_or_default();
        let text = this_run.iter().rev().find_map(|m| match m {
            Message::Assistant(t) => Some(t.text.clone()),
            _ => None,
        });
        let text = text.unwrap_or_default();
        self.finish(Status::Incomplete, text, Some("maxTurns".into()), None)
    }

    fn finish(&mut self, status: Status, text: String, limit: Option<String>, pending: Option<Request>) -> Step {
        self.phase = Phase::Finished;
        Step::Done(Box::new(RunResult {
            schema_version: SCHEMA_VERSION,
            style: self.style(),
            status,
            text,
            // The run is over: its transcript moves into the result (the run's end is saved
            // from there).
            transcript: core::mem::take(&mut self.transcript),
            tool_call_count: self.records.len(),
            tool_calls: core::mem::take(&mut self.records),
            turns: self.turns,
            usage: self.usage,
            model: self.cfg.provider.model.clone(),
            limit,
            pending,
            finish_reason: self.last_finish.as_ref().map(|(f, _)| *f),
            provider_finish_reason: self.last_finish.take().and_then(|(_, raw)| raw),
            reasoning: core::mem::take(&mut self.reasoning),
            children: Vec::new(),
            agent_usage: core::mem::take(&mut self.agent_usage),
        }))
    }
}

/// What `toolCalls` records for a call that halted: its prompt, as an error, with the request.
fn placeholder(req: &Request) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("pending".into(), req.to_value());
    ToolResult { output: req.prompt.clone(), is_error: true, metadata: Some(meta), parts: Vec::new() }
}

/// Results are paired with calls by id, so a missing or repeated id would lose a result.
/// Such calls get a stable synthesised id `call_<turn>_<index>`, with a `_<n>` suffix when
/// another call of the turn already has that id (a provider may use the same shape).
pub(crate) fn assign_call_ids(calls: &mut [ToolCall], turn: u32) {
    for i in 0..calls.len() {
        let dup = calls[..i].iter().any(|c| c.id == calls[i].id);
        if calls[i].id.is_empty() || dup {
            let taken = |id: &str| calls.iter().enumerate().any(|(j, c)| j != i && c.id == id);
            let mut base = String::from("call_");
            crate::json::write_u64(&mut base, u64::from(turn));
            base.push('_');
            crate::json::write_u64(&mut base, i as u64);
            let mut id = base.clone();
            let mut n = 0;
            while taken(&id) {
                n += 1;
                id.clone_from(&base);
                id.push('_');
                crate::json::write_u64(&mut id, n);
            }
            calls[i].id = id;
        }
    }
}

#[cfg(test)]
mod tests;
