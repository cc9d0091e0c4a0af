//! One loop operation of a client, from its decoded inputs to its result: whether it keeps its
//! conversation in the store, what a prompt continues (the stored conversation or a given
//! history), what a resume answers (the stored conversation, a given state, or a given history
//! and request), and the saves of a stored run. The wasm edge decodes the JS values and calls
//! [`run`] once; the rules are here, where `cargo test` reaches them natively.

use crate::conversation::{self, ConversationStore, Opened, ResumeArgs, ResumeOptions, Saver};
use crate::driver::{abortable, drive, Env, Persist};
use crate::error::{Error, Result};
use crate::message::Message;
use crate::prelude::*;
use crate::run::{LoopConfig, ResumeInput, Run, RunResult, Step};
use crate::tool::Toolkit;
use core::cell::Cell;
use serde_json::Value;

/// The loop operations: `run`/`runWithAnswer` never touch the store; `ask`/`askWithAnswer` do,
/// and `stream`/`streamWithAnswer` do when given an `id`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Run,
    Ask,
    Stream,
}

impl Mode {
    pub fn uses_store(self) -> bool {
        self != Mode::Run
    }
}

/// What a loop operation continues with. Made once per operation and moved once, so the size of
/// the larger variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Input<'a> {
    /// A new prompt (a text or parts, read by `Message::prompt`). `id` is the options' conversation id (read only when the mode keeps
    /// conversations); without one, `history` gives the transcript to continue (JSON data in any
    /// dialect, read only then).
    Prompt { prompt: Message, id: Option<String>, history: &'a dyn Fn() -> Result<Value> },
    /// The host's answer and what it answers.
    Resume(ResumeOptions),
}

impl Input<'_> {
    /// A resume's options, read from their JSON text by the rules of `mode`: `askWithAnswer`
    /// needs a conversation id, and only a mode that keeps conversations reads one.
    pub fn resume(text: &str, mode: Mode) -> Result<Input<'static>> {
        ResumeOptions::from_json_text(text, mode.uses_store(), mode == Mode::Ask).map(Input::Resume)
    }
}

/// Runs one loop operation of a client configured with `cfg`, over the tools of `kit` and the
/// seams of `env`, keeping the conversation in `store` when the mode and the options say so
/// (saved after every completed turn and before any `waitFor`, each save at the next revision).
pub async fn run(
    cfg: &LoopConfig,
    mode: Mode,
    kit: Toolkit,
    input: Input<'_>,
    store: &dyn ConversationStore,
    env: &Env<'_>,
) -> Result<RunResult> {
    // A failure while the run is being prepared (a store call settled by the abort) reports the
    // abort, as a failure of the run itself does.
    let aborted = |e| env.abort.and_then(|a| a.aborted()).unwrap_or(e);
    // Boxed: the preparation polls as a function of its own, not as part of the client's one
    // operation future, whose single body would otherwise hold it (it gzips worse merged).
    let (run, step, id, revision, claim) = Box::pin(prepare(cfg, mode, kit, input, store)).await.map_err(aborted)?;
    let saver = id.map(|id| Saver::new(store, id, revision));
    // The claim goes through the store's own revision check before the answer runs anything:
    // of two resumes of one halted conversation, the second gets `conflict` here, with nothing
    // of its own run (docs/decisions/resume-claim.md). A state the caller holds is held in this
    // realm for as long as its run lasts.
    let _held = match (claim, &saver) {
        (Claim::Store(claim), Some(saver)) => {
            abortable(env.abort, saver.save(*claim)).await?;
            None
        }
        (Claim::Realm(request), _) => Some(env.ids.hold(&request).ok_or_else(|| {
            Error::conflict(format!(
                "conflict: request \"{request}\" is being answered by another resume of the same state in this realm: \
                 keep conversations in a store (askWithAnswer) to resume one exactly once across contexts"
            ))
        })?),
        _ => None,
    };
    let env = Env { persist: saver.as_ref().map(|s| s as &dyn Persist), ..*env };
    drive(run, step, &env).await
}

/// What a prepared operation claims before it runs: a stored resume's claimed state (saved
/// through the store's check), a caller-held state's request id (held in this realm), or nothing
/// (a prompt).
enum Claim {
    Store(Box<crate::state::ConversationState>),
    Realm(String),
    None,
}

/// What a prepared operation runs: the run and its first step, the conversation id its saves go
/// to (when it keeps one), the stored revision those saves continue from, and its claim.
type Prepared = (Run, Step, Option<String>, u64, Claim);

async fn prepare(cfg: &LoopConfig, mode: Mode, kit: Toolkit, input: Input<'_>, store: &dyn ConversationStore) -> Result<Prepared> {
    match input {
        Input::Prompt { prompt, id, history } => {
            let id = id.filter(|_| mode.uses_store());
            let opened = match &id {
                Some(id) => conversation::open(store, id).await?,
                None => Opened { history: conversation::history_from_json(&history()?)?, revision: 0 },
            };
            let (run, step) = Run::start(cfg.clone(), kit, opened.history, prompt)?;
            Ok((run, step, id, opened.revision, Claim::None))
        }
        Input::Resume(o) => {
            let given = o.state.is_some();
            let state = Cell::new(o.state);
            let state = || Ok(state.take().unwrap_or_default());
            let history = || conversation::history_from_json(&o.history);
            let args = ResumeArgs { pending: o.pending, state: given.then_some(&state as _), history: &history };
            let r = conversation::resume(mode.uses_store().then_some(store), o.id.as_deref(), args).await?;
            let request = r.pending.id.clone();
            let (run, step) = Run::resume(
                cfg.clone(),
                kit,
                ResumeInput { history: r.history, pending: r.pending, answer: o.answer, children: r.children },
            )?;
            let claim = match r.claim {
                Some(c) => Claim::Store(Box::new(c)),
                None => Claim::Realm(request),
            };
            Ok((run, step, o.id, r.revision, claim))
        }
    }
}
