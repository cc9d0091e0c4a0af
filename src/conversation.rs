//! What happens to a stored conversation: loading it, refusing a new prompt while it is halted,
//! choosing what a resume continues from and checking the answer against it, discarding it, and
//! the revision rule every save obeys. The store itself is a seam ([`ConversationStore`]); this
//! module does no I/O of its own, so every rule here is testable natively.

use crate::driver::Persist;
use crate::error::{Code, Error, Result};
use crate::message::{last_tool_turn, Message, ToolOutput};
use crate::prelude::*;
use crate::state::{load_conversation, ConversationState};
use crate::suspend::{declined, Request};
use core::cell::Cell;
use core::future::Future;
use core::task::{Poll, Waker};
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// Where conversations are kept, one JSON document (a [`ConversationState`]) per id.
pub trait ConversationStore {
    /// The stored document, `None` when the id is unknown.
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>>;
    /// A store that checks applies [`check_revision`] atomically against what it holds.
    fn save<'a>(&'a self, id: &'a str, state: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>>;
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<()>>;
}

/// A document's `revision` as a store reads it: a missing or unreadable one (not a whole number
/// of at least 0) counts as 0, as in documents written before revisions.
pub fn revision_of(v: Option<f64>) -> u64 {
    v.filter(|n| *n >= 0.0 && crate::small::whole(*n)).map_or(0, |n| n as u64)
}

/// The revision a save carries when the last one saved (or loaded) was `current`.
pub fn next_revision(current: u64) -> u64 {
    current.saturating_add(1)
}

/// The revision rule a checking store applies on save: over a stored state, the incoming one
/// must be exactly its next revision; anything else is a write based on a stale read, refused
/// with `conflict`, so the newer state is never overwritten. An id with nothing stored takes any
/// revision (a new conversation, or one copied from another store).
pub fn check_revision(stored: Option<u64>, incoming: u64) -> Result<()> {
    match stored {
        Some(stored) if incoming != next_revision(stored) => Err(Error::conflict(format!(
            "conflict: the conversation is at revision {}, this save expected {}",
            stored,
            incoming.saturating_sub(1)
        ))),
        _ => Ok(()),
    }
}

/// The stored conversation `id`, decoded and checked; `None` when there is none yet.
pub async fn load(store: &dyn ConversationStore, id: &str) -> Result<Option<(ConversationState, Vec<Message>)>> {
    match store.get(id).await? {
        None => Ok(None),
        Some(v) => load_conversation(&v).map(Some),
    }
}

/// A transcript to continue and the revision its saves continue from.
#[derive(Debug)]
pub struct Opened {
    pub history: Vec<Message>,
    pub revision: u64,
}

/// Opens `id` for a new prompt: an unknown id starts empty; a halted one refuses the prompt
/// (`conversation_halted`): its request must be answered or the conversation discarded first.
pub async fn open(store: &dyn ConversationStore, id: &str) -> Result<Opened> {
    match load(store, id).await? {
        None => Ok(Opened { history: Vec::new(), revision: 0 }),
        Some((state, _)) if state.pending.is_some() => Err(Error::new(
            Code::ConversationHalted,
            match state.claimed {
                Some(_) => format!("conversation \"{id}\" {}", claimed_text()),
                None => format!(
                    "conversation \"{id}\" is halted on request \"{}\": answer it with askWithAnswer, or discard it",
                    state.pending.map(|p| p.id).unwrap_or_default()
                ),
            },
        )),
        Some((state, history)) => Ok(Opened { history, revision: state.revision }),
    }
}

/// A pending `RunResult` given back to resume: its transcript and the request it waits on.
/// What the reader refuses in it is a broken state (`bad_state`), not the caller's input.
pub fn halted_state(state: &Value) -> Result<(Vec<Message>, Request, Vec<crate::state::Child>)> {
    let halted = crate::state::load(state)?;
    let history = crate::dialect::read(&halted.messages).map_err(|e| Error::bad_state(e.message))?;
    Ok((history, halted.pending, halted.children))
}

/// What a resume was given besides its answer. `state` and `history` are read only when they
/// are the source chosen, so a value beside a stored id is never decoded.
pub struct ResumeArgs<'a> {
    /// The request being answered, when the caller names it.
    pub pending: Option<Request>,
    /// A pending `RunResult`, when one was given.
    pub state: Option<&'a dyn Fn() -> Result<Value>>,
    /// The transcript given with `pending`.
    pub history: &'a dyn Fn() -> Result<Vec<Message>>,
}

/// A halted transcript, the request it is halted on, and the revision saves continue from.
#[derive(Debug)]
pub struct Resumable {
    pub history: Vec<Message>,
    pub pending: Request,
    pub revision: u64,
    /// For a stored conversation, the claim to save (at the next revision, through the store's
    /// own check) before the answer runs anything: the stored state marked `claimed`.
    pub claim: Option<ConversationState>,
    /// The halted children of the turn's agent calls.
    pub children: Vec<crate::state::Child>,
}

/// Chooses what a resume continues from: the stored conversation `id` (when the call keeps
/// conversations in `store` and names one), else the `state` given, else `history` + `pending`.
pub async fn resume(store: Option<&dyn ConversationStore>, id: Option<&str>, args: ResumeArgs<'_>) -> Result<Resumable> {
    if let (Some(store), Some(id)) = (store, id) {
        let Some((stored, history)) = load(store, id).await? else {
            return Err(Error::bad_state(format!(
                "toolnexus: cannot resume — no transcript supplied (no conversation \"{id}\" in the store)"
            )));
        };
        // An answer for a conversation that has moved on is a lost race (another context resumed
        // it first) or a replay: `conflict`, the code a losing save gets, so a host handles every
        // way of losing a race alike whatever the timing.
        let Some(pending) = stored.pending.clone() else {
            return Err(Error::conflict(format!(
                "conflict: conversation \"{id}\" is no longer halted (already resumed): there is nothing to answer"
            )));
        };
        if let Some(p) = args.pending.filter(|p| p.id != pending.id) {
            return Err(Error::conflict(format!(
                "stale pending request \"{}\": conversation \"{id}\" is halted on \"{}\"",
                p.id, pending.id
            )));
        }
        // Another resume claimed it first (or claimed it and never finished): the loser of the
        // race is told before anything of its own runs.
        if stored.claimed.is_some() {
            return Err(Error::conflict(format!("conflict: conversation \"{id}\" {}", claimed_text())));
        }
        let revision = stored.revision;
        let children = stored.children.clone();
        let claim = ConversationState { claimed: Some(pending.id.clone()), ..stored };
        return Ok(Resumable { history, pending, revision, claim: Some(claim), children });
    }
    if let Some(state) = args.state {
        let (history, pending, children) = halted_state(&state()?)?;
        return Ok(Resumable { history, pending, revision: 0, claim: None, children });
    }
    let pending = args.pending.ok_or_else(|| {
        Error::bad_input(if store.is_some() {
            "askWithAnswer needs a conversation id (or { history, pending } / a pending RunResult as state)"
        } else {
            "runWithAnswer needs { history, pending } or a pending RunResult as state"
        })
    })?;
    Ok(Resumable { history: (args.history)()?, pending, revision: 0, claim: None, children: Vec::new() })
}

/// What a claimed conversation's refusal says: whose it is, and the way out of one left behind.
fn claimed_text() -> &'static str {
    "is being resumed by another call (its request was claimed; whether its tool ran is unknown if that call died): \
     wait for it, or discard(id, { keepHistory: true }) to close the turn as interrupted"
}

/// The result a call of a claimed turn gets when the conversation is discarded with its history:
/// the resume that claimed it may have run the tool, so neither "declined" nor a retry is true.
const INTERRUPTED: &str = "interrupted: a resume of this call was claimed but never finished; the tool may or may not have run";

/// Drops the conversation `id`. With `keep_history` a halted conversation is kept instead, its
/// halted turn closed: every waiting call gets a declined result and the request is cleared, so
/// the next prompt continues from it. Anything else is left as it is.
pub async fn discard(store: &dyn ConversationStore, id: &str, keep_history: bool) -> Result<()> {
    if !keep_history {
        return store.delete(id).await;
    }
    let Some((state, mut transcript)) = load(store, id).await? else { return Ok(()) };
    let Some(pending) = state.pending else { return Ok(()) };
    if let Some(turn) = last_tool_turn(&transcript) {
        let declined = match state.claimed {
            Some(_) => INTERRUPTED.into(),
            None => declined(&pending).output,
        };
        let outs = turn
            .calls
            .iter()
            .zip(&turn.results)
            .filter(|(_, r)| r.is_none())
            .map(|(c, _)| ToolOutput {
                call_id: c.id.clone(),
                name: c.name.clone(),
                output: declined.clone(),
                is_error: true,
                parts: Vec::new(),
            })
            .collect();
        transcript.push(Message::Tool(outs));
    }
    let mut closed = ConversationState::new(state.style, &transcript, None);
    closed.revision = next_revision(state.revision);
    store.save(id, &closed).await
}

/// Persists one run's conversation `id`: each save carries the next revision after the last one
/// this run saved (or loaded). Saves go to the store one at a time, in the order they were made,
/// and each takes its revision only when it is sent: parallel calls of one turn that suspend
/// together checkpoint twice, and the second must build on the first, not race it.
pub struct Saver<'a> {
    store: &'a dyn ConversationStore,
    id: String,
    revision: Cell<u64>,
    queue: Queue,
    /// Coalescing (`save_latest`): requests made, the last request a finished save covered, and
    /// whether a save is being sent. N calls that suspend (or are answered) together then cost
    /// two saves of the latest state, not N saves of N growing states.
    requested: Cell<u64>,
    covered: Cell<u64>,
    sending: Cell<bool>,
}

impl<'a> Saver<'a> {
    /// `revision`: the stored revision the run started from (0 for a new conversation).
    pub fn new(store: &'a dyn ConversationStore, id: String, revision: u64) -> Self {
        Saver {
            store,
            id,
            revision: Cell::new(revision),
            queue: Queue::default(),
            requested: Cell::new(0),
            covered: Cell::new(0),
            sending: Cell::new(false),
        }
    }

    /// The revision of the last successful save (or the one loaded).
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }
}

impl Persist for Saver<'_> {
    fn save(&self, mut state: ConversationState) -> LocalBoxFuture<'_, Result<()>> {
        // The ticket is taken now, while the caller's order is still the order of the calls.
        let ticket = self.queue.ticket();
        Box::pin(async move {
            ticket.turn().await;
            state.revision = next_revision(self.revision.get());
            self.store.save(&self.id, &state).await?;
            self.revision.set(state.revision);
            Ok(())
        })
    }

    /// One save serves every request made before it was sent: the state is taken when the save
    /// starts, after every requester recorded its outcome. A request made while a save is being
    /// sent waits for it, then the first such waiter sends one save for all of them. A save given
    /// up half-way (the run aborted) lets the waiters go on.
    fn save_latest<'s>(&'s self, state: &'s dyn Fn() -> ConversationState) -> LocalBoxFuture<'s, Result<()>> {
        let mine = self.requested.get() + 1;
        self.requested.set(mine);
        Box::pin(async move {
            loop {
                if self.covered.get() >= mine {
                    return Ok(());
                }
                if !self.sending.get() {
                    self.sending.set(true);
                    let _done = Sending(self);
                    let upto = self.requested.get();
                    self.save(state()).await?;
                    self.covered.set(self.covered.get().max(upto));
                    return Ok(());
                }
                core::future::poll_fn(|cx| {
                    if self.sending.get() {
                        self.queue.waker.set(Some(cx.waker().clone()));
                        Poll::Pending
                    } else {
                        Poll::Ready(())
                    }
                })
                .await;
            }
        })
    }
}

/// Ends a coalesced save, done or given up, and wakes the requests that wait for it.
struct Sending<'s, 'a>(&'s Saver<'a>);

impl Drop for Sending<'_, '_> {
    fn drop(&mut self) {
        self.0.sending.set(false);
        if let Some(w) = self.0.queue.waker.take() {
            w.wake();
        }
    }
}

/// A first-come first-served turn for one saver's saves (single-threaded: `Cell`s only).
#[derive(Default)]
struct Queue {
    issued: Cell<u64>,
    /// Tickets up to this one may save. A ticket done (or dropped) lets everything up to it by,
    /// so a save given up before its turn never holds up the ones behind it; the worst it can
    /// do is let two saves overlap, which the store's revision check turns into `conflict`.
    serving: Cell<u64>,
    /// One waker is enough: a saver serves one run, and all of a run's saves are polled by its
    /// one task, so waking it reaches every waiting save.
    waker: Cell<Option<Waker>>,
}

impl Queue {
    fn ticket(&self) -> Ticket<'_> {
        let n = self.issued.get();
        self.issued.set(n + 1);
        Ticket { queue: self, n }
    }
}

struct Ticket<'a> {
    queue: &'a Queue,
    n: u64,
}

impl Ticket<'_> {
    /// Resolves when every older save is done.
    fn turn(&self) -> impl Future<Output = ()> + '_ {
        core::future::poll_fn(move |cx| {
            if self.queue.serving.get() >= self.n {
                Poll::Ready(())
            } else {
                self.queue.waker.set(Some(cx.waker().clone()));
                Poll::Pending
            }
        })
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.queue.serving.set(self.queue.serving.get().max(self.n + 1));
        if let Some(w) = self.queue.waker.take() {
            w.wake();
        }
    }
}

/// What a resume call (`runWithAnswer`, `askWithAnswer`, `streamWithAnswer`) was given, read
/// from the JSON data of its options: `answer` (required), `pending`, `state`, `history`, and
/// (`use_store`) the conversation `id`. `state` and `history` stay data until [`resume`] chooses
/// its source, so neither is decoded beside a stored id.
#[derive(Debug)]
pub struct ResumeOptions {
    pub answer: crate::suspend::Answer,
    pub pending: Option<Request>,
    pub state: Option<Value>,
    pub history: Value,
    pub id: Option<String>,
}

impl ResumeOptions {
    /// Reads the options from their JSON text; text that does not parse is what the edge gives
    /// for options that are not JSON data.
    pub fn from_json_text(text: &str, use_store: bool, needs_id: bool) -> Result<ResumeOptions> {
        let data = crate::json::parse(text).map_err(|_| Error::bad_input("the resume options are not JSON data"))?;
        ResumeOptions::from_json(data, use_store, needs_id)
    }

    /// `needs_id`: `askWithAnswer`, which only resumes a stored conversation.
    pub fn from_json(mut opts: Value, use_store: bool, needs_id: bool) -> Result<ResumeOptions> {
        let id = if use_store { conversation_id(&opts)? } else { None };
        if needs_id && id.is_none() {
            return Err(Error::bad_input("toolnexus: AskWithAnswer needs a conversation id"));
        }
        let field = |opts: &mut Value, k: &str| opts.get_mut(k).map(Value::take).unwrap_or(Value::Null);
        // An array is an object to JS: it reaches the reader and is refused there, as before.
        let object = |v: &Value| v.is_object() || v.is_array();
        let answer = field(&mut opts, "answer");
        if !object(&answer) {
            return Err(Error::bad_input("an answer object { id, ok, data? } is required"));
        }
        let invalid = |what: &str, e: String| Error::bad_input(format!("{what} is invalid: {e}"));
        let answer = crate::suspend::Answer::from_json(&answer, "answer").map_err(|e| invalid("answer", e))?;
        let pending = match field(&mut opts, "pending") {
            p if object(&p) => Some(Request::from_json(&p, "pending").map_err(|e| invalid("pending", e))?),
            _ => None,
        };
        let state = Some(field(&mut opts, "state")).filter(|s| !s.is_null());
        Ok(ResumeOptions { answer, pending, state, history: field(&mut opts, "history"), id })
    }
}

/// A history given as JSON data: absent is empty, anything but an array is refused.
pub fn history_from_json(v: &Value) -> Result<Vec<Message>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => crate::dialect::read(a),
        _ => Err(Error::bad_input("history must be an array of messages")),
    }
}

/// The options' `id`: a non-empty string, or none.
pub fn conversation_id(opts: &Value) -> Result<Option<String>> {
    match opts.get("id") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(_) => Err(Error::bad_input("options.id must be a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_options_are_checked_in_order() {
        let err = |v: Value, store, needs_id| ResumeOptions::from_json(v, store, needs_id).unwrap_err().message;
        let answer = serde_json::json!({ "id": "r1", "ok": true });
        assert_eq!(err(serde_json::json!({ "answer": answer }), true, true), "toolnexus: AskWithAnswer needs a conversation id");
        assert_eq!(err(serde_json::json!({ "id": 3, "answer": answer }), true, false), "options.id must be a string");
        assert_eq!(err(serde_json::json!({ "answer": "yes" }), false, false), "an answer object { id, ok, data? } is required");
        assert_eq!(err(serde_json::json!({}), false, false), "an answer object { id, ok, data? } is required");
        assert!(err(serde_json::json!({ "answer": [] }), false, false).starts_with("answer is invalid: "));
        assert!(err(serde_json::json!({ "answer": answer, "pending": { "id": 7 } }), false, false).starts_with("pending is invalid: "));
        // Without the store an id is not read at all.
        let o = ResumeOptions::from_json(serde_json::json!({ "id": 3, "answer": answer, "pending": "x", "state": null }), false, false)
            .unwrap();
        assert!(o.id.is_none() && o.pending.is_none() && o.state.is_none() && o.history.is_null());
        let o = ResumeOptions::from_json(serde_json::json!({ "id": "", "answer": answer }), true, false).unwrap();
        assert!(o.id.is_none(), "an empty id is no id");
        let text_err = |t: &str| ResumeOptions::from_json_text(t, false, false).unwrap_err().message;
        assert_eq!(text_err(""), "the resume options are not JSON data");
        assert_eq!(text_err("{}"), "an answer object { id, ok, data? } is required");
        assert!(ResumeOptions::from_json_text(r#"{"answer":{"id":"r1","ok":true}}"#, false, false).is_ok());
        assert_eq!(history_from_json(&serde_json::json!({})).unwrap_err().message, "history must be an array of messages");
        assert!(history_from_json(&Value::Null).unwrap().is_empty());
    }

    #[test]
    fn revisions_only_move_forward_by_one() {
        assert!(check_revision(None, 1).is_ok());
        assert!(check_revision(None, 7).is_ok(), "nothing stored: nothing to protect");
        assert!(check_revision(Some(4), 5).is_ok());
        assert_eq!(next_revision(4), 5);
        for (v, n) in [(None, 0), (Some(3.0), 3), (Some(-1.0), 0), (Some(2.5), 0), (Some(f64::NAN), 0)] {
            assert_eq!(revision_of(v), n, "{v:?}");
        }
        for (stored, incoming) in [(Some(5), 5), (Some(5), 4), (Some(5), 7), (Some(1), 1), (Some(0), 0)] {
            assert_eq!(check_revision(stored, incoming).unwrap_err().code(), "conflict", "{stored:?} → {incoming}");
        }
    }

    #[test]
    fn saves_take_turns_and_one_given_up_does_not_hold_up_the_next() {
        let q = Queue::default();
        let (first, second, third) = (q.ticket(), q.ticket(), q.ticket());
        let waiting = |t: &Ticket| futures_util::FutureExt::now_or_never(t.turn()).is_none();
        assert!(!waiting(&first) && waiting(&second) && waiting(&third));
        drop(first);
        assert!(!waiting(&second) && waiting(&third), "the second's turn");
        let fourth = q.ticket();
        drop(third);
        assert!(!waiting(&fourth), "the third gave up before its turn: the fourth is not held up");
        drop(second);
        assert!(!waiting(&fourth));
    }
}
