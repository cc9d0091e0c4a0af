//! The loop over the scripted provider: wire shapes per style (contract §f), parallel tools,
//! usage, turn cap, unknown tools, recorded provider replies.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::Status;
use toolnexus_wasm::tool::ToolResult;

#[test]
fn openai_requests_follow_the_wire_format() {
    let p = Scripted::new(vec![oa_text("hello")]);
    let r = run(Style::OpenAi, vec![native("add")], &p, &Tools::default(), None, &[], "hi").unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.text, "hello");
    let req = &p.requests.borrow()[0];
    assert_eq!(req.url, "http://127.0.0.1:9/v1/chat/completions");
    assert!(req.headers.contains(&("Authorization".into(), "Bearer sk-test-key".into())));
    assert_eq!(req.json()["model"], "test-model");
    assert_eq!(req.json()["messages"][0], json!({"role": "system", "content": "You are terse."}));
    assert_eq!(req.json()["tool_choice"], "auto");
    assert_eq!(req.json()["tools"][0]["function"]["parameters"]["additionalProperties"], false);
    assert_eq!(r.messages().len(), 3);
}

#[test]
fn empty_toolkits_omit_tools_and_tool_choice() {
    let p = Scripted::new(vec![oa_text("a")]);
    run(Style::OpenAi, vec![], &p, &Tools::default(), None, &[], "hi").unwrap();
    let b = &p.bodies()[0];
    assert!(b.get("tools").is_none() && b.get("tool_choice").is_none());
    let p = Scripted::new(vec![an_text("a")]);
    run(Style::Anthropic, vec![], &p, &Tools::default(), None, &[], "hi").unwrap();
    assert!(p.bodies()[0].get("tools").is_none());
}

#[test]
fn anthropic_requests_follow_the_wire_format() {
    let p = Scripted::new(vec![an_calls(&[("tu_1", "add", json!({"a": 2}))]), an_text("4")]);
    let tools = Tools::default().with("add", |a, _| ToolResult::ok(format!("{}", a["a"].as_i64().unwrap() * 2)));
    let r = run(Style::Anthropic, vec![native("add")], &p, &tools, None, &[], "double 2").unwrap();
    let req = &p.requests.borrow()[0];
    assert_eq!(req.url, "http://127.0.0.1:9/v1/messages", "base ending in /v1 gets /messages");
    assert!(req.headers.contains(&("x-api-key".into(), "sk-test-key".into())));
    assert!(req.headers.contains(&("anthropic-version".into(), "2023-06-01".into())));
    assert_eq!(req.json()["system"], "You are terse.");
    assert_eq!(req.json()["max_tokens"], 4096);
    assert_eq!(req.json()["tools"][0]["input_schema"]["type"], "object");
    let second = &p.bodies()[1];
    assert_eq!(
        second["messages"][2]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "tu_1", "content": "4", "is_error": false})
    );
    assert_eq!(r.usage.total_tokens, 38);
    assert_eq!(r.turns, 2);
}

#[test]
fn parallel_calls_run_together_and_results_keep_call_order() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "slow", "{}"), ("c2", "fast", "{}")]), oa_text("done")]);
    let mut tools = Tools::default().with("slow", |_, _| ToolResult::ok("S")).with("fast", |_, _| ToolResult::ok("F"));
    tools.delays = vec![("slow".into(), 3)];
    let r = run(Style::OpenAi, vec![native("slow"), native("fast")], &p, &tools, None, &[], "go").unwrap();
    let order: Vec<String> = tools.calls.borrow().iter().map(|c| c.0.clone()).collect();
    assert_eq!(order, ["fast", "slow"], "fast finished first, so both were in flight together");
    let msgs = p.bodies()[1]["messages"].as_array().unwrap().clone();
    assert_eq!(msgs[3]["tool_call_id"], "c1");
    assert_eq!(msgs[4]["tool_call_id"], "c2");
    assert_eq!(r.tool_call_count, 2);
    assert_eq!(r.tool_calls[0].output, "S");
    assert_eq!(r.usage.total_tokens, 38);
}

#[test]
fn unknown_tools_are_fed_back_and_the_loop_continues() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "ghost", "{}")]), oa_text("sorry")]);
    let r = run(Style::OpenAi, vec![native("add")], &p, &Tools::default(), None, &[], "x").unwrap();
    assert_eq!(r.tool_calls[0].output, "Unknown tool: ghost");
    assert!(r.tool_calls[0].is_error);
    assert_eq!(r.text, "sorry");
}

#[test]
fn the_turn_cap_reports_incomplete_with_usage_and_records() {
    let replies = (0..10).map(|i| oa_calls(&[(&format!("c{i}"), "add", "{}")])).collect();
    let p = Scripted::new(replies);
    let tools = Tools::default().with("add", |_, _| ToolResult::ok("1"));
    let r = run(Style::OpenAi, vec![native("add")], &p, &tools, None, &[], "loop").unwrap();
    assert_eq!(r.status, Status::Incomplete);
    assert_eq!(r.limit.as_deref(), Some("maxTurns"));
    assert_eq!((r.turns, r.tool_call_count, r.usage.total_tokens), (10, 10, 150));
    assert!(r.pending.is_none());
}

#[test]
fn history_in_either_dialect_continues_under_the_other_style() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "add", "{\"a\":1}")]), oa_text("2")]);
    let tools = Tools::default().with("add", |_, _| ToolResult::ok("2"));
    let first = run(Style::OpenAi, vec![native("add")], &p, &tools, None, &[], "one").unwrap();
    let p2 = Scripted::new(vec![an_text("again")]);
    let second = run(Style::Anthropic, vec![native("add")], &p2, &tools, None, &first.messages(), "two").unwrap();
    let body = &p2.bodies()[0];
    assert_eq!(body["system"], "You are terse.");
    assert_eq!(body["messages"][1]["content"][0]["type"], "tool_use");
    assert_eq!(body["messages"][1]["content"][0]["input"], json!({"a": 1}));
    assert_eq!(second.messages().last().unwrap()["content"][0]["text"], "again");
}

#[test]
fn an_unbalanced_history_is_repaired_before_the_provider_sees_it() {
    let history = vec![
        json!({"role": "user", "content": "x"}),
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "add", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "add", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "a", "content": "1"}),
    ];
    let p = Scripted::new(vec![oa_text("fine")]);
    run(Style::OpenAi, vec![native("add")], &p, &Tools::default(), None, &history, "next").unwrap();
    let sent = p.bodies()[0]["messages"].as_array().unwrap().clone();
    assert!(balanced(&sent), "{sent:#?}");
    assert_eq!(sent[3]["tool_call_id"], "b");
    assert_eq!(sent[4]["content"], "next");
}

#[test]
fn recorded_replies_parse_for_both_styles() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic")] {
        let calls = fixture(&format!("{dir}/tool_calls.json"));
        let text = fixture(&format!("{dir}/final_text.json"));
        let p = Scripted::new(vec![calls, text]);
        let tools = Tools::default().with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap_or("?"))));
        let r = run(style, vec![native("get_weather")], &p, &tools, None, &[], "weather in Paris and Tokyo?").unwrap();
        assert_eq!(r.status, Status::Done, "{dir}");
        assert_eq!(r.tool_call_count, 2, "{dir}");
        assert_eq!(r.tool_calls[1].output, "sunny in Tokyo", "{dir}");
        assert!(r.text.contains("sunny"), "{dir}: {}", r.text);
        assert!(r.usage.total_tokens > 0);
        let _: Value = serde_json::from_str(&r.to_json()).unwrap();
    }
}
