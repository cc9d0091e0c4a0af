//! Bad provider bodies and bad host input give typed errors and lose nothing.

mod common;
use common::*;
use serde_json::json;
use toolnexus_wasm::provider::Style;

fn run_with(style: Style, status: u16, body: &str) -> toolnexus_wasm::Error {
    let p = Scripted::default();
    p.push(status, body.to_string());
    run(style, vec![native("t")], &p, &Tools::default(), None, &[], "x").unwrap_err()
}

#[test]
fn broken_provider_bodies_are_typed_errors() {
    for style in [Style::OpenAi, Style::Anthropic] {
        assert_eq!(run_with(style, 200, "<html>502 Bad Gateway</html>").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "{\"choices\": [{\"message\": {\"content\": \"hal").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "[]").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "{}").code(), "provider_parse");
        let e = run_with(style, 200, &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}).to_string());
        assert_eq!(e.code(), "provider_error");
        assert!(e.message.contains("Overloaded"));
    }
    assert_eq!(run_with(Style::OpenAi, 200, "{\"choices\":[{}]}").code(), "provider_parse");
    assert_eq!(run_with(Style::OpenAi, 200, "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"a\"}]}}]}").code(), "provider_parse");
    assert_eq!(run_with(Style::Anthropic, 200, "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\"}]}").code(), "provider_parse");
}

#[test]
fn http_failures_carry_the_status_and_never_the_key() {
    let e = run_with(Style::OpenAi, 429, "{\"error\":{\"message\":\"Rate limit for key sk-test-key\"}}");
    assert_eq!(e.code(), "provider_http");
    assert_eq!(e.status, Some(429));
    assert!(e.message.starts_with("LLM 429: "));
    assert!(!e.message.contains("sk-test-key"));
    assert_eq!(run_with(Style::Anthropic, 401, "invalid x-api-key sk-test-key").message, "LLM 401");
}

#[test]
fn openai_empty_choices_is_an_empty_final_answer() {
    let p = Scripted::new(vec![json!({"choices": []})]);
    let r = run(Style::OpenAi, vec![], &p, &Tools::default(), None, &[], "x").unwrap();
    assert_eq!(r.text, "");
}

#[test]
fn non_object_tool_arguments_are_fed_back_as_errors() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "t", "[1,2]"), ("c2", "t", "not json")]), oa_text("ok")]);
    let r = run(Style::OpenAi, vec![native("t")], &p, &Tools::default(), None, &[], "x").unwrap();
    assert_eq!(r.tool_calls[0].output, "Invalid arguments for tool t: arguments must be a JSON object, got an array");
    assert!(r.tool_calls[1].output.starts_with("Invalid arguments for tool t: arguments are not valid JSON"));
}

/// A history whose turn has a call without an id, or two calls sharing one, is refused when it
/// is read (`bad_state`), in every dialect that carries ids: results are paired with calls by id,
/// so such a history cannot be resumed or answered unambiguously (found by the `state` fuzz
/// target on Anthropic histories).
#[test]
fn histories_with_missing_or_repeated_call_ids_are_refused() {
    use toolnexus_wasm::dialect::read;
    let anthropic =
        |blocks: serde_json::Value| vec![json!({"role": "user", "content": "go"}), json!({"role": "assistant", "content": blocks})];
    let tool_use = |id: Option<&str>| {
        let mut b = json!({"type": "tool_use", "name": "t", "input": {}});
        if let Some(id) = id {
            b["id"] = json!(id);
        }
        b
    };
    let openai = |ids: &[Option<&str>]| {
        let calls: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| {
                let mut c = json!({"type": "function", "function": {"name": "t", "arguments": "{}"}});
                if let Some(id) = id {
                    c["id"] = json!(id);
                }
                c
            })
            .collect();
        vec![json!({"role": "assistant", "content": null, "tool_calls": calls})]
    };
    let gemini = |ids: &[&str]| {
        let parts: Vec<serde_json::Value> = ids.iter().map(|id| json!({"functionCall": {"id": id, "name": "t", "args": {}}})).collect();
        vec![json!({"role": "model", "parts": parts})]
    };
    let refused = [
        anthropic(json!([tool_use(None)])),
        anthropic(json!([tool_use(Some(""))])),
        anthropic(json!([tool_use(Some("a")), tool_use(Some("a"))])),
        openai(&[None]),
        openai(&[Some("a"), Some("a")]),
        gemini(&["a", "a"]),
        // A given id equal to the one the reader makes up for an id-less call of the turn.
        gemini(&["call_h0_1", ""]),
    ];
    for h in refused {
        let e = read(&h).unwrap_err();
        assert_eq!((e.code(), e.message.contains("without an id of its own")), ("bad_state", true), "{h:?}");
    }
    for h in [anthropic(json!([tool_use(Some("a")), tool_use(Some("b"))])), openai(&[Some("a"), Some("b")]), gemini(&["", ""])] {
        assert!(read(&h).is_ok(), "{h:?}");
    }
    // The same id in two different turns is each turn's own business.
    let two_turns: Vec<_> = [anthropic(json!([tool_use(Some("a"))])), anthropic(json!([tool_use(Some("a"))]))].concat();
    assert!(read(&two_turns).is_ok());
    // A resume from such a history fails before anything runs.
    let p = Scripted::default();
    let h = anthropic(json!([tool_use(Some("a")), tool_use(Some("a"))]));
    let e = run(Style::Anthropic, vec![native("t")], &p, &Tools::default(), None, &h, "x").unwrap_err();
    assert_eq!(e.code(), "bad_state");
    assert!(p.requests.borrow().is_empty());
}
