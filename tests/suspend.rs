//! In-process resolution with `waitFor` (contract §c.1, §c.3, Part 1 rules 1 and 3).

mod common;
use common::*;
use serde_json::json;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::Status;
use toolnexus_wasm::suspend::{auth_required, pending_result, Answer, IdGen, Request};
use toolnexus_wasm::tool::ToolResult;

fn asking_tool(ids: IdGen) -> impl Fn(&serde_json::Map<String, serde_json::Value>, Option<&Answer>) -> ToolResult {
    move |_, answer| match answer {
        None => pending_result(auth_required("https://login", Some("Sign in")), &ids),
        Some(a) => ToolResult::ok(format!("token={}", a.data.as_ref().unwrap()["token"].as_str().unwrap())),
    }
}

#[test]
fn an_ok_answer_reruns_the_tool_once_with_ctx_answer() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "secure", "{\"x\":1}")]), oa_text("in")]);
    let tools = Tools::default().with("secure", asking_tool(ids()));
    let w = Wait::new(|r| ok_answer(r, json!({"token": "abc"})));
    let r = run(Style::OpenAi, vec![native("secure")], &p, &tools, Some(&w), &[], "go").unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.tool_calls[0].output, "token=abc");
    let calls = tools.calls.borrow();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].1, json!({"x": 1}), "same args on the retry");
    assert_eq!(calls[1].2.as_ref().unwrap().id, w.seen.borrow()[0].id, "ctx.answer is the host's answer");
    assert_eq!(w.seen.borrow()[0].kind, "authorization");
    assert_eq!(w.seen.borrow()[0].call_id.as_deref(), Some("c1"), "a suspension names the call it suspends");
}

#[test]
fn a_declined_answer_is_declined_expired_and_the_loop_continues() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "secure", "{}")]), oa_text("ok, skipped")]);
    let tools = Tools::default().with("secure", asking_tool(ids()));
    let w = Wait::new(|r| Answer { id: r.id.clone(), ok: false, data: None, reason: Some("declined".into()) });
    let r = run(Style::OpenAi, vec![native("secure")], &p, &tools, Some(&w), &[], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "declined/expired: Sign in");
    assert!(r.tool_calls[0].is_error);
    assert_eq!(tools.calls.borrow().len(), 1, "not re-executed");
    assert_eq!(r.text, "ok, skipped");
}

// A retry that suspends again is waited for again, up to a limit: tests/input_rounds.rs.

#[test]
fn several_suspensions_in_a_turn_wait_concurrently() {
    let p = Scripted::new(vec![
        oa_calls(&[("c1", "click", "{\"s\":\"#a\"}"), ("c2", "click", "{\"s\":\"#b\"}"), ("c3", "click", "{\"s\":\"#c\"}")]),
        oa_text("clicked all"),
    ]);
    let w = Wait::new(|r| {
        let id = r.data.as_ref().unwrap()["calls"][0]["id"].as_str().unwrap().to_string();
        ok_answer(r, json!({"results": [{"id": id, "output": format!("clicked {id}"), "isError": false}]}))
    });
    let r = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), Some(&w), &[], "go").unwrap();
    assert_eq!(w.max_outstanding.get(), 3, "all three waitFor calls were outstanding at once");
    let seen = w.seen.borrow();
    assert!(seen.iter().all(|q| q.kind == "tool_call" && q.data.as_ref().unwrap()["calls"].as_array().unwrap().len() == 1));
    let mut named: Vec<_> = seen.iter().map(|q| q.call_id.clone().unwrap()).collect();
    named.sort();
    assert_eq!(named, ["c1", "c2", "c3"], "each relay wait is keyed by its call (a Workflow's waitForEvent)");
    assert_eq!(r.tool_calls.iter().map(|c| c.output.as_str()).collect::<Vec<_>>(), ["clicked c1", "clicked c2", "clicked c3"]);
    let sent = p.bodies()[1]["messages"].as_array().unwrap().clone();
    assert!(balanced(&sent));
}

#[test]
fn relay_shorthand_answers_and_relay_errors_are_tool_results() {
    let p = Scripted::new(vec![an_calls(&[("tu_1", "read_page", json!({"sel": "h1"}))]), an_text("title read")]);
    let w = Wait::new(|r| ok_answer(r, json!({"output": "Page not found", "isError": true})));
    let r = run(Style::Anthropic, vec![relay("read_page")], &p, &Tools::default(), Some(&w), &[], "read").unwrap();
    let seen = w.seen.borrow();
    assert_eq!(seen[0].prompt, "relay tool call read_page to the caller for execution");
    assert_eq!(
        seen[0].data.as_ref().unwrap()["calls"][0],
        json!({"id": "tu_1", "name": "read_page", "input": {"sel": "h1"}, "arguments": "{\"sel\":\"h1\"}"})
    );
    assert_eq!(r.tool_calls[0].output, "Page not found");
    assert!(r.tool_calls[0].is_error);
    assert_eq!(p.bodies()[1]["messages"][2]["content"][0]["is_error"], true);
}

#[test]
fn a_waitfor_failure_stops_the_run_with_a_typed_error() {
    struct Failing;
    impl toolnexus_wasm::driver::Waiter for Failing {
        fn wait(&self, _: Request) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<Option<Answer>>> {
            Box::pin(async { Err(toolnexus_wasm::Error::new(toolnexus_wasm::Code::HostCallback, "boom")) })
        }
    }
    let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}")])]);
    let ids = ids();
    let tools = Tools::default();
    let clock = tick();
    let env = toolnexus_wasm::driver::Env { waiter: Some(&Failing), ..toolnexus_wasm::driver::Env::new(&p, &tools, &ids, &clock) };
    let kit = toolnexus_wasm::tool::Toolkit::new(vec![relay("click")]).unwrap();
    let (r, step) = toolnexus_wasm::run::Run::start(config(Style::OpenAi), kit, vec![], "x").unwrap();
    let err = futures_executor::block_on(toolnexus_wasm::driver::drive(r, step, &env)).unwrap_err();
    assert_eq!(err.code(), "host_callback");
    assert!(err.message.contains("boom"));
}

#[test]
fn metrics_report_suspensions_as_pending_not_errors() {
    use toolnexus_wasm::metrics::Metric;
    let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}"), ("c2", "ghost", "{}"), ("c3", "secure", "{}")]), oa_text("ok")]);
    let tools = Tools::default().with("secure", asking_tool(ids()));
    let w = Wait::new(|r| ok_answer(r, json!({"token": "t", "output": "clicked"})));
    let rec = Recorder::default();
    run_observed(Style::OpenAi, vec![relay("click"), native("secure")], &p, &tools, Some(&w), Some(&rec), &[], "go").unwrap();
    let events = rec.0.borrow();
    let tool = |name: &str| -> Vec<(bool, bool, String)> {
        events
            .iter()
            .filter_map(|m| match m {
                Metric::Tool { tool, is_error, pending, source, .. } if tool == name => Some((*is_error, *pending, source.clone())),
                _ => None,
            })
            .collect()
    };
    assert_eq!(tool("click"), vec![(false, true, "relay".into()), (false, false, "relay".into())]);
    assert_eq!(tool("secure"), vec![(false, true, "native".into()), (false, false, "native".into())]);
    assert_eq!(tool("unknown"), vec![(true, false, "custom".into())], "an undeclared name is labelled \"unknown\"");
    let llm: Vec<_> = events.iter().filter(|m| matches!(m, Metric::Llm { status: "ok", .. })).collect();
    assert_eq!(llm.len(), 2);
    let runs: Vec<_> = events
        .iter()
        .filter_map(|m| match m {
            Metric::Run { turns, tool_calls, error, .. } => Some((*turns, *tool_calls, error.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(runs, vec![(2, 3, None)]);
    assert!(matches!(events.last(), Some(Metric::Run { .. })));
}

#[test]
fn a_failed_run_still_reports_one_run_metric_with_the_error() {
    use toolnexus_wasm::metrics::Metric;
    let p = Scripted::default();
    p.push(500, "upstream down".into());
    let rec = Recorder::default();
    let err = run_observed(Style::Anthropic, vec![], &p, &Tools::default(), None, Some(&rec), &[], "x").unwrap_err();
    assert_eq!(err.code(), "provider_http");
    let events = rec.0.borrow();
    assert!(matches!(&events[0], Metric::Llm { status: "error", prompt_tokens: 0, .. }));
    assert!(matches!(&events[1], Metric::Run { error: Some(e), .. } if e.contains("LLM 500")));
}

#[test]
fn relay_calls_fail_closed_when_an_ok_answer_has_no_result_for_them() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}"), ("c2", "click", "{}")]), oa_text("ok")]);
    // answers c1's request with its result, and c2's with none
    let w = Wait::new(|r| {
        let results = if r.relay_calls()[0].id == "c1" { json!([{"id": "c1", "output": "done"}]) } else { json!([]) };
        ok_answer(r, json!({ "results": results }))
    });
    let r = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), Some(&w), &[], "go").unwrap();
    assert_eq!(r.tool_calls[0].output, "done");
    assert_eq!(r.tool_calls[1].output, "no result supplied for relay call click");
    assert!(r.tool_calls[1].is_error);
}

/// A `waitFor` answer must be its request's: an id that does not echo the request's, or a result
/// naming another call, is `answer_mismatch` (before, the first ran the tool as if answered and
/// the second told the model "no result supplied").
#[test]
fn wait_for_answers_that_match_no_outstanding_call_are_answer_mismatch() {
    let go = |w: &std::rc::Rc<Wait>| {
        let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}")]), oa_text("ok")]);
        run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), Some(w), &[], "go")
    };
    let e = go(&Wait::new(|r| ok_answer(r, json!({"results": [{"id": "c9", "output": "done"}]})))).unwrap_err();
    assert_eq!(e.code(), "answer_mismatch");
    assert!(e.message.starts_with("waitFor: answer result id \"c9\" matches no outstanding call of request \"pnd-"), "{}", e.message);
    assert!(e.message.ends_with("(outstanding: c1)"), "{}", e.message);
    let e = go(&Wait::new(|r| Answer { id: "call_1".into(), ..ok_answer(r, json!({"output": "x"})) })).unwrap_err();
    assert_eq!(e.code(), "answer_mismatch");
    assert!(e.message.starts_with("waitFor: answer id \"call_1\" does not echo the pending request id \"pnd-"), "{}", e.message);
    // A refusal's results are not read; its id is.
    let declined = go(&Wait::new(|r| Answer { ok: false, ..ok_answer(r, json!({"results": [{"id": "c9"}]})) })).unwrap();
    assert!(declined.tool_calls[0].output.starts_with("declined/expired"));
}
