//! The rules of a stored conversation (`toolnexus_wasm::conversation`) over an in-memory store
//! that checks revisions the way the JS stores do: a new prompt on a halted conversation, the
//! stale-answer conflicts, the choice of what a resume continues from, `discard` with and
//! without `keepHistory`, revisions under concurrent saves, and the operation facade
//! (`toolnexus_wasm::session`) that chooses among them for a client's call.

mod common;
use common::*;
use futures_executor::block_on;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use toolnexus_wasm::conversation::{self, check_revision, ConversationStore, Opened, ResumeArgs, Saver};
use toolnexus_wasm::driver::{aborted, drive, Abort, Env, Persist, Waiter};
use toolnexus_wasm::error::Code;
use toolnexus_wasm::message::Message;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{ResumeInput, Run, RunResult, Status};
use toolnexus_wasm::session::{self, Input, Mode};
use toolnexus_wasm::state::{load_conversation, ConversationState};
use toolnexus_wasm::suspend::{relay_answer, Answer, RelayResult, Request};
use toolnexus_wasm::tool::{ToolResult, Toolkit};
use toolnexus_wasm::Result;

/// Conversations as JSON documents. Each save is checked against what is stored in one step
/// (atomic, as the Web Lock and the Durable Object make it); `slow` yields before that step, as
/// real storage does, so saves started together really overlap.
#[derive(Default)]
struct Mem {
    docs: RefCell<HashMap<String, Value>>,
    slow: bool,
    saved: Cell<usize>,
    /// The bytes of every state saved, as JSON text.
    bytes: Cell<usize>,
}

impl Mem {
    fn slow() -> Self {
        Mem { slow: true, ..Mem::default() }
    }
    fn doc(&self, id: &str) -> Option<Value> {
        self.docs.borrow().get(id).cloned()
    }
    fn state(&self, id: &str) -> ConversationState {
        load_conversation(&self.doc(id).expect("stored")).unwrap().0
    }
}

impl ConversationStore for Mem {
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(async move { Ok(self.doc(id)) })
    }
    fn save<'a>(&'a self, id: &'a str, state: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move {
            if self.slow {
                YieldOnce(false).await;
            }
            let stored = self.docs.borrow().get(id).map(|d| d["revision"].as_u64().unwrap_or(0));
            check_revision(stored, state.revision)?;
            self.docs.borrow_mut().insert(id.to_string(), serde_json::to_value(state).unwrap());
            self.saved.set(self.saved.get() + 1);
            self.bytes.set(self.bytes.get() + state.to_json().len());
            Ok(())
        })
    }
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.docs.borrow_mut().remove(id);
            Ok(())
        })
    }
}

/// One run saved under `id` through a `Saver` starting at `revision`.
fn drive_saved(
    store: &Mem,
    id: &str,
    revision: u64,
    provider: &Scripted,
    tools: &Tools,
    waiter: Option<&dyn Waiter>,
    start: impl FnOnce() -> Result<(Run, toolnexus_wasm::run::Step)>,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let saver = Saver::new(store, id.to_string(), revision);
    let env = Env { waiter, persist: Some(&saver as &dyn Persist), ..Env::new(provider, tools, &ids, &clock) };
    let (run, step) = start()?;
    block_on(drive(run, step, &env))
}

fn kit() -> Vec<toolnexus_wasm::tool::ToolSpec> {
    vec![native("lookup"), relay("click")]
}

fn lookup() -> Tools {
    Tools::default().with("lookup", |_, _| ToolResult::ok("$12"))
}

/// A conversation `id` halted on a relay call (`k2`), with `lookup` (`k1`) already answered.
fn halted(store: &Mem, id: &str, style: Style) -> Request {
    let p = Scripted::new(vec![calls_in(style, &[("k1", "lookup", json!({"q": "mug"})), ("k2", "click", json!({"s": "#buy"}))])]);
    let opened = block_on(conversation::open(store, id)).unwrap();
    let r = drive_saved(store, id, opened.revision, &p, &lookup(), None, || {
        Run::start(config(style), Toolkit::new(kit())?, opened.history, "buy")
    })
    .unwrap();
    assert_eq!(r.status, Status::Pending);
    r.pending.unwrap()
}

fn click_answer(req: &Request) -> Answer {
    relay_answer(&req.id, vec![RelayResult { id: "k2".into(), output: "clicked".into(), is_error: false, parts: vec![] }])
}

fn no_history() -> Result<Vec<Message>> {
    Ok(Vec::new())
}

fn args(pending: Option<Request>) -> ResumeArgs<'static> {
    ResumeArgs { pending, state: None, history: &no_history }
}

/// Resumes `id` from the store with `answer` and drives it to the end.
fn answer_stored(store: &Mem, id: &str, style: Style, answer: Answer, reply: &str) -> Result<RunResult> {
    let r = block_on(conversation::resume(Some(store), Some(id), args(None)))?;
    let p = Scripted::new(vec![text_in(style, reply)]);
    drive_saved(store, id, r.revision, &p, &lookup(), None, || {
        Run::resume(
            config(style),
            Toolkit::new(kit())?,
            ResumeInput { history: r.history, pending: r.pending, answer, children: Vec::new() },
        )
    })
}

#[test]
fn a_new_prompt_on_a_halted_conversation_is_refused_until_it_is_answered() {
    for style in STYLES {
        let store = Mem::default();
        let Opened { history, revision } = block_on(conversation::open(&store, "c1")).unwrap();
        assert!(history.is_empty() && revision == 0, "an unknown id starts empty");
        let req = halted(&store, "c1", style);
        let e = block_on(conversation::open(&store, "c1")).unwrap_err();
        assert_eq!(e.code(), "conversation_halted");
        assert_eq!(
            e.message,
            format!("conversation \"c1\" is halted on request \"{}\": answer it with askWithAnswer, or discard it", req.id)
        );
        let r = answer_stored(&store, "c1", style, click_answer(&req), "bought").unwrap();
        assert_eq!(r.status, Status::Done);
        let opened = block_on(conversation::open(&store, "c1")).unwrap();
        assert_eq!(opened.revision, store.state("c1").revision, "saves continue from the stored revision");
        assert_eq!(
            opened.history.len(),
            r.messages().len() - usize::from(style == Style::OpenAi),
            "the whole transcript, system message aside"
        );
    }
}

#[test]
fn an_answer_for_a_conversation_that_moved_on_is_conflict() {
    let store = Mem::default();
    let req = halted(&store, "c1", Style::OpenAi);
    let stale = Request { id: "pnd-stale".into(), ..req.clone() };
    let e = block_on(conversation::resume(Some(&store), Some("c1"), args(Some(stale)))).unwrap_err();
    assert_eq!(e.code(), "conflict");
    assert_eq!(e.message, format!("stale pending request \"pnd-stale\": conversation \"c1\" is halted on \"{}\"", req.id));
    // The pending the caller names must match; the right one is accepted.
    let ok = block_on(conversation::resume(Some(&store), Some("c1"), args(Some(req.clone())))).unwrap();
    assert_eq!((ok.pending.id.as_str(), ok.revision), (req.id.as_str(), store.state("c1").revision));
    answer_stored(&store, "c1", Style::OpenAi, click_answer(&req), "bought").unwrap();
    // A replay of the same answer after the conversation was resumed.
    let e = answer_stored(&store, "c1", Style::OpenAi, click_answer(&req), "again").unwrap_err();
    assert_eq!(e.code(), "conflict");
    assert_eq!(e.message, "conflict: conversation \"c1\" is no longer halted (already resumed): there is nothing to answer");
}

#[test]
fn a_resume_reads_the_store_then_state_then_history_and_pending() {
    let store = Mem::default();
    let req = halted(&store, "c1", Style::OpenAi);
    let never = || -> Result<Value> { panic!("state is not read when the store is the source") };
    let never_history = || -> Result<Vec<Message>> { panic!("history is not read when the store is the source") };
    let r = block_on(conversation::resume(
        Some(&store),
        Some("c1"),
        ResumeArgs { pending: None, state: Some(&never), history: &never_history },
    ))
    .unwrap();
    assert_eq!(r.pending.id, req.id);
    assert!(r.history.len() >= 3);

    // No conversation under the id.
    let e = block_on(conversation::resume(Some(&store), Some("nope"), args(None))).unwrap_err();
    assert_eq!(e.code(), "bad_state");
    assert!(e.message.contains("no conversation \"nope\" in the store"), "{}", e.message);

    // Without an id: a pending RunResult given as state wins over history + pending.
    let pending_result = json!({"schemaVersion": 1, "status": "pending", "messages": store.doc("c1").unwrap()["messages"], "pending": req});
    let state = || Ok(pending_result.clone());
    let r = block_on(conversation::resume(Some(&store), None, ResumeArgs { pending: None, state: Some(&state), history: &never_history }))
        .unwrap();
    assert_eq!((r.pending.id.as_str(), r.revision), (req.id.as_str(), 0));
    let done = || Ok(json!({"schemaVersion": 1, "status": "done", "messages": []}));
    assert_eq!(
        block_on(conversation::resume(None, None, ResumeArgs { pending: None, state: Some(&done), history: &no_history }))
            .unwrap_err()
            .code(),
        "bad_state"
    );

    // history + pending, read only now.
    let transcript = load_conversation(&store.doc("c1").unwrap()).unwrap().1;
    let len = transcript.len();
    let history = move || Ok(transcript.clone());
    let r = block_on(conversation::resume(None, Some("c1"), ResumeArgs { pending: Some(req.clone()), state: None, history: &history }))
        .unwrap();
    assert_eq!((r.history.len(), r.pending.id.as_str()), (len, req.id.as_str()), "an id without a store is not a source");

    // Nothing to resume from: the message names the call that was made.
    let e = block_on(conversation::resume(Some(&store), None, args(None))).unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        ("bad_input", "askWithAnswer needs a conversation id (or { history, pending } / a pending RunResult as state)")
    );
    let e = block_on(conversation::resume(None, None, args(None))).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("bad_input", "runWithAnswer needs { history, pending } or a pending RunResult as state"));
}

#[test]
fn discard_drops_the_conversation_or_closes_its_halted_turn_as_declined() {
    for style in STYLES {
        let store = Mem::default();
        halted(&store, "gone", style);
        block_on(conversation::discard(&store, "gone", false)).unwrap();
        assert!(store.doc("gone").is_none());
        block_on(conversation::discard(&store, "never", false)).unwrap();

        let req = halted(&store, "kept", style);
        let before = store.state("kept");
        block_on(conversation::discard(&store, "kept", true)).unwrap();
        let (after, transcript) = load_conversation(&store.doc("kept").unwrap()).unwrap();
        assert_eq!(after.revision, before.revision + 1, "the closing save is the next revision");
        assert!(after.pending.is_none() && after.outstanding.is_empty());
        assert!(matches!(transcript.last(), Some(Message::Tool(_))), "a tool turn closes the conversation");
        let outs: Vec<_> =
            transcript.iter().filter_map(|m| if let Message::Tool(o) = m { Some(o.clone()) } else { None }).flatten().collect();
        let out = |id: &str| outs.iter().find(|o| o.call_id == id).unwrap_or_else(|| panic!("{id} has a result"));
        assert_eq!(out("k2").name, "click");
        if style == Style::Anthropic {
            assert!(out("k2").is_error, "the dialect that records it says it is an error");
        }
        assert_eq!(out("k2").output, format!("declined/expired: {}", req.prompt));
        assert_eq!(out("k1").output, "$12", "a call that had its result keeps it");
        assert!(serde_json::to_string(&after.messages).unwrap().contains("$12"));
        // The conversation takes a new prompt again.
        block_on(conversation::open(&store, "kept")).unwrap();

        // Not halted (any more), or unknown: left as it is.
        let doc = store.doc("kept");
        let saved = store.saved.get();
        block_on(conversation::discard(&store, "kept", true)).unwrap();
        block_on(conversation::discard(&store, "unknown", true)).unwrap();
        assert_eq!((store.doc("kept"), store.saved.get()), (doc, saved));
        assert!(store.doc("unknown").is_none());
    }
}

#[test]
fn two_writers_from_one_revision_one_wins_one_conflicts() {
    let store = Mem::slow();
    let req = halted(&store, "race", Style::OpenAi);
    let from = store.state("race");
    // Both load the halted conversation before either saves.
    let a = block_on(conversation::resume(Some(&store), Some("race"), args(None))).unwrap();
    let b = block_on(conversation::resume(Some(&store), Some("race"), args(None))).unwrap();
    assert_eq!(a.revision, b.revision);
    let (sa, sb) = (Saver::new(&store, "race".into(), a.revision), Saver::new(&store, "race".into(), b.revision));
    let closed = ConversationState::new(Style::OpenAi, &a.history, Some(a.pending.clone()));
    let (ra, rb) = block_on(futures_util::future::join(sa.save(closed.clone()), sb.save(closed)));
    let outcomes = [ra.map_err(|e| e.code()), rb.map_err(|e| e.code())];
    assert_eq!(outcomes, [Ok(()), Err("conflict")]);
    assert_eq!(store.state("race").revision, from.revision + 1);
    assert_eq!((sa.revision(), sb.revision()), (from.revision + 1, from.revision), "the loser's revision did not move");
    drop(req);

    // Whole runs: two resumes of one request that both loaded it; the one that saves second loses.
    let req = halted(&store, "runs", Style::OpenAi);
    let a = block_on(conversation::resume(Some(&store), Some("runs"), args(None))).unwrap();
    let b = block_on(conversation::resume(Some(&store), Some("runs"), args(None))).unwrap();
    let finish = |r: conversation::Resumable, reply: &str| {
        let p = Scripted::new(vec![text_in(Style::OpenAi, reply)]);
        drive_saved(&store, "runs", r.revision, &p, &lookup(), None, || {
            Run::resume(
                config(Style::OpenAi),
                Toolkit::new(kit())?,
                ResumeInput { history: r.history, pending: r.pending, answer: click_answer(&req), children: Vec::new() },
            )
        })
    };
    assert_eq!(finish(a, "first").unwrap().status, Status::Done);
    assert_eq!(finish(b, "second").unwrap_err().code(), "conflict");
    assert!(store.doc("runs").unwrap().to_string().contains("first") && !store.doc("runs").unwrap().to_string().contains("second"));
}

#[test]
fn saves_of_one_run_carry_consecutive_revisions() {
    let store = Mem::default();
    let saver = Saver::new(&store, "s".into(), 0);
    for n in 1..=3 {
        block_on(saver.save(ConversationState::new(Style::Anthropic, &[], None))).unwrap();
        assert_eq!((saver.revision(), store.state("s").revision), (n, n));
    }
    // A saver that starts from an old revision cannot overwrite the newer state.
    let stale = Saver::new(&store, "s".into(), 1);
    assert_eq!(block_on(stale.save(ConversationState::new(Style::Anthropic, &[], None))).unwrap_err().code(), "conflict");
    assert_eq!(store.state("s").revision, 3);
}

#[test]
fn two_calls_suspended_in_one_turn_checkpoint_twice_without_conflicting() {
    for style in STYLES {
        let store = Mem::slow();
        let p = Scripted::new(vec![
            calls_in(style, &[("c1", "click", json!({"s": "#a"})), ("c2", "click", json!({"s": "#b"}))]),
            text_in(style, "clicked both"),
        ]);
        let w = Wait::new(|r| {
            let id = r.data.as_ref().unwrap()["calls"][0]["id"].as_str().unwrap().to_string();
            ok_answer(r, json!({"results": [{"id": id, "output": format!("clicked {id}"), "isError": false}]}))
        });
        let r = drive_saved(&store, "two", 0, &p, &Tools::default(), Some(&*w), || {
            Run::start(config(style), Toolkit::new(vec![relay("click")])?, vec![], "click both")
        })
        .expect("no save conflicts with another save of the same run");
        assert_eq!(r.status, Status::Done);
        assert_eq!(w.seen.borrow().len(), 2, "both calls suspended");
        let last = store.state("two");
        assert_eq!(last.revision as usize, store.saved.get(), "every save was the next revision");
        assert!(store.saved.get() >= 3, "two checkpoints before waiting, then the turn and the end");
        assert!(last.pending.is_none());
    }
}

/// N relay calls suspended in one turn and answered in-process, with a checking store: the saves
/// never conflict with each other, and they are coalesced, so the bytes saved grow linearly
/// with N (one save per call would grow with N², each save holding every call).
#[test]
fn a_turn_of_n_suspended_calls_saves_linear_bytes_without_conflicting() {
    let mut per_call = Vec::new();
    for n in [1usize, 10, 100, 1000] {
        let store = Mem::slow();
        let calls: Vec<(String, &str, Value)> = (0..n).map(|i| (format!("c{i}"), "click", json!({"s": i}))).collect();
        let refs: Vec<(&str, &str, Value)> = calls.iter().map(|(id, name, a)| (id.as_str(), *name, a.clone())).collect();
        let p = Scripted::new(vec![calls_in(Style::OpenAi, &refs), text_in(Style::OpenAi, "clicked them all")]);
        let w = Wait::new(|r| {
            let id = r.data.as_ref().unwrap()["calls"][0]["id"].as_str().unwrap().to_string();
            ok_answer(r, json!({"results": [{"id": id, "output": "ok", "isError": false}]}))
        });
        let r = drive_saved(&store, "many", 0, &p, &Tools::default(), Some(&*w), || {
            Run::start(config(Style::OpenAi), Toolkit::new(vec![relay("click")])?, vec![], "click them all")
        })
        .expect("no save conflicts with another save of the same run");
        assert_eq!(r.status, Status::Done);
        assert_eq!(w.seen.borrow().len(), n);
        assert_eq!(store.state("many").revision as usize, store.saved.get(), "every save was the next revision");
        assert!(store.saved.get() <= 6, "{n} calls: {} saves, not one per call", store.saved.get());
        per_call.push(store.bytes.get() / n);
    }
    // Bytes per call stay flat (within a factor of 3 from 10 to 1,000 calls), not growing with N.
    assert!(per_call[3] <= per_call[1] * 3, "bytes saved per call: {per_call:?}");
}

// The facade a client operation calls (`session::run`): the mode decides whether the store is
// used, a prompt continues the stored conversation or the given history, a resume answers the
// stored conversation, a given state, or a given history and request.

/// One operation through `session::run` in the OpenAI style, with `kit()` and `lookup()`.
fn operate(
    store: &dyn ConversationStore,
    mode: Mode,
    input: Input<'_>,
    replies: Vec<Value>,
    abort: Option<&dyn Abort>,
) -> Result<RunResult> {
    let (ids, clock, tools, provider) = (ids(), tick(), lookup(), Scripted::new(replies));
    let env = Env { abort, ..Env::new(&provider, &tools, &ids, &clock) };
    block_on(session::run(&config(Style::OpenAi), mode, Toolkit::new(kit())?, input, store, &env))
}

fn prompt<'a>(text: &str, id: Option<&str>, history: &'a dyn Fn() -> Result<Value>) -> Input<'a> {
    Input::Prompt { prompt: text.into(), id: id.map(str::to_string), history }
}

fn unread() -> Result<Value> {
    panic!("the history is not read beside a stored conversation")
}

#[test]
fn a_prompt_keeps_its_conversation_only_when_the_mode_does() {
    let store = Mem::default();
    let buy = || calls_in(Style::OpenAi, &[("k1", "lookup", json!({}))]);
    let said = json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]);
    let given = || Ok(said.clone());
    // `run` never touches the store: the id is not read, the given history is continued.
    let r = operate(&store, Mode::Run, prompt("buy", Some("c1"), &given), vec![buy(), text_in(Style::OpenAi, "$12")], None).unwrap();
    assert_eq!((r.status, store.saved.get(), store.doc("c1")), (Status::Done, 0, None));
    assert!(r.messages().iter().any(|m| m["content"] == "hello"), "the given history is continued");
    // `ask` and `stream` open the conversation and save every turn at the next revision.
    for (mode, id) in [(Mode::Ask, "a"), (Mode::Stream, "s")] {
        let r = operate(&store, mode, prompt("buy", Some(id), &unread), vec![buy(), text_in(Style::OpenAi, "$12")], None).unwrap();
        assert_eq!(r.status, Status::Done);
        let first = store.state(id).revision;
        assert!(first >= 2, "a save per completed turn");
        let r = operate(&store, mode, prompt("again", Some(id), &unread), vec![text_in(Style::OpenAi, "still $12")], None).unwrap();
        assert!(r.messages().iter().any(|m| m["content"] == "$12"), "the stored transcript is continued");
        assert!(store.state(id).revision > first, "saves continue from the stored revision");
    }
    // `stream` without an id keeps nothing and reads the given history.
    let saved = store.saved.get();
    operate(&store, Mode::Stream, prompt("hi", None, &given), vec![text_in(Style::OpenAi, "yes")], None).unwrap();
    assert_eq!(store.saved.get(), saved);
    // A refused history is refused before any model call.
    let bad = || Ok(json!({"role": "user"}));
    let e = operate(&store, Mode::Run, prompt("hi", None, &bad), vec![], None).unwrap_err();
    assert_eq!(e.message, "history must be an array of messages");
}

#[test]
fn a_resume_answers_what_its_mode_and_options_name() {
    let store = Mem::default();
    let req = halted(&store, "c1", Style::OpenAi);
    // A new prompt on the halted conversation is refused, whatever mode keeps it.
    for mode in [Mode::Ask, Mode::Stream] {
        let e = operate(&store, mode, prompt("more", Some("c1"), &unread), vec![], None).unwrap_err();
        assert_eq!(e.code(), "conversation_halted");
    }
    let answer = serde_json::to_string(&click_answer(&req)).unwrap();
    let resume = |mode, extra: &str| Input::resume(&format!(r#"{{"answer":{answer}{extra}}}"#), mode);
    assert_eq!(resume(Mode::Ask, "").err().unwrap().message, "toolnexus: AskWithAnswer needs a conversation id");
    // `runWithAnswer` does not read the id: it needs history + pending or a state.
    let e = operate(&store, Mode::Run, resume(Mode::Run, r#","id":"c1""#).unwrap(), vec![], None).unwrap_err();
    assert_eq!(e.message, "runWithAnswer needs { history, pending } or a pending RunResult as state");
    let doc = store.doc("c1").unwrap();
    let with_history = format!(r#","id":"c1","history":{},"pending":{}"#, doc["messages"], serde_json::to_string(&req).unwrap());
    let r = operate(&store, Mode::Run, resume(Mode::Run, &with_history).unwrap(), vec![text_in(Style::OpenAi, "bought")], None).unwrap();
    assert_eq!((r.status, store.doc("c1")), (Status::Done, Some(doc.clone())), "the store is left as it was");
    // `askWithAnswer` answers the stored conversation and saves it; a replay is `conflict`.
    let r = operate(&store, Mode::Ask, resume(Mode::Ask, r#","id":"c1""#).unwrap(), vec![text_in(Style::OpenAi, "bought")], None).unwrap();
    assert_eq!(r.status, Status::Done);
    let state = store.state("c1");
    assert!(state.pending.is_none() && state.revision > doc["revision"].as_u64().unwrap());
    let e = operate(&store, Mode::Stream, resume(Mode::Stream, r#","id":"c1""#).unwrap(), vec![], None).unwrap_err();
    assert_eq!(e.code(), "conflict");
}

/// A store whose every call fails, as a JS store's call does when the run's abort settles it.
struct Failing;

impl ConversationStore for Failing {
    fn get<'a>(&'a self, _: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(async { Err(toolnexus_wasm::Error::new(Code::Store, "store.get failed: aborted")) })
    }
    fn save<'a>(&'a self, _: &'a str, _: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async { Err(toolnexus_wasm::Error::new(Code::Store, "store.save failed")) })
    }
    fn delete<'a>(&'a self, _: &'a str) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async { Ok(()) })
    }
}

/// A run aborted by its deadline before it began.
struct TimedOut;

impl Abort for TimedOut {
    fn aborted(&self) -> Option<toolnexus_wasm::Error> {
        Some(aborted(true, Some(50.0)))
    }
    fn wait(&self) -> LocalBoxFuture<'_, toolnexus_wasm::Error> {
        Box::pin(async { aborted(true, Some(50.0)) })
    }
}

#[test]
fn a_failure_while_preparing_an_aborted_run_reports_the_abort() {
    let e = operate(&Failing, Mode::Ask, prompt("hi", Some("c1"), &unread), vec![], None).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("store", "store.get failed: aborted"));
    let e = operate(&Failing, Mode::Ask, prompt("hi", Some("c1"), &unread), vec![], Some(&TimedOut)).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("aborted", "run timeout after 50ms"));
    let resume = Input::resume(r#"{"id":"c1","answer":{"id":"r1","ok":true}}"#, Mode::Ask).unwrap();
    let e = operate(&Failing, Mode::Ask, resume, vec![], Some(&TimedOut)).unwrap_err();
    assert_eq!(e.code(), "aborted");
}
