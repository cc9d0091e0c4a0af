//! Persistence (contract Part 1 rules 8, 9, 11): what is saved when, a host that dies while a
//! relay wait is outstanding, stored states that are corrupt or hand-edited, and conversations
//! that change provider style.

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::RefCell;
use toolnexus_wasm::dialect;
use toolnexus_wasm::driver::Waiter;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::Status;
use toolnexus_wasm::state::load_conversation;
use toolnexus_wasm::suspend::{relay_answer, Answer, RelayResult, Request};
use toolnexus_wasm::tool::ToolResult;
use toolnexus_wasm::{Code, Error};

/// A waitFor whose host "dies": it records what the store held at that moment and fails.
struct Dies<'a>(&'a Host, RefCell<Option<usize>>);
impl Waiter for Dies<'_> {
    fn wait(&self, _req: Request) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<Answer>>> {
        *self.1.borrow_mut() = Some(self.0.saves.borrow().len());
        Box::pin(async { Err(Error::new(Code::Aborted, "service worker stopped")) })
    }
}

fn mixed(style: Style) -> Value {
    calls_in(style, &[("k1", "lookup", json!({"q": "mug"})), ("k2", "click", json!({"s": "#buy"}))])
}

fn final_text(style: Style, t: &str) -> Value {
    text_in(style, t)
}

#[test]
fn state_is_saved_before_waiting_after_each_turn_and_at_the_end() {
    for style in STYLES {
        let p = Scripted::new(vec![mixed(style), final_text(style, "bought")]);
        let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("$12"));
        let w = Wait::new(|r| {
            relay_answer(&r.id, vec![RelayResult { id: "k2".into(), output: "clicked".into(), is_error: false, parts: vec![] }])
        });
        let host = Host::default();
        let r = run_full(style, false, vec![native("lookup"), relay("click")], &p, &tools, Some(&*w), &host, vec![], "buy").unwrap();
        assert_eq!(r.status, Status::Done);
        let saves = host.saves.borrow();
        assert_eq!(saves.len(), 3, "before waitFor, after the tool turn, at the end");
        let before = &saves[0];
        assert_eq!(before.pending.as_ref().unwrap().id, w.seen.borrow()[0].id, "saved before waitFor saw the request");
        assert_eq!(before.outstanding.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(), ["k2"]);
        assert!(serde_json::to_string(&before.messages).unwrap().contains("$12"), "the completed call is kept");
        assert!(saves[1].pending.is_none() && balanced(&saves[1].messages));
        assert_eq!(saves[2].messages.len(), r.messages().len());
        for s in saves.iter() {
            load_conversation(&serde_json::to_value(s).unwrap()).expect("every save loads");
        }
        // pending is announced before waitFor is called
        let kinds = host.kinds();
        assert!(kinds.iter().position(|k| k == "pending").unwrap() < kinds.iter().position(|k| k == "tool_result").unwrap());
    }
}

#[test]
fn a_host_that_dies_while_a_relay_call_is_parked_resumes_from_the_store_and_loses_nothing() {
    for style in STYLES {
        let p = Scripted::new(vec![mixed(style)]);
        let lookups = std::rc::Rc::new(std::cell::Cell::new(0));
        let l = lookups.clone();
        let tools = Tools::default().with("lookup", move |_, _| {
            l.set(l.get() + 1);
            ToolResult::ok("$12")
        });
        let host = Host::default();
        let dies = Dies(&host, RefCell::new(None));
        let err =
            run_full(style, false, vec![native("lookup"), relay("click")], &p, &tools, Some(&dies), &host, vec![], "buy").unwrap_err();
        assert_eq!(err.code(), "aborted");
        let saved_at_wait = dies.1.borrow().unwrap();
        assert_eq!(saved_at_wait, 1, "one save had happened when waitFor was called");
        // a new process: only the stored JSON survives
        let stored = serde_json::to_string(&host.saves.borrow()[0]).unwrap();
        let (state, transcript) = load_conversation(&serde_json::from_str(&stored).unwrap()).unwrap();
        let pending = state.pending.unwrap();
        let calls = pending.relay_calls();
        assert_eq!(calls.len(), 1);
        let answer = relay_answer(
            &pending.id,
            vec![RelayResult { id: calls[0].id.clone(), output: "clicked after restart".into(), is_error: false, parts: vec![] }],
        );
        let p2 = Scripted::new(vec![final_text(style, "done")]);
        let host2 = Host::default();
        let r =
            resume_full(style, false, vec![native("lookup"), relay("click")], &p2, &tools, &host2, transcript, pending, answer).unwrap();
        assert_eq!(r.status, Status::Done);
        assert_eq!(lookups.get(), 1, "the completed lookup is not re-run");
        let sent = serde_json::to_string(&msgs_of(&p2.bodies()[0])).unwrap();
        assert!(sent.contains("$12") && sent.contains("clicked after restart"), "{sent}");
        assert!(balanced(msgs_of(&p2.bodies()[0]).as_array().unwrap()));
    }
}

#[test]
fn a_durable_halt_saves_the_pending_request_and_outstanding_calls() {
    let p = Scripted::new(vec![mixed(Style::OpenAi)]);
    let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("$12"));
    let host = Host::default();
    let r = run_full(Style::OpenAi, false, vec![native("lookup"), relay("click")], &p, &tools, None, &host, vec![], "buy").unwrap();
    assert_eq!(r.status, Status::Pending);
    let last = host.saves.borrow().last().cloned().unwrap();
    assert_eq!(last.pending, r.pending);
    assert_eq!(last.outstanding.len(), 1);
    assert_eq!(host.kinds(), ["tool_call", "tool_call", "tool_result", "pending", "done"]);
}

#[test]
fn a_conversation_continues_under_the_other_style_with_its_tool_turns_converted() {
    let p = Scripted::new(vec![mixed(Style::OpenAi), oa_text("bought")]);
    let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("$12"));
    let w =
        Wait::new(|r| relay_answer(&r.id, vec![RelayResult { id: "k2".into(), output: "clicked".into(), is_error: false, parts: vec![] }]));
    let host = Host::default();
    run_full(Style::OpenAi, false, vec![native("lookup"), relay("click")], &p, &tools, Some(&*w), &host, vec![], "buy").unwrap();
    let stored = host.saves.borrow().last().cloned().unwrap();
    assert_eq!(serde_json::to_value(stored.style).unwrap(), "openai");
    let (_, transcript) = load_conversation(&serde_json::to_value(&stored).unwrap()).unwrap();
    let p2 = Scripted::new(vec![an_text("and again")]);
    let host2 = Host::default();
    let r = run_full(Style::Anthropic, false, vec![native("lookup"), relay("click")], &p2, &tools, None, &host2, transcript, "once more")
        .unwrap();
    let body = &p2.bodies()[0];
    assert_eq!(body["system"], "You are terse.", "the OpenAI system message becomes Anthropic's system field");
    assert_eq!(body["messages"][1]["content"][1], json!({"type": "tool_use", "id": "k2", "name": "click", "input": {"s": "#buy"}}));
    assert_eq!(body["messages"][2]["content"][1]["type"], "tool_result");
    assert!(balanced(body["messages"].as_array().unwrap()));
    assert_eq!(serde_json::to_value(host2.saves.borrow().last().unwrap().style).unwrap(), "anthropic");
    assert_eq!(r.status, Status::Done);
}

#[test]
fn stored_states_that_are_corrupt_truncated_unknown_or_unbalanced_are_refused() {
    let p = Scripted::new(vec![mixed(Style::OpenAi)]);
    let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("$12"));
    let host = Host::default();
    run_full(Style::OpenAi, false, vec![native("lookup"), relay("click")], &p, &tools, None, &host, vec![], "buy").unwrap();
    let good = serde_json::to_value(host.saves.borrow().last().unwrap()).unwrap();
    load_conversation(&good).unwrap();
    let text = good.to_string();
    for cut in [1, text.len() / 2, text.len() - 1] {
        assert!(serde_json::from_str::<Value>(&text[..cut]).is_err(), "a truncated document is not JSON");
    }
    let mut cases = vec![];
    let mut v = good.clone();
    v["schemaVersion"] = json!(toolnexus_wasm::run::MAX_SCHEMA_VERSION + 1);
    cases.push(("unknown version", v));
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("schemaVersion");
    cases.push(("no version", v));
    let mut v = good.clone();
    v["style"] = json!("cohere");
    cases.push(("unknown style", v));
    let mut v = good.clone();
    v["messages"] = json!("lots");
    cases.push(("messages not an array", v));
    let mut v = good.clone();
    v["messages"][1]["role"] = json!("robot");
    cases.push(("corrupt message", v));
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("pending");
    cases.push(("unbalanced turn, nothing pending", v));
    let mut v = good.clone();
    v["messages"].as_array_mut().unwrap().push(json!({"role": "tool", "tool_call_id": "k2", "content": "x"}));
    cases.push(("pending but nothing waiting", v));
    cases.push(("not an object", json!([1, 2])));
    for (what, v) in cases {
        assert_eq!(load_conversation(&v).unwrap_err().code(), "bad_state", "{what}");
    }
    // the transcript of a good state reads back to the same neutral messages
    let (_, transcript) = load_conversation(&good).unwrap();
    assert_eq!(dialect::render(&transcript, Style::OpenAi), good["messages"].as_array().unwrap().clone());
}
