//! Durable resume, `runWithAnswer` (the resume rules of docs/decisions/loop.md, D-1..D-4):
//! validate, find the halted turn, keep completed results, fill every outstanding slot, then
//! continue the same loop. No new user turn is appended and the provider never sees a call
//! without a result.

use super::{LoopConfig, Phase, Run, Step, TurnSlots};
use crate::error::{Error, Result};
use crate::message::{last_tool_turn, Message};
use crate::prelude::*;
use crate::state::Child;
use crate::suspend::{check_answer_id, check_answer_results, declined, relay_output, Answer, Request};
use crate::tool::{ToolResult, Toolkit};

pub struct ResumeInput {
    /// The halted transcript, read with `dialect::read` or `read_json`.
    pub history: Vec<Message>,
    pub pending: Request,
    pub answer: Answer,
    /// The halted children of the turn's agent calls (a state's `children`).
    pub children: Vec<Child>,
}

/// How a refusal of a resume starts.
const LEAD: &str = "toolnexus: cannot resume — ";

fn cannot(msg: &str) -> Error {
    Error::bad_state(format!("toolnexus: cannot resume — {msg}"))
}

impl Run {
    pub fn resume(cfg: LoopConfig, toolkit: Toolkit, input: ResumeInput) -> Result<(Run, Step)> {
        let ResumeInput { history, pending, answer, mut children } = input;
        // Several children halted in one turn are answered in any order: an answer to another
        // child's request (or to one of its own children's) answers that child.
        let mut pending = pending;
        if answer.id != pending.id {
            for c in &children {
                if let Some(r) = c.find(&answer.id) {
                    pending = r;
                    break;
                }
            }
        }
        // The id first (the answer is for this request at all); its results once the halted
        // turn's outstanding calls are known.
        check_answer_id(&pending, &answer, LEAD)?;
        if history.is_empty() {
            return Err(cannot("no transcript supplied"));
        }
        let mut transcript = history;
        let open = last_tool_turn(&transcript).ok_or_else(|| cannot("the transcript has no halted assistant turn with tool calls"))?;
        // `get`s and `settle`: the indexes are the halted turn's (in range by construction).
        if transcript.get(open.index + 1..).unwrap_or_default().iter().any(|m| !matches!(m, Message::Tool(_))) {
            return Err(cannot("the halted turn is not the last turn of the transcript (was it already resumed?)"));
        }
        let outstanding: Vec<usize> =
            open.results.iter().take(open.calls.len()).enumerate().filter(|(_, r)| r.is_none()).map(|(i, _)| i).collect();
        let Some(&first_outstanding) = outstanding.first() else {
            return Err(cannot("every call of the halted turn already has a result (was it already resumed?)"));
        };
        // A child's request (it has a path) answers the child: at this level it is the answer to
        // the delegate call the path starts with, whatever its kind; its relay calls are the
        // child's to match.
        let own = pending.path.is_empty();
        let relay_ids: Vec<String> = pending.relay_calls().into_iter().map(|c| c.id).collect();
        let mut open_relay: Vec<&str> = Vec::new();
        for &i in &outstanding {
            if let Some(c) =
                open.calls.get(i).filter(|c| (own && relay_ids.contains(&c.id)) || toolkit.get(&c.name).is_some_and(|t| t.is_relay()))
            {
                open_relay.push(&c.id);
            }
        }
        if own
            && pending.is_relay()
            && !relay_ids.iter().any(|id| outstanding.iter().any(|&i| open.calls.get(i).is_some_and(|c| &c.id == id)))
        {
            return Err(cannot("the pending request's calls are not outstanding in the transcript's halted turn"));
        }
        // Refused before anything is kept or run: the halted state stays as it was.
        if own {
            check_answer_results(&pending, &answer, &open_relay, LEAD)?;
        } else {
            // A child's relay request lists exactly the calls it waits on: its answer is checked
            // here too, before any claim is taken or anything runs.
            let mut asked: Vec<&str> = Vec::new();
            for id in &relay_ids {
                asked.push(id);
            }
            check_answer_results(&pending, &answer, &asked, LEAD)?;
        }
        // The call the request suspends: the one it names (`callId`, set by the loop since
        // schema 2), else, for a request from before that, the first outstanding one.
        let asked = match pending.own_call() {
            Some(id) => match outstanding.iter().find(|&&i| open.calls.get(i).is_some_and(|c| c.id == id)) {
                Some(&i) => i,
                None => return Err(cannot("the pending request's call is not outstanding in the transcript's halted turn")),
            },
            None => first_outstanding,
        };
        transcript.truncate(open.index + 1);
        // Earlier turns get the balancing rule too: a state edited (or cut) so that an earlier
        // call lost its result would otherwise reach the provider as a call without one.
        let halted = transcript.pop();
        crate::message::balance(&mut transcript);
        let open_index = transcript.len();
        if let Some(h) = halted {
            transcript.push(h);
        }

        let mut slots = TurnSlots::new(open.calls.clone(), false);
        for (i, r) in open.results.iter().enumerate() {
            if let Some(r) = r {
                slots.settle(i, ToolResult { output: r.output.clone(), is_error: r.is_error, metadata: None, parts: r.parts.clone() });
            }
        }

        let run_cfg_toolkit = toolkit;
        let mut run = Run::new(cfg, run_cfg_toolkit, transcript, open_index + 1)?;
        let mut invocations = Vec::new();
        let mut shorthand_free = true;
        // A refusal of a request that asked for refusals (`rerunOnDecline`) answers that one
        // question, as `ok` does: its call re-runs with it and the others re-run afresh. Only the
        // relay calls merged into the request are refused with it. Any other refusal declines
        // every outstanding call (docs/decisions/loop.md, D-1..D-4).
        let wants_refusal = !own || (pending.rerun_on_decline && !pending.is_relay());
        for &i in &outstanding {
            let Some(call) = open.calls.get(i) else { continue };
            let is_relay = (own && relay_ids.contains(&call.id)) || run.toolkit.get(&call.name).is_some_and(|t| t.is_relay());
            // A child's answer is the child's alone: this level's calls, relay calls too, run
            // again below and ask as they asked.
            if own && !answer.ok && (is_relay || !wants_refusal) {
                slots.settle(i, declined(&pending));
                continue;
            }
            if own && is_relay {
                let r = relay_output(&answer, &call.id, shorthand_free)
                    .unwrap_or_else(|| ToolResult::error(format!("no result supplied on resume for {}", call.name)));
                shorthand_free = false;
                slots.settle(i, r);
                continue;
            }
            // A non-relay call: re-executed; the halted one gets the answer as ctx.answer (docs/decisions/loop.md, D-1..D-4).
            let halted = (!own || !pending.is_relay()) && i == asked;
            if let Some(r) = slots.record.get_mut(i) {
                *r = true;
            }
            let mut inv = run.dispatch(i, call, halted.then(|| answer.clone()));
            // A halted agent call continues its child; the child that did not ask surfaces its
            // request again (driver/agent.rs): neither starts over.
            if let Some(k) = children.iter().position(|c| c.call_id == call.id) {
                inv.child = Some(children.swap_remove(k));
            }
            slots.note_parsed(&inv);
            invocations.push(inv);
        }
        run.phase = Phase::Tools(slots);
        let step = if invocations.is_empty() { run.close_tool_turn()? } else { Step::RunTools(invocations) };
        Ok((run, step))
    }
}
