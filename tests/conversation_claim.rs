//! One claim before any resume runs anything (docs/decisions/resume-claim.md): two resumes of
//! one halted conversation started together, over a checking store whose calls really overlap,
//! run the answered tool once; the other gets `conflict` before anything of its own ran. A claim
//! a crash left behind refuses resumes and prompts until `discard` closes the turn as
//! interrupted. A caller-held state answered twice at once in one realm is refused the second time.

mod common;
use common::*;
use futures_executor::block_on;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use toolnexus_wasm::conversation::{self, check_revision, ConversationStore};
use toolnexus_wasm::driver::Env;
use toolnexus_wasm::error::Code;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::session::{self, Input, Mode};
use toolnexus_wasm::state::{load_conversation, ConversationState};
use toolnexus_wasm::suspend::{pending_result, relay_answer, IdGen, RelayResult, Request};
use toolnexus_wasm::tool::{ToolResult, Toolkit};
use toolnexus_wasm::Result;

/// Conversations as JSON documents, every call yielding first (as real storage does) so two
/// operations started together interleave; the read-check-write of a save is one step. `fail_at`
/// makes that save (1-based) fail, as a crash would leave it.
#[derive(Default)]
struct Slow {
    docs: RefCell<HashMap<String, Value>>,
    saves: Cell<usize>,
    fail_at: Cell<usize>,
}

impl Slow {
    fn state(&self, id: &str) -> ConversationState {
        load_conversation(self.docs.borrow().get(id).expect("stored")).unwrap().0
    }
}

impl ConversationStore for Slow {
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(async move {
            YieldOnce(false).await;
            Ok(self.docs.borrow().get(id).cloned())
        })
    }
    fn save<'a>(&'a self, id: &'a str, state: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move {
            YieldOnce(false).await;
            self.saves.set(self.saves.get() + 1);
            if self.saves.get() == self.fail_at.get() {
                return Err(toolnexus_wasm::Error::new(Code::Store, "store.save failed: the worker died"));
            }
            let stored = self.docs.borrow().get(id).map(|d| d["revision"].as_u64().unwrap_or(0));
            check_revision(stored, state.revision)?;
            self.docs.borrow_mut().insert(id.to_string(), serde_json::to_value(state).unwrap());
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

/// `pay` asks for approval (a `pending()` suspension, as `needsApproval` and an MCP question
/// are) and pays once answered; `lookup` answers at once; `click` is a relay tool.
fn tools() -> Tools {
    let ids = ids();
    // `pay` yields before it pays, so a resume started beside another is still running.
    let tools = Tools { delays: vec![("pay".into(), 2)], ..Tools::default() };
    tools.with("lookup", |_, _| ToolResult::ok("$12")).with("pay", move |_, answer| match answer {
        None => pending_result(Request { kind: "approval".into(), prompt: "Pay $12?".into(), ..Request::default() }, &ids),
        Some(_) => ToolResult::ok("paid"),
    })
}

fn kit() -> Result<Toolkit> {
    Toolkit::new(vec![native("lookup"), native("pay"), relay("click")])
}

/// One operation through `session::run` in the OpenAI style over `store`, with its own tools
/// (returned, to count what ran) and provider.
async fn operate(store: &Slow, ids: &IdGen, mode: Mode, input: Input<'_>, replies: Vec<Value>) -> (Result<RunResult>, Tools, Scripted) {
    let (clock, tools, provider) = (tick(), tools(), Scripted::new(replies));
    let r = {
        let env = Env::new(&provider, &tools, ids, &clock);
        session::run(&config(Style::OpenAi), mode, kit().unwrap(), input, store, &env).await
    };
    (r, tools, provider)
}

/// Conversation `id` halted on a call of `tool`: the request it waits on.
fn halt(store: &Slow, ids: &IdGen, id: &str, tool: &str) -> Request {
    let calls = calls_in(Style::OpenAi, &[("k1", tool, json!({"amount": 12}))]);
    let input = Input::Prompt { prompt: "buy".into(), id: Some(id.into()), history: &|| Ok(Value::Null) };
    let (r, _, _) = block_on(operate(store, ids, Mode::Ask, input, vec![calls]));
    let r = r.unwrap();
    assert_eq!(r.status, Status::Pending);
    r.pending.unwrap()
}

fn answer_for(req: &Request) -> String {
    let answer = if req.is_relay() {
        relay_answer(&req.id, vec![RelayResult { id: "k1".into(), output: "clicked".into(), is_error: false, parts: vec![] }])
    } else {
        ok_answer(req, json!({}))
    };
    serde_json::to_string(&answer).unwrap()
}

/// The calls of `tool` that ran with an answer (the answered run, not the first that suspended).
fn answered_runs(t: &Tools, tool: &str) -> usize {
    t.calls.borrow().iter().filter(|(n, _, a)| n == tool && a.is_some()).count()
}

#[test]
fn two_resumes_of_one_halted_conversation_run_its_tool_once() {
    for (tool, mode) in [("pay", Mode::Ask), ("pay", Mode::Stream), ("click", Mode::Ask), ("click", Mode::Stream)] {
        let (store, ids) = (Slow::default(), ids());
        let req = halt(&store, &ids, "c1", tool);
        let halted_at = store.state("c1").revision;
        let text = format!(r#"{{"id":"c1","answer":{}}}"#, answer_for(&req));
        let one = operate(&store, &ids, mode, Input::resume(&text, mode).unwrap(), vec![text_in(Style::OpenAi, "done")]);
        let two = operate(&store, &ids, mode, Input::resume(&text, mode).unwrap(), vec![text_in(Style::OpenAi, "done")]);
        let ((r1, t1, p1), (r2, t2, p2)) = block_on(futures_util::future::join(one, two));
        let (won, lost) = match (&r1, &r2) {
            (Ok(_), Err(_)) => ((&r1, &t1, &p1), (&r2, &t2, &p2)),
            (Err(_), Ok(_)) => ((&r2, &t2, &p2), (&r1, &t1, &p1)),
            _ => panic!("{tool} {mode:?}: exactly one resume wins: {r1:?} / {r2:?}"),
        };
        assert_eq!(won.0.as_ref().unwrap().status, Status::Done);
        let e = lost.0.as_ref().unwrap_err();
        assert_eq!(e.code(), "conflict", "{tool} {mode:?}: {}", e.message);
        assert!(lost.1.calls.borrow().is_empty(), "{tool}: the loser ran no tool");
        assert!(lost.2.bodies().is_empty(), "{tool}: the loser called no model");
        if tool == "pay" {
            assert_eq!(answered_runs(won.1, "pay"), 1, "the approved tool ran once");
        }
        assert_eq!(won.2.bodies().len(), 1);
        let end = store.state("c1");
        assert!(end.pending.is_none() && end.claimed.is_none(), "the winner's turn replaced its claim");
        assert!(end.revision >= halted_at + 2, "the claim took a revision of its own");
    }
}

#[test]
fn a_claim_left_behind_refuses_until_discard_closes_the_turn_as_interrupted() {
    let (store, ids) = (Slow::default(), ids());
    let req = halt(&store, &ids, "c1", "pay");
    // The save after the claim (the tool's turn) never lands: the worker died after `pay` ran.
    store.fail_at.set(store.saves.get() + 2);
    let text = format!(r#"{{"id":"c1","answer":{}}}"#, answer_for(&req));
    let (r, t, _) = block_on(operate(&store, &ids, Mode::Ask, Input::resume(&text, Mode::Ask).unwrap(), vec![]));
    assert_eq!(r.unwrap_err().code(), "store");
    assert_eq!(answered_runs(&t, "pay"), 1);
    assert_eq!(store.state("c1").claimed.as_deref(), Some(req.id.as_str()), "the claim stays");
    // A retry would pay twice: refused, with the way out named; so is a new prompt.
    let (r, t, _) = block_on(operate(&store, &ids, Mode::Ask, Input::resume(&text, Mode::Ask).unwrap(), vec![]));
    let e = r.unwrap_err();
    assert_eq!(e.code(), "conflict");
    assert!(e.message.contains("discard(id, { keepHistory: true })"), "{}", e.message);
    assert!(t.calls.borrow().is_empty());
    let input = Input::Prompt { prompt: "again".into(), id: Some("c1".into()), history: &|| Ok(Value::Null) };
    let (r, _, _) = block_on(operate(&store, &ids, Mode::Ask, input, vec![]));
    let e = r.unwrap_err();
    assert_eq!(e.code(), "conversation_halted");
    assert!(e.message.contains("being resumed"), "{}", e.message);
    // `discard` with its history closes the turn as interrupted (not declined: it may have run).
    block_on(conversation::discard(&store, "c1", true)).unwrap();
    let closed = store.state("c1");
    assert!(closed.pending.is_none() && closed.claimed.is_none());
    let last = closed.messages.last().unwrap().to_string();
    assert!(last.contains("interrupted") && last.contains("may or may not have run"), "{last}");
    let input = Input::Prompt { prompt: "again".into(), id: Some("c1".into()), history: &|| Ok(Value::Null) };
    let (r, _, _) = block_on(operate(&store, &ids, Mode::Ask, input, vec![text_in(Style::OpenAi, "ok")]));
    assert_eq!(r.unwrap().status, Status::Done, "the conversation goes on");
}

#[test]
fn a_state_the_caller_holds_is_answered_by_one_resume_at_a_time_per_realm() {
    let (store, ids) = (Slow::default(), ids());
    let calls = calls_in(Style::OpenAi, &[("k1", "pay", json!({}))]);
    let input = Input::Prompt { prompt: "buy".into(), id: None, history: &|| Ok(Value::Null) };
    let (r, _, _) = block_on(operate(&store, &ids, Mode::Run, input, vec![calls]));
    let state = r.unwrap();
    let req = state.pending.clone().unwrap();
    let state = state.to_json();
    let text = format!(r#"{{"state":{state},"answer":{}}}"#, answer_for(&req));
    let one = operate(&store, &ids, Mode::Run, Input::resume(&text, Mode::Run).unwrap(), vec![text_in(Style::OpenAi, "done")]);
    let two = operate(&store, &ids, Mode::Run, Input::resume(&text, Mode::Run).unwrap(), vec![text_in(Style::OpenAi, "done")]);
    let ((r1, t1, _), (r2, t2, _)) = block_on(futures_util::future::join(one, two));
    assert_eq!(r1.unwrap().status, Status::Done);
    let e = r2.unwrap_err();
    assert_eq!(e.code(), "conflict", "{}", e.message);
    assert_eq!(answered_runs(&t1, "pay") + answered_runs(&t2, "pay"), 1);
    // Held only while its run lasts: the caller may answer its value again later (a second
    // opinion, a retry), which no store can tell from a replay. A wrong answer claims nothing.
    let bad = format!(r#"{{"state":{state},"answer":{{"id":"nope","ok":true}}}}"#);
    let (r, _, _) = block_on(operate(&store, &ids, Mode::Run, Input::resume(&bad, Mode::Run).unwrap(), vec![]));
    assert_eq!(r.unwrap_err().code(), "answer_mismatch");
    let (r, _, _) =
        block_on(operate(&store, &ids, Mode::Run, Input::resume(&text, Mode::Run).unwrap(), vec![text_in(Style::OpenAi, "again")]));
    assert_eq!(r.unwrap().status, Status::Done, "released when the first run ended");
    assert_eq!(store.saves.get(), 0, "runWithAnswer never touches the store");
}
