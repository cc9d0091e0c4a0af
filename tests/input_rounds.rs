//! Questions asked over several rounds (MCP 2026-07-28 `input_required`, or any tool that asks
//! again after an answer), refusals a tool asked to see (`rerunOnDecline`), and several questions
//! of one turn after a durable halt. The tools here behave like a stateless server: what they
//! learnt so far rides in the id of their next question, as the MCP client's does.

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Map, Value};
use toolnexus_wasm::driver::Waiter;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{pending_result, Answer, Request};
use toolnexus_wasm::tool::ToolResult;

/// A question as a JS tool returns it from `pending(...)`, read from its wire form.
fn ask(id: &str, prompt: &str, rerun_on_decline: bool) -> ToolResult {
    let mut q = json!({"id": id, "kind": "input", "prompt": prompt});
    if rerun_on_decline {
        q["rerunOnDecline"] = json!(true);
    }
    pending_result(Request::from_json(&q, "pending").unwrap(), &ids())
}

/// Asks a name, then (with the name in the question's id) a colour; a refusal is reported as the
/// result, naming the question refused and its reason.
fn survey(_: &Map<String, Value>, answer: Option<&Answer>) -> ToolResult {
    let Some(a) = answer else { return ask("q-name", "Your name?", true) };
    if !a.ok {
        return ToolResult::ok(format!("refused {} ({})", a.id, a.reason.as_deref().unwrap_or("no reason")));
    }
    let field = |k: &str| a.data.as_ref().and_then(|d| d.get(k)).and_then(Value::as_str).unwrap_or("?").to_string();
    match a.id.split_once(':') {
        None => ask(&format!("q-colour:{}", field("name")), "Favourite colour?", true),
        Some((_, name)) => ToolResult::ok(format!("{name} likes {}", field("colour"))),
    }
}

fn answer_survey(q: &Request) -> Answer {
    if q.id == "q-name" {
        ok_answer(q, json!({"name": "Ann"}))
    } else {
        ok_answer(q, json!({"colour": "red"}))
    }
}

fn through_json(r: &RunResult) -> (Vec<Value>, Request) {
    let h = state::load(&serde_json::from_str(&r.to_json()).unwrap()).unwrap();
    (h.messages, h.pending)
}

#[test]
fn a_second_question_under_waitfor_is_waited_for_and_saved_before_its_wait() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "survey", "{}")]), oa_text("done")]);
    let tools = Tools::default().with("survey", survey);
    let w = Wait::new(answer_survey);
    let host = Host::default();
    let r = run_full(Style::OpenAi, false, vec![native("survey")], &p, &tools, Some(&*w), &host, vec![], "go").unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.tool_calls[0].output, "Ann likes red");
    let asked: Vec<String> = w.seen.borrow().iter().map(|q| q.id.clone()).collect();
    assert_eq!(asked, ["q-name", "q-colour:Ann"], "waited again on the new question");
    assert_eq!(tools.calls.borrow().len(), 3);
    // A host that dies during the second wait resumes from the second question, not the first.
    let saved: Vec<String> = host.saves.borrow().iter().filter_map(|s| s.pending.as_ref().map(|p| p.id.clone())).collect();
    assert_eq!(saved, ["q-name", "q-colour:Ann"]);
    assert_eq!(host.kinds().iter().filter(|k| *k == "pending").count(), 2, "a pending event per question");
}

#[test]
fn a_tool_that_keeps_asking_ends_at_the_round_limit_with_an_error_naming_it() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "stubborn", "{}")]), oa_text("gave up")]);
    let g = ids();
    let tools = Tools::default().with("stubborn", move |_, _| {
        pending_result(Request { kind: "input".into(), prompt: "Need more".into(), ..Request::default() }, &g)
    });
    let w = Wait::new(|r| ok_answer(r, json!({})));
    let r = run(Style::OpenAi, vec![native("stubborn")], &p, &tools, Some(&w), &[], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "unresolved after 8 answers: Need more");
    assert!(r.tool_calls[0].is_error);
    assert_eq!(w.seen.borrow().len(), 8);
    assert_eq!(tools.calls.borrow().len(), 9, "the first run and one re-run per answer");
    assert_eq!(r.status, Status::Done);
}

#[test]
fn the_same_question_again_is_never_waited_for_twice() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "same", "{}")]), oa_text("ok")]);
    let tools = Tools::default().with("same", |_, _| ask("q-1", "Again?", false));
    let w = Wait::new(|r| ok_answer(r, json!({})));
    let r = run(Style::OpenAi, vec![native("same")], &p, &tools, Some(&w), &[], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "unresolved: Again?");
    assert_eq!(w.seen.borrow().len(), 1);
}

#[test]
fn a_refusal_reaches_a_tool_that_asks_for_refusals_and_its_result_is_the_calls() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "survey", "{}")]), oa_text("ok")]);
    let tools = Tools::default().with("survey", survey);
    let w = Wait::new(|r| Answer { id: r.id.clone(), ok: false, data: None, reason: Some("cancelled".into()) });
    let r = run(Style::OpenAi, vec![native("survey")], &p, &tools, Some(&w), &[], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "refused q-name (cancelled)");
    assert!(!r.tool_calls[0].is_error, "the tool's own result");
    assert_eq!(tools.calls.borrow().len(), 2, "re-run with the refusal");
}

/// `waitFor` resolving to nothing.
struct Nothing;
impl Waiter for Nothing {
    fn wait(&self, _: Request) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<Answer>>> {
        Box::pin(async { Ok(None) })
    }
}

#[test]
fn no_answer_is_a_refusal_the_tool_sees_with_the_requests_id() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "survey", "{}"), ("c2", "plain", "{}")]), oa_text("ok")]);
    let tools = Tools::default().with("survey", survey).with("plain", |_, a| match a {
        None => ask("q-plain", "Proceed?", false),
        Some(_) => ToolResult::ok("proceeded"),
    });
    let host = Host::default();
    let kit = vec![native("survey"), native("plain")];
    let r = run_full(Style::OpenAi, false, kit, &p, &tools, Some(&Nothing), &host, vec![], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "refused q-name (no reason)");
    assert_eq!(r.tool_calls[1].output, "declined/expired: Proceed?", "a tool that did not ask for refusals is not re-run");
    assert_eq!(tools.calls.borrow().iter().filter(|c| c.0 == "plain").count(), 1);
}

#[test]
fn durable_rounds_halt_again_on_the_next_question() {
    let kit = || vec![native("survey")];
    let tools = Tools::default().with("survey", survey);
    let p = Scripted::new(vec![oa_calls(&[("c1", "survey", "{}")])]);
    let halted = run(Style::OpenAi, kit(), &p, &tools, None, &[], "go").unwrap();
    let (h, q) = through_json(&halted);
    assert_eq!((halted.status, q.id.as_str(), q.data.is_none()), (Status::Pending, "q-name", true));
    let again = resume(Style::OpenAi, kit(), &Scripted::new(vec![]), &tools, None, &h, q.clone(), answer_survey(&q)).unwrap();
    let (h, q) = through_json(&again);
    assert_eq!((again.status, q.id.as_str()), (Status::Pending, "q-colour:Ann"));
    let p3 = Scripted::new(vec![oa_text("done")]);
    let done = resume(Style::OpenAi, kit(), &p3, &tools, None, &h, q.clone(), answer_survey(&q)).unwrap();
    assert_eq!(done.status, Status::Done);
    assert_eq!(msgs_of(&p3.bodies()[0])[3]["content"], "Ann likes red");
}

#[test]
fn a_durable_refusal_reruns_the_halted_tool_when_it_asks_for_refusals() {
    let kit = || vec![native("survey")];
    let tools = Tools::default().with("survey", survey);
    let halted = run(Style::OpenAi, kit(), &Scripted::new(vec![oa_calls(&[("c1", "survey", "{}")])]), &tools, None, &[], "go").unwrap();
    let (h, q) = through_json(&halted);
    assert_eq!(q.to_value()["rerunOnDecline"], true, "the flag survives the state");
    let p = Scripted::new(vec![oa_text("ok")]);
    let no = Answer { id: q.id.clone(), ok: false, data: None, reason: None };
    let done = resume(Style::OpenAi, kit(), &p, &tools, None, &h, q, no).unwrap();
    assert_eq!(done.status, Status::Done);
    assert_eq!(msgs_of(&p.bodies()[0])[3]["content"], "refused q-name (no reason)");
    assert_eq!(tools.calls.borrow().last().unwrap().2.as_ref().map(|a| a.ok), Some(false));
}

/// Two questions of one turn, halted durably: the halt surfaces the first in call order; the
/// resume answers it and asks the other's tool afresh (its server kept nothing), which halts on
/// its question; each question reaches the user once, in call order.
#[test]
fn several_questions_of_one_turn_are_asked_one_halt_at_a_time_in_call_order() {
    let kit = || vec![native("greet")];
    let greet = |args: &Map<String, Value>, a: Option<&Answer>| {
        let g = args["g"].as_str().unwrap().to_string();
        match a {
            None => ask(&format!("q-{g}"), &format!("Who gets {g}?"), true),
            Some(a) if a.ok => ToolResult::ok(format!("{g}, {}!", a.data.as_ref().unwrap()["name"].as_str().unwrap())),
            Some(a) => ToolResult::ok(format!("{g}: refused ({})", a.id)),
        }
    };
    let tools = Tools::default().with("greet", greet);
    let turn = oa_calls(&[("c1", "greet", "{\"g\":\"Hi\"}"), ("c2", "greet", "{\"g\":\"Yo\"}"), ("c3", "greet", "{\"g\":\"Hey\"}")]);
    let first = run(Style::OpenAi, kit(), &Scripted::new(vec![turn]), &tools, None, &[], "go").unwrap();
    let mut asked = Vec::new();
    let (mut h, mut q) = through_json(&first);
    // Answers: Ann to the first question, a refusal to the second, Cy to the third.
    let mut answers = vec![Some("Cy"), None, Some("Ann")];
    let p = Scripted::new(vec![oa_text("greeted")]);
    let done = loop {
        asked.push(q.id.clone());
        let a = match answers.pop().unwrap() {
            Some(name) => ok_answer(&q, json!({ "name": name })),
            None => Answer { id: q.id.clone(), ok: false, data: None, reason: None },
        };
        let r = resume(Style::OpenAi, kit(), &p, &tools, None, &h, q, a).unwrap();
        if r.status != Status::Pending {
            break r;
        }
        (h, q) = through_json(&r);
    };
    assert_eq!(asked, ["q-Hi", "q-Yo", "q-Hey"], "each question once, in call order");
    assert_eq!(done.status, Status::Done);
    let sent = msgs_of(&p.bodies()[0]);
    let results: Vec<&str> = (3..6).map(|i| sent[i]["content"].as_str().unwrap()).collect();
    assert_eq!(results, ["Hi, Ann!", "Yo: refused (q-Yo)", "Hey, Cy!"]);
    // 3 first runs, then per resume: the answered call plus every other outstanding one afresh.
    assert_eq!(tools.calls.borrow().len(), 3 + 3 + 2 + 1);
}
