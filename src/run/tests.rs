//! Unit tests of the machine alone: steps are fed by hand, no driver.

use super::*;
use crate::provider::HttpResponse;
use crate::tool::{default_schema, ToolSpec};
use serde_json::json;

fn cfg(style: Style, max_turns: u32) -> LoopConfig {
    LoopConfig {
        provider: ProviderConfig { base_url: "http://x/v1".into(), style, model: "m".into(), api_key: Some("k".into()), headers: vec![] },
        system_prompt: "sys".into(),
        max_turns,
    }
}

fn kit() -> Toolkit {
    Toolkit::new(vec![ToolSpec {
        name: "add".into(),
        description: "adds".into(),
        input_schema: default_schema(),
        source: ToolSource::Native,
        agent: None,
    }])
    .unwrap()
}

fn ok(body: serde_json::Value) -> HttpResponse {
    HttpResponse { status: 200, body: body.to_string(), retry_after: None }
}

fn call_reply(args: &str) -> HttpResponse {
    ok(json!({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
        {"id":"c1","type":"function","function":{"name":"add","arguments":args}}]}}]}))
}

#[test]
fn the_turn_cap_stops_a_tool_calling_run_as_incomplete() {
    let (mut run, step) = Run::start(cfg(Style::OpenAi, 1), kit(), vec![], "hi").unwrap();
    assert!(matches!(step, Step::CallModel));
    let Step::RunTools(inv) = run.on_model_response(&call_reply("{\"a\":1}")).unwrap() else { panic!() };
    run.on_tool_outcome(inv[0].slot, ToolOutcome::Result(ToolResult::ok("2"))).unwrap();
    let step = run.end_tool_turn().unwrap();
    let Step::Done(r) = step else { panic!("{step:?}") };
    assert_eq!(r.status, Status::Incomplete);
    assert_eq!(r.limit.as_deref(), Some("maxTurns"));
    assert_eq!(r.turns, 1);
    assert_eq!(r.tool_call_count, 1);
    assert_eq!(r.messages().len(), 4, "system, user, assistant, tool");
}

#[test]
fn bad_arguments_and_unknown_tools_become_error_results_without_dispatch() {
    let (mut run, _) = Run::start(cfg(Style::OpenAi, 3), kit(), vec![], "hi").unwrap();
    let reply = ok(json!({"choices":[{"message":{"content":"","tool_calls":[
        {"id":"a","function":{"name":"add","arguments":"{oops"}},
        {"id":"b","function":{"name":"nope","arguments":"{}"}}]}}]}));
    let Step::RunTools(inv) = run.on_model_response(&reply).unwrap() else { panic!() };
    assert!(inv.iter().all(|i| i.preset.is_some()), "nothing to dispatch to the host");
    assert!(inv[0].known && !inv[1].known);
    assert_eq!(inv[1].source.as_str(), "custom", "the metrics label of an unknown tool");
    for i in inv {
        run.on_tool_outcome(i.slot, ToolOutcome::Result(i.preset.unwrap())).unwrap();
    }
    let Step::CallModel = run.end_tool_turn().unwrap() else { panic!() };
    let body = run.build_request(false).json();
    let msgs = body["messages"].as_array().unwrap();
    assert!(msgs[3]["content"].as_str().unwrap().starts_with("Invalid arguments for tool add: arguments are not valid JSON"));
    assert_eq!(msgs[4]["content"], "Unknown tool: nope");
}

#[test]
fn missing_and_repeated_call_ids_are_synthesised() {
    let (mut run, _) = Run::start(cfg(Style::OpenAi, 3), kit(), vec![], "hi").unwrap();
    let reply = ok(json!({"choices":[{"message":{"content":"","tool_calls":[
        {"function":{"name":"add","arguments":"{}"}},
        {"id":"x","function":{"name":"add","arguments":"{}"}},
        {"id":"x","function":{"name":"add","arguments":"{}"}}]}}]}));
    let Step::RunTools(inv) = run.on_model_response(&reply).unwrap() else { panic!() };
    let ids: Vec<_> = inv.iter().map(|i| i.call.id.as_str()).collect();
    assert_eq!(ids, ["call_1_0", "x", "call_1_2"]);
}

#[test]
fn feeding_steps_out_of_order_is_an_internal_error_not_a_panic() {
    let (mut run, _) = Run::start(cfg(Style::Anthropic, 3), kit(), vec![], "hi").unwrap();
    assert_eq!(run.end_tool_turn().unwrap_err().code(), "internal");
    assert_eq!(run.on_tool_outcome(0, ToolOutcome::Result(ToolResult::ok(""))).unwrap_err().code(), "internal");
    let Step::RunTools(_) = run.on_model_response(&ok(json!({"content":[{"type":"tool_use","id":"t","name":"add","input":{}}]}))).unwrap()
    else {
        panic!()
    };
    assert_eq!(run.on_tool_outcome(9, ToolOutcome::Result(ToolResult::ok(""))).unwrap_err().code(), "internal");
    assert_eq!(run.end_tool_turn().unwrap_err().code(), "internal", "a call without an outcome");
}

#[test]
fn zero_max_turns_is_refused() {
    assert_eq!(Run::start(cfg(Style::OpenAi, 0), kit(), vec![], "x").err().unwrap().code(), "bad_input");
}

#[test]
fn checkpoints_read_the_outcomes_taken_as_they_settle() {
    let (mut run, _) = Run::start(cfg(Style::OpenAi, 3), kit(), vec![], "hi").unwrap();
    let reply = ok(json!({"choices":[{"message":{"content":"","tool_calls":[
        {"id":"a","function":{"name":"add","arguments":"{}"}},
        {"id":"b","function":{"name":"add","arguments":"{}"}}]}}]}));
    let Step::RunTools(_) = run.on_model_response(&reply).unwrap() else { panic!() };
    let before = run.checkpoint();
    assert_eq!((before.transcript.len(), before.pending.is_none()), (3, true), "nothing settled: the transcript as it is");
    let req = Request { id: "r1".into(), kind: "input".into(), prompt: "which?".into(), ..Request::default() };
    run.on_tool_outcome(1, ToolOutcome::Suspend(req.clone())).unwrap();
    assert!(run.has_suspended());
    let halted = run.checkpoint();
    assert_eq!((halted.transcript.len(), halted.pending.as_ref()), (3, Some(&req)), "halted on the suspension, no result yet");
    run.on_tool_outcome(0, ToolOutcome::Result(ToolResult::ok("1"))).unwrap();
    let partial = run.checkpoint();
    let Some(Message::Tool(outs)) = partial.transcript.last() else { panic!("{:?}", partial.transcript) };
    assert_eq!((outs.len(), outs[0].call_id.as_str(), partial.pending.is_some()), (1, "a", true));
    run.on_tool_outcome(1, ToolOutcome::Result(ToolResult::ok("2"))).unwrap();
    assert!(!run.has_suspended(), "an answered suspension is replaced by its result");
    assert!(run.checkpoint().pending.is_none());
    let (call, outcome) = run.settled(1).unwrap();
    assert_eq!((call.id.as_str(), outcome), ("b", &ToolOutcome::Result(ToolResult::ok("2"))));
    assert!(matches!(run.end_tool_turn().unwrap(), Step::CallModel));
    assert_eq!(run.build_request(false).json()["messages"].as_array().unwrap().len(), 5);
}
