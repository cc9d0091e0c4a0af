//! Durable halt and `runWithAnswer` (contract Part 1 rules 6 and 7, §c.2, §c.5 with D-1..D-4).

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{auth_required, pending_result, relay_answer, Answer, RelayResult, Request};
use toolnexus_wasm::tool::ToolResult;

fn three_clicks(style: Style) -> Value {
    match style {
        Style::OpenAi => oa_calls(&[("c1", "click", "{\"s\": \"#a\"}"), ("c2", "click", "{\"s\":\"#b\"}"), ("c3", "click", "")]),
        _ => calls_in(style, &[("c1", "click", json!({"s": "#a"})), ("c2", "click", json!({"s": "#b"})), ("c3", "click", json!({}))]),
    }
}

fn final_text(style: Style, t: &str) -> Value {
    text_in(style, t)
}

/// Halts, goes through JSON text like a host storing it, and comes back as a state.
fn through_json(r: &RunResult) -> (Vec<Value>, Request) {
    let text = r.to_json();
    let h = state::load(&serde_json::from_str(&text).unwrap()).unwrap();
    (h.messages, h.pending)
}

#[test]
fn three_relay_calls_halt_as_one_request_and_resume_by_id_in_both_styles() {
    for style in STYLES {
        let p = Scripted::new(vec![three_clicks(style)]);
        let r = run(style, vec![relay("click")], &p, &Tools::default(), None, &[], "click three").unwrap();
        assert_eq!(r.status, Status::Pending);
        let pending = r.pending.clone().unwrap();
        assert_eq!(pending.kind, "tool_call");
        assert_eq!(r.text, "relay tool call click to the caller for execution");
        let calls = pending.relay_calls();
        assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c1", "c2", "c3"]);
        if style == Style::OpenAi {
            assert_eq!(calls[0].arguments, "{\"s\": \"#a\"}", "the provider's raw string");
            assert_eq!(calls[2].arguments, "{}");
        } else {
            assert_eq!(calls[0].arguments, "{\"s\":\"#a\"}", "serialised input");
        }
        assert_eq!(calls[1].input, json!({"s": "#b"}));
        assert_eq!(r.tool_calls.len(), 3);
        assert!(r.tool_calls.iter().all(|c| c.metadata.as_ref().unwrap().contains_key("pending")));

        // A brand-new process: only JSON survives.
        let (history, pending) = through_json(&r);
        let answer = relay_answer(
            &pending.id,
            vec![
                RelayResult { id: "c3".into(), output: "C".into(), is_error: false, parts: vec![] },
                RelayResult { id: "c1".into(), output: "A".into(), is_error: false, parts: vec![] },
                RelayResult { id: "c2".into(), output: "no such element".into(), is_error: true, parts: vec![] },
            ],
        );
        let p2 = Scripted::new(vec![final_text(style, "all clicked")]);
        let out = resume(style, vec![relay("click")], &p2, &Tools::default(), None, &history, pending, answer).unwrap();
        assert_eq!(out.status, Status::Done);
        assert_eq!(out.text, "all clicked");
        assert_eq!(out.turns, 1, "counts the resumed segment only");
        assert!(out.tool_calls.is_empty(), "answered relay results are not new tool calls");
        let sent = msgs_of(&p2.bodies()[0]).as_array().unwrap().clone();
        assert!(balanced(&sent), "{sent:#?}");
        let users = sent.iter().filter(|m| m["role"] == "user" && (m["content"].is_string() || m["parts"][0]["text"].is_string())).count();
        assert_eq!(users, 1, "no new user turn");
        assert!(balanced(&out.messages()));
        let dump = serde_json::to_string(&sent).unwrap();
        assert!(dump.find("\"A\"").unwrap() < dump.find("no such element").unwrap());
    }
}

#[test]
fn a_real_tool_beside_a_declined_relay_keeps_its_result() {
    for style in STYLES {
        let first = calls_in(style, &[("r1", "lookup", json!({})), ("r2", "click", json!({})), ("r3", "lookup", json!({}))]);
        let p = Scripted::new(vec![first]);
        let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("42"));
        let kit = || vec![native("lookup"), relay("click")];
        let r = run(style, kit(), &p, &tools, None, &[], "mixed").unwrap();
        assert_eq!(r.status, Status::Pending);
        assert_eq!(tools.calls.borrow().len(), 2, "the real tools ran, before and after the relay call");
        let (history, pending) = through_json(&r);
        let answer = Answer { id: pending.id.clone(), ok: false, data: None, reason: Some("declined".into()) };
        let p2 = Scripted::new(vec![final_text(style, "ok")]);
        let fresh_tools = Tools::default().with("lookup", |_, _| panic!("completed calls are never re-run"));
        resume(style, kit(), &p2, &fresh_tools, None, &history, pending, answer).unwrap();
        let sent = serde_json::to_string(&msgs_of(&p2.bodies()[0])).unwrap();
        assert_eq!(sent.matches("42").count(), 2, "{sent}");
        assert!(sent.contains("declined/expired: relay tool call click to the caller for execution"), "{sent}");
        assert!(balanced(msgs_of(&p2.bodies()[0]).as_array().unwrap()));
    }
}

#[test]
fn the_shorthand_goes_to_the_first_outstanding_relay_call_not_slot_zero() {
    let p = Scripted::new(vec![oa_calls(&[("r1", "lookup", "{}"), ("r2", "click", "{}")])]);
    let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("real"));
    let r = run(Style::OpenAi, vec![native("lookup"), relay("click")], &p, &tools, None, &[], "x").unwrap();
    let (history, pending) = through_json(&r);
    let answer = ok_answer(&pending, json!({"output": "clicked"}));
    let p2 = Scripted::new(vec![oa_text("ok")]);
    resume(Style::OpenAi, vec![native("lookup"), relay("click")], &p2, &Tools::default(), None, &history, pending, answer).unwrap();
    let msgs = msgs_of(&p2.bodies()[0]).as_array().unwrap().clone();
    assert_eq!(msgs[3], json!({"role": "tool", "tool_call_id": "r1", "content": "real"}));
    assert_eq!(msgs[4], json!({"role": "tool", "tool_call_id": "r2", "content": "clicked"}));
}

#[test]
fn a_relay_call_left_unanswered_gets_an_explicit_error() {
    let p = Scripted::new(vec![three_clicks(Style::OpenAi)]);
    let r = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), None, &[], "x").unwrap();
    let (history, pending) = through_json(&r);
    let answer = relay_answer(&pending.id, vec![RelayResult { id: "c2".into(), output: "B".into(), is_error: false, parts: vec![] }]);
    let p2 = Scripted::new(vec![oa_text("ok")]);
    resume(Style::OpenAi, vec![relay("click")], &p2, &Tools::default(), None, &history, pending, answer).unwrap();
    let msgs = msgs_of(&p2.bodies()[0]).as_array().unwrap().clone();
    assert_eq!(msgs[3]["content"], "no result supplied on resume for click");
    assert_eq!(msgs[4]["content"], "B");
}

#[test]
fn two_non_relay_suspensions_both_rerun_on_resume_and_the_halted_one_gets_the_answer() {
    let g = ids();
    let tools_first = Tools::default().with("auth", move |_, a| match a {
        None => pending_result(auth_required("https://login", None), &g),
        Some(a) => ToolResult::ok(format!("authed:{}", a.data.as_ref().unwrap()["code"])),
    });
    let p = Scripted::new(vec![oa_calls(&[("a1", "auth", "{}"), ("a2", "auth", "{}")])]);
    let r = run(Style::OpenAi, vec![native("auth")], &p, &tools_first, None, &[], "x").unwrap();
    assert_eq!(r.status, Status::Pending);
    assert_eq!(r.pending.as_ref().unwrap().kind, "authorization");
    assert_eq!(r.text, "Authorization required to continue");
    let (history, pending) = through_json(&r);
    let answer = ok_answer(&pending, json!({"code": 7}));
    // The second call suspends again without an answer: the run halts again, still balanced on resume.
    let p2 = Scripted::new(vec![]);
    let out = resume(Style::OpenAi, vec![native("auth")], &p2, &tools_first, None, &history, pending, answer).unwrap();
    assert_eq!(out.status, Status::Pending, "the other call suspended again");
    assert_eq!(p2.requests.borrow().len(), 0);
    assert_eq!(out.tool_calls[0].output, "authed:7");
    let (h2, p2pending) = through_json(&out);
    let answer2 = ok_answer(&p2pending, json!({"code": 8}));
    let p3 = Scripted::new(vec![oa_text("both")]);
    let last = resume(Style::OpenAi, vec![native("auth")], &p3, &tools_first, None, &h2, p2pending, answer2).unwrap();
    assert_eq!(last.status, Status::Done);
    let sent = msgs_of(&p3.bodies()[0]).as_array().unwrap().clone();
    assert_eq!(sent[3]["content"], "authed:7");
    assert_eq!(sent[4]["content"], "authed:8");
}

/// Each suspension names its call (`callId`): an answer to the second call's request reaches
/// the second call, even while the first is outstanding too (a host answering the `pending`
/// events of a stream in its own order); a request naming no outstanding call is refused.
#[test]
fn an_answer_reaches_the_call_its_request_names() {
    let g = ids();
    let tools = Tools::default().with("auth", move |args, a| match a {
        None => pending_result(auth_required(&format!("https://login/{}", args["n"]), None), &g),
        Some(a) => ToolResult::ok(format!("authed {} with {}", args["n"], a.data.as_ref().unwrap()["code"])),
    });
    let p = Scripted::new(vec![oa_calls(&[("a1", "auth", "{\"n\":1}"), ("a2", "auth", "{\"n\":2}")])]);
    let r = run(Style::OpenAi, vec![native("auth")], &p, &tools, None, &[], "x").unwrap();
    let (history, pending) = through_json(&r);
    assert_eq!(pending.call_id.as_deref(), Some("a1"), "the halted state's request names its call");
    let second = r.tool_calls[1].metadata.as_ref().unwrap()["pending"].clone();
    let second = Request::from_json(&second, "pending").unwrap();
    assert_eq!(second.call_id.as_deref(), Some("a2"));
    let answer = ok_answer(&second, json!({"code": 9}));
    let out = resume(Style::OpenAi, vec![native("auth")], &Scripted::new(vec![]), &tools, None, &history, second.clone(), answer).unwrap();
    assert_eq!(out.status, Status::Pending, "the first call asks again");
    assert_eq!(out.tool_calls[1].output, "authed 2 with 9");
    assert!(out.tool_calls[0].is_error && out.tool_calls[0].metadata.is_some(), "the first call is not given the second's answer");
    let stray = Request { call_id: Some("zz".into()), ..second };
    let answer = ok_answer(&stray, json!({"code": 1}));
    let err = resume(Style::OpenAi, vec![native("auth")], &Scripted::new(vec![]), &tools, None, &history, stray, answer).unwrap_err();
    assert!(err.message.contains("call is not outstanding"), "{}", err.message);
}

#[test]
fn resume_refuses_bad_answers_and_states_without_calling_the_provider() {
    let p = Scripted::new(vec![three_clicks(Style::OpenAi)]);
    let r = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), None, &[], "x").unwrap();
    let (history, pending) = through_json(&r);
    let none = Scripted::new(vec![]);
    let kit = || vec![relay("click")];
    let t = Tools::default();

    let wrong = Answer { id: "other".into(), ok: true, data: None, reason: None };
    let e = resume(Style::OpenAi, kit(), &none, &t, None, &history, pending.clone(), wrong).unwrap_err();
    assert_eq!(e.code(), "answer_mismatch");
    assert_eq!(
        e.message,
        format!("toolnexus: cannot resume — answer id \"other\" does not echo the pending request id \"{}\"", pending.id)
    );

    let ans = ok_answer(&pending, json!({}));
    let e = resume(Style::OpenAi, kit(), &none, &t, None, &[], pending.clone(), ans.clone()).unwrap_err();
    assert_eq!(e.message, "toolnexus: cannot resume — no transcript supplied");
    let e = resume(Style::OpenAi, kit(), &none, &t, None, &history[..2], pending.clone(), ans.clone()).unwrap_err();
    assert_eq!(e.message, "toolnexus: cannot resume — the transcript has no halted assistant turn with tool calls");
    assert_eq!(e.code(), "bad_state");

    // Stale: resuming a transcript that was already resumed.
    let p2 = Scripted::new(vec![oa_text("done")]);
    let done = resume(Style::OpenAi, kit(), &p2, &t, None, &history, pending.clone(), ans.clone()).unwrap();
    let e = resume(Style::OpenAi, kit(), &none, &t, None, &done.messages(), pending.clone(), ans.clone()).unwrap_err();
    assert_eq!(e.code(), "bad_state");

    // Mismatched: a relay request whose calls are not in this transcript.
    let mut foreign = pending.clone();
    foreign.data = Some(json!({"calls": [{"id": "zz", "name": "click", "input": {}, "arguments": "{}"}]}).as_object().unwrap().clone());
    let e = resume(Style::OpenAi, kit(), &none, &t, None, &history, foreign, ans).unwrap_err();
    assert_eq!(e.code(), "bad_state");
    assert!(none.requests.borrow().is_empty());
}

#[test]
fn frozen_v1_states_keep_loading_and_resuming() {
    for name in ["v1-openai-relay.json", "v1-anthropic-mixed.json"] {
        let s = fixture(&format!("state/{name}"));
        let h = state::load(&s).unwrap();
        let style = if s["style"] == "openai" { Style::OpenAi } else { Style::Anthropic };
        let answer = ok_answer(&h.pending, json!({"output": "done in tab"}));
        let p = Scripted::new(vec![final_text(style, "resumed")]);
        let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("again"));
        let out = resume(style, vec![relay("click"), native("lookup")], &p, &tools, None, &h.messages, h.pending, answer).unwrap();
        assert_eq!(out.status, Status::Done, "{name}");
        assert!(serde_json::to_string(&p.bodies()[0]).unwrap().contains("done in tab"), "{name}");
        assert!(balanced(msgs_of(&p.bodies()[0]).as_array().unwrap()), "{name}");
    }
}

/// States written by schema version 2 (this release) carry reasoning state; each resumes into a
/// request that sends it back where its provider requires it.
#[test]
fn frozen_v2_states_resume_with_their_reasoning_state() {
    let cases = [
        (
            "v2-anthropic-thinking.json",
            Style::Anthropic,
            vec![
                r#"{"type":"thinking","thinking":"Thinking about step 0.","signature":"sig:test-model:0"}"#,
                r#""signature":"sig:test-model:1""#,
            ],
        ),
        (
            "v2-gemini-signatures.json",
            Style::Gemini,
            vec![r#""thoughtSignature":"sig:test-model:0""#, r#""thoughtSignature":"sig:test-model:1""#],
        ),
        (
            "v2-responses-reasoning.json",
            Style::Responses,
            vec![r#""encrypted_content":"sig:test-model:0""#, r#""encrypted_content":"sig:test-model:1""#],
        ),
    ];
    for (name, style, wanted) in cases {
        let s = fixture(&format!("state/{name}"));
        assert_eq!(s["schemaVersion"], 2, "{name}");
        let h = state::load(&s).unwrap();
        let answer = ok_answer(&h.pending, json!({"output": "clicked in tab"}));
        let p = Scripted::new(vec![final_text(style, "resumed")]);
        let tools = Tools::default().with("lookup", |_, _| ToolResult::ok("again"));
        let out = resume(style, vec![relay("click"), native("lookup")], &p, &tools, None, &h.messages, h.pending, answer).unwrap();
        assert_eq!((out.status, out.text.as_str()), (Status::Done, "resumed"), "{name}");
        let body = p.requests.borrow()[0].body.clone();
        for w in wanted {
            assert!(body.contains(w), "{name}: the follow-up lacks {w}: {body}");
        }
        assert!(!body.contains("reasoningOrigin"), "{name}: the tag never reaches the provider");
    }
}
