//! The calls of the running tool turn and what each has come to: its outcome once settled, the
//! arguments actually used, whether it goes into `toolCalls`, and the child of an agent call
//! while it is halted or waits.

use super::Invocation;
use crate::message::ToolCall;
use crate::prelude::*;
use crate::state::Child;
use crate::suspend::{Request, ToolOutcome};
use crate::tool::ToolResult;
use alloc::rc::Rc;
use serde_json::{Map, Value};

#[derive(Clone, Debug)]
pub(super) struct TurnSlots {
    pub(super) calls: Vec<ToolCall>,
    /// Each call's outcome once it settled (`None` while it runs).
    pub(super) slots: Vec<Option<ToolOutcome>>,
    /// Whether each slot's result goes into `toolCalls` (answered relay results on resume do not).
    pub(super) record: Vec<bool>,
    /// Arguments a `beforeTool` hook rewrote, recorded as the ones actually used.
    pub(super) used_args: Vec<Option<Rc<Map<String, Value>>>>,
    /// The child of each agent call, while it is halted or waits.
    pub(super) children: Vec<Option<Child>>,
}

impl TurnSlots {
    pub(super) fn new(calls: Vec<ToolCall>, record: bool) -> TurnSlots {
        let n = calls.len();
        TurnSlots {
            calls,
            slots: crate::small::nones(n),
            record: vec![record; n],
            used_args: crate::small::nones(n),
            children: crate::small::nones(n),
        }
    }

    /// The suspension of call `i` as a checkpoint sees it: its own, or, while it runs, the
    /// request its child waits on (surfaced: the child is this call's).
    pub(super) fn suspension(&self, i: usize) -> Option<Request> {
        match self.slots.get(i)? {
            Some(ToolOutcome::Suspend(r)) => Some(r.clone()),
            Some(ToolOutcome::Result(_)) => None,
            None => self.children.get(i)?.as_ref()?.request(),
        }
    }

    /// Settles slot `i` (a call of the turn) with a result.
    pub(super) fn settle(&mut self, i: usize, result: ToolResult) {
        if let Some(s) = self.slots.get_mut(i) {
            *s = Some(ToolOutcome::Result(result));
        }
    }

    /// Keeps the arguments `dispatch` parsed for a declared tool as the ones the record shows,
    /// so a call's arguments are parsed once per turn (a `beforeTool` rewrite replaces them).
    pub(super) fn note_parsed(&mut self, inv: &Invocation) {
        if inv.known {
            if let Some(a) = self.used_args.get_mut(inv.slot) {
                *a = Some(inv.args.clone());
            }
        }
    }
}
