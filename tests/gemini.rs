//! The Gemini style (contract Part 1 rule 12): request shape, recorded replies, calls without
//! ids, blocked and empty candidates, usage, streams split at every byte, schema conversion.

mod common;
use common::*;
use serde_json::json;
use toolnexus_wasm::provider::{gemini_schema, parse_response, HttpResponse, StreamAssembler, Style};
use toolnexus_wasm::run::Status;
use toolnexus_wasm::tool::{ToolResult, ToolSpec};

fn weather_tool() -> Vec<ToolSpec> {
    let mut t = native("get_weather");
    t.input_schema =
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false});
    vec![t]
}

#[test]
fn requests_follow_the_generate_content_wire_format() {
    let p = Scripted::new(vec![fixture("gemini/tool_calls.json"), fixture("gemini/final_text.json")]);
    let tools = Tools::default().with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap())));
    let r = run(Style::Gemini, weather_tool(), &p, &tools, None, &[], "weather in Paris and Tokyo?").unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.text, "It is sunny in Paris and sunny in Tokyo.");
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens), (181, 33, 214));
    let req = &p.requests.borrow()[0];
    assert_eq!(req.url, "http://127.0.0.1:9/v1/models/test-model:generateContent", "a base ending in /v1 keeps its version");
    assert!(req.headers.contains(&("x-goog-api-key".into(), "sk-test-key".into())));
    let body = req.json();
    assert_eq!(body["systemInstruction"], json!({"parts": [{"text": "You are terse."}]}));
    assert_eq!(body["contents"], json!([{"role": "user", "parts": [{"text": "weather in Paris and Tokyo?"}]}]));
    let decl = &body["tools"][0]["functionDeclarations"][0];
    assert_eq!(decl["name"], "get_weather");
    assert_eq!(
        decl["parameters"],
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        "additionalProperties dropped"
    );
    assert_eq!(body["toolConfig"]["functionCallingConfig"]["mode"], "AUTO");
    // calls without ids got stable ones, and the responses carry them back with the name
    assert_eq!(r.tool_calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["call_1_0", "call_1_1"]);
    let second = p.requests.borrow()[1].json();
    assert_eq!(
        second["contents"][1]["parts"][1],
        json!({"functionCall": {"id": "call_1_0", "name": "get_weather", "args": {"city": "Paris"}}})
    );
    assert_eq!(
        second["contents"][2],
        json!({"role": "user", "parts": [
        {"functionResponse": {"id": "call_1_0", "name": "get_weather", "response": {"output": "sunny in Paris"}}},
        {"functionResponse": {"id": "call_1_1", "name": "get_weather", "response": {"output": "sunny in Tokyo"}}}]})
    );
    assert!(balanced(second["contents"].as_array().unwrap()));
}

#[test]
fn blocked_and_empty_replies_are_typed_errors() {
    let cfg = config(Style::Gemini).provider;
    let parse = |v: serde_json::Value| parse_response(&cfg, &HttpResponse { status: 200, body: v.to_string(), retry_after: None });
    let e = parse(fixture("gemini/safety_blocked.json")).unwrap_err();
    assert_eq!(e.code(), "provider_error");
    assert_eq!(e.message, "Gemini withheld the answer: finishReason SAFETY");
    let e = parse(fixture("gemini/prompt_blocked.json")).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("provider_error", "Gemini blocked the prompt: SAFETY"));
    assert_eq!(parse(json!({"candidates": []})).unwrap_err().code(), "provider_parse");
    assert_eq!(parse(json!({"usageMetadata": {}})).unwrap_err().code(), "provider_parse");
    assert_eq!(
        parse(json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]})).unwrap_err().code(),
        "provider_parse"
    );
    let e = parse(json!({"error": {"code": 400, "message": "API key not valid", "status": "INVALID_ARGUMENT"}})).unwrap_err();
    assert_eq!(e.code(), "provider_error");
    // a reply that was cut short for length still counts
    assert_eq!(
        parse(json!({"candidates": [{"content": {"parts": [{"text": "partial"}]}, "finishReason": "MAX_TOKENS"}]})).unwrap().turn.text,
        "partial"
    );
}

#[test]
fn recorded_streams_split_at_every_byte_give_the_same_reply() {
    let cfg = config(Style::Gemini).provider;
    for name in ["stream_text.sse", "stream_tool_calls.sse"] {
        let body = fixture_text(&format!("gemini/{name}"));
        let bytes = body.as_bytes();
        let whole = {
            let mut a = StreamAssembler::new(&cfg);
            a.push(bytes, &mut Vec::new()).unwrap();
            a.finish().unwrap()
        };
        for cut in 0..=bytes.len() {
            let mut a = StreamAssembler::new(&cfg);
            let mut deltas = Vec::new();
            a.push(&bytes[..cut], &mut deltas).unwrap();
            a.push(&bytes[cut..], &mut deltas).unwrap();
            let text = toolnexus_wasm::provider::Delta::join(&deltas, false);
            assert_eq!(text, whole.turn.text, "{name} split at {cut}");
            assert_eq!(a.finish().unwrap(), whole, "{name} split at {cut}");
        }
        // cut before the last event's end: truncated
        let last = body.rfind("data:").unwrap();
        let mut a = StreamAssembler::new(&cfg);
        a.push(&bytes[..last + 10], &mut Vec::new()).unwrap();
        assert_eq!(a.finish().unwrap_err().code(), "provider_parse", "{name}");
    }
    let mut a = StreamAssembler::new(&cfg);
    a.push(fixture_text("gemini/stream_tool_calls.sse").as_bytes(), &mut Vec::new()).unwrap();
    let r = a.finish().unwrap();
    assert_eq!(r.turn.calls.len(), 2);
    assert_eq!(r.turn.calls[1].arguments, "{\"city\":\"Tokyo\"}");
    assert_eq!(r.usage.total_tokens, 83);
}

#[test]
fn a_streamed_gemini_run_uses_stream_generate_content() {
    let t = Chunked::default();
    t.push_split(&fixture_text("gemini/stream_tool_calls.sse"), 40);
    t.push_split(&fixture_text("gemini/stream_text.sse"), 100);
    let tools = Tools::default().with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap())));
    let host = Host::default();
    let r = run_full(Style::Gemini, true, weather_tool(), &t, &tools, None, &host, vec![], "weather?").unwrap();
    assert_eq!(r.text, "It is sunny in Paris and Tokyo — ☀️.");
    assert_eq!(t.requests.borrow()[0].url, "http://127.0.0.1:9/v1/models/test-model:streamGenerateContent?alt=sse");
    assert_eq!(&host.kinds()[host.kinds().len() - 2..], ["usage", "done"]);
}

#[test]
fn schemas_are_cut_to_what_gemini_accepts() {
    let s = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
        "properties": {
            "mode": {"const": "fast"},
            "note": {"type": ["string", "null"], "default": "x"},
            "tags": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer", "examples": [1]}]}
        }
    });
    assert_eq!(
        gemini_schema(&s),
        json!({
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast"]},
                "note": {"nullable": true, "type": "string"},
                "tags": {"type": "array", "items": {"type": "object", "properties": {}}},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            }
        })
    );
}

#[test]
fn a_conversation_moves_through_all_three_styles() {
    let tools = Tools::default().with("get_weather", |_, _| ToolResult::ok("sunny"));
    let p1 = Scripted::new(vec![oa_calls(&[("c1", "get_weather", "{\"city\":\"Oslo\"}")]), oa_text("sunny in Oslo")]);
    let a = run(Style::OpenAi, weather_tool(), &p1, &tools, None, &[], "Oslo?").unwrap();
    let p2 = Scripted::new(vec![gm_calls(&[("", "get_weather", json!({"city": "Rome"}))]), gm_text("sunny in Rome")]);
    let b = run(Style::Gemini, weather_tool(), &p2, &tools, None, &a.messages(), "Rome?").unwrap();
    let sent = p2.requests.borrow()[0].json();
    assert_eq!(sent["contents"][1]["parts"][0]["functionCall"], json!({"id": "c1", "name": "get_weather", "args": {"city": "Oslo"}}));
    assert_eq!(sent["contents"][2]["parts"][0]["functionResponse"]["name"], "get_weather", "names recovered for OpenAI results");
    let p3 = Scripted::new(vec![an_text("and Lima?")]);
    let c = run(Style::Anthropic, weather_tool(), &p3, &tools, None, &b.messages(), "Lima?").unwrap();
    let last = p3.requests.borrow()[0].json();
    assert!(balanced(last["messages"].as_array().unwrap()));
    assert_eq!(last["messages"].as_array().unwrap().len(), 9);
    assert_eq!(c.status, Status::Done);
}

/// A Gemini user content whose only text is empty is a user turn, kept on read (found by the
/// `dialect` fuzz target: it was dropped, so render → read lost a message).
#[test]
fn an_empty_gemini_user_text_is_kept() {
    use toolnexus_wasm::dialect::{read, render};
    use toolnexus_wasm::message::Message;
    let h = vec![
        json!({"role": "user", "parts": [{"text": ""}]}),
        json!({"role": "model", "parts": [{"text": "ok"}]}),
        json!({"role": "user", "parts": []}),
    ];
    let m = read(&h).unwrap();
    assert_eq!(m.len(), 3, "{m:?}");
    assert!(matches!(&m[0], Message::User(t) if t.is_empty()));
    assert!(matches!(&m[2], Message::User(t) if t.is_empty()));
    assert_eq!(read(&render(&m, Style::Gemini)).unwrap(), m, "render → read keeps it");
    // A content of only function responses is results, not also an empty user turn.
    let h = vec![
        json!({"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "t", "args": {}}}]}),
        json!({"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "t", "response": {"output": "x"}}}]}),
    ];
    assert_eq!(read(&h).unwrap().len(), 2);
}
