//! Provider-neutral checks of what every adapter must do alike: token counts the provider
//! sends are not trusted (they saturate, in whole replies and in streams), a stream's usage
//! reports are running totals, a reply kind the dialect does not carry is never an empty success
//! (docs/decisions/wire-replies.md), and Gemini's withheld-answer reasons are one list for the
//! parser and for `translate`.

use super::*;
use crate::message::Usage;
use serde_json::json;

fn cfg(style: Style) -> ProviderConfig {
    ProviderConfig { base_url: "http://x".into(), style, model: "m".into(), api_key: None, headers: vec![] }
}

fn reply(style: Style, body: serde_json::Value) -> Result<ModelReply> {
    parse_response(&cfg(style), &HttpResponse { status: 200, body: body.to_string(), retry_after: None })
}

fn streamed(style: Style, events: &[serde_json::Value], tail: &str) -> Result<ModelReply> {
    let mut a = StreamAssembler::new(&cfg(style));
    for e in events {
        a.push(format!("data: {e}\n\n").as_bytes(), &mut Vec::new())?;
    }
    a.push(tail.as_bytes(), &mut Vec::new())?;
    a.finish()
}

const MAX: u64 = u64::MAX;
const SATURATED: Usage =
    Usage { prompt_tokens: MAX, completion_tokens: 7, total_tokens: MAX, reasoning_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

#[test]
fn whole_replies_with_u64_max_token_counts_saturate() {
    let oa = json!({"choices": [{"message": {"content": "hi"}}], "usage": {"prompt_tokens": MAX, "completion_tokens": 7}});
    assert_eq!(reply(Style::OpenAi, oa).unwrap().usage, SATURATED);
    let an = json!({"content": [{"type": "text", "text": "hi"}], "usage": {"input_tokens": MAX, "output_tokens": 7}});
    assert_eq!(reply(Style::Anthropic, an).unwrap().usage, SATURATED);
    let gm = json!({"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
                    "usageMetadata": {"promptTokenCount": MAX, "candidatesTokenCount": 7}});
    assert_eq!(reply(Style::Gemini, gm).unwrap().usage, SATURATED);
}

#[test]
fn streams_with_u64_max_token_counts_saturate() {
    // OpenAI usage chunks are running totals: stated twice, counted once.
    let usage = json!({"choices": [], "usage": {"prompt_tokens": MAX, "completion_tokens": 7, "total_tokens": MAX}});
    let stop = json!({"choices": [{"delta": {"content": "hi"}, "finish_reason": "stop"}]});
    let r = streamed(Style::OpenAi, &[stop, usage.clone(), usage], "data: [DONE]\n\n").unwrap();
    assert_eq!(r.usage, SATURATED);

    // Anthropic's cumulative counts: the total is their sum.
    let events = [
        json!({"type": "message_start", "message": {"usage": {"input_tokens": MAX, "output_tokens": 0}}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 7}}),
        json!({"type": "message_stop"}),
    ];
    assert_eq!(streamed(Style::Anthropic, &events, "").unwrap().usage, SATURATED);

    let gm = json!({"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
                    "usageMetadata": {"promptTokenCount": MAX, "candidatesTokenCount": 7}});
    assert_eq!(streamed(Style::Gemini, &[gm], "").unwrap().usage, SATURATED);
}

/// Servers that send the running usage on every chunk (xAI's chat stream did), and ones that end
/// with an empty `usage: {}`: the last stated total, not the sum.
#[test]
fn usage_on_every_chunk_is_the_running_total() {
    let chunk = |text: &str, n: u64| json!({"choices": [{"delta": {"content": text}}], "usage": {"prompt_tokens": 38, "completion_tokens": n, "total_tokens": 38 + n}});
    let stop = json!({"choices": [{"delta": {}, "finish_reason": "stop"}], "usage": {}});
    let r = streamed(Style::OpenAi, &[chunk("Coca", 1), chunk("-Cola", 2), chunk(" is", 3), stop], "data: [DONE]\n\n").unwrap();
    assert_eq!(r.turn.text, "Coca-Cola is");
    assert_eq!(r.usage, Usage { prompt_tokens: 38, completion_tokens: 3, total_tokens: 41, reasoning_tokens: 0, ..Usage::default() });
    // Gemini restates its counts on every event; the last event's stand (its prompt count may
    // settle lower than an earlier event's, as recorded in tests/fixtures/wire/gemini/text_stream.sse).
    let gm = |text: &str, p: u64, c: u64| json!({"candidates": [{"content": {"parts": [{"text": text}]}}], "usageMetadata": {"promptTokenCount": p, "candidatesTokenCount": c}});
    let mut last = gm("b", 13, 8);
    last["candidates"][0]["finishReason"] = json!("STOP");
    assert_eq!(streamed(Style::Gemini, &[gm("a", 15, 0), last], "").unwrap().usage.prompt_tokens, 13);
}

/// Chat completions' tool calls of a type other than `function` (`custom`: a free-form tool),
/// whole and streamed: a typed error naming the kind, not a call read without a name.
#[test]
fn openai_chat_calls_of_another_type_are_an_error_naming_it() {
    let custom = json!({"id": "call_1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}});
    let whole = json!({"choices": [{"message": {"content": null, "tool_calls": [custom]}, "finish_reason": "tool_calls"}]});
    let e = reply(Style::OpenAi, whole).unwrap_err();
    assert_eq!(e.code(), "provider_parse");
    assert!(e.message.contains("\"custom\" call") && e.message.contains("responses style"), "{}", e.message);
    let mut delta = custom.clone();
    delta["index"] = json!(0);
    let chunk = json!({"choices": [{"delta": {"tool_calls": [delta]}}]});
    let e = streamed(Style::OpenAi, &[chunk], "data: [DONE]\n\n").unwrap_err();
    assert!(e.message.contains("\"custom\" call"), "{}", e.message);
    // A call without a `type` (servers that omit it) is a function call.
    let bare = json!({"choices": [{"message": {"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]}}]});
    assert_eq!(reply(Style::OpenAi, bare).unwrap().turn.calls[0].name, "f");
}

/// Gemini parts other than text, thoughts and calls (code the model ran, an image) are kept
/// verbatim and go back to the model that made them; a reply of only such parts is an error
/// naming them, not an empty answer.
#[test]
fn gemini_parts_of_other_kinds_are_kept_and_never_an_empty_answer() {
    let code = json!({"executableCode": {"language": "PYTHON", "code": "print(1)"}});
    let result = json!({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}});
    let only = json!({"candidates": [{"content": {"role": "model", "parts": [code, result]}, "finishReason": "STOP"}]});
    let e = reply(Style::Gemini, only.clone()).unwrap_err();
    assert_eq!(e.code(), "provider_parse");
    assert!(e.message.contains("executableCode, codeExecutionResult"), "{}", e.message);
    assert!(streamed(Style::Gemini, &[only], "").unwrap_err().message.contains("executableCode"));

    let with_text =
        json!({"candidates": [{"content": {"role": "model", "parts": [code, result, {"text": "It prints 1."}]}, "finishReason": "STOP"}]});
    let r = reply(Style::Gemini, with_text).unwrap();
    assert_eq!(r.turn.text, "It prints 1.");
    let messages = vec![crate::message::Message::User("Run it.".into()), crate::message::Message::Assistant(r.turn)];
    // The request to the same model, and the state read back, keep both parts in place.
    let body = build_request(
        &cfg(Style::Gemini),
        &ModelRequest { system: "", messages: &messages, tools: &[], stream: false, tool_choice: ToolChoice::Omit, max_tokens: None },
    )
    .json();
    assert_eq!(body["contents"][1]["parts"], json!([code, result, {"text": "It prints 1."}]));
    let state = gemini::dialect::render(&messages, None);
    let back = crate::dialect::read(&state).unwrap();
    assert_eq!(gemini::dialect::render(&back, None), state);
}

#[test]
fn every_withheld_gemini_reason_is_a_provider_error_and_a_content_filter() {
    for r in ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"] {
        let empty = json!({"candidates": [{"content": {"parts": []}, "finishReason": r}]});
        assert_eq!(reply(Style::Gemini, empty).unwrap_err().code(), "provider_error", "{r}");
        assert_eq!(gemini_finish_reason(r), Some("content_filter"), "{r}");
    }
    assert_eq!(gemini_finish_reason("MAX_TOKENS"), Some("length"));
    assert_eq!(gemini_finish_reason("STOP"), None);
}

fn fixture(path: &str) -> String {
    let p = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn gemini_replies_and_streams_cut_at_every_byte_are_errors_not_panics() {
    for name in ["tool_calls.json", "final_text.json"] {
        let full = fixture(&format!("gemini/{name}"));
        for cut in (0..full.len()).filter(|c| full.is_char_boundary(*c)) {
            let r = parse_response(&cfg(Style::Gemini), &HttpResponse { status: 200, body: full[..cut].to_string(), retry_after: None });
            assert_eq!(r.unwrap_err().code(), "provider_parse", "{name} cut at {cut}");
        }
    }
    for name in ["stream_text.sse", "stream_tool_calls.sse"] {
        let body = fixture(&format!("gemini/{name}"));
        // Until the line ending after the event carrying the finishReason, the stream is cut.
        for cut in 0..=body.trim_end().len() {
            let mut a = StreamAssembler::new(&cfg(Style::Gemini));
            let r = a.push(&body.as_bytes()[..cut], &mut Vec::new()).and_then(|_| a.finish());
            assert_eq!(r.unwrap_err().code(), "provider_parse", "{name} cut at {cut}");
        }
    }
}

/// The OpenAI body is written by hand; it must be the bytes serde_json gives for the same
/// fields in the same order (the serde view still renders `messages` for results and hooks).
#[test]
fn openai_body_is_what_serde_json_writes() {
    use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
    use crate::tool::ToolSpec;
    let call = |id: &str, args: &str| ToolCall { id: id.into(), name: "add".into(), arguments: args.into(), signature: None };
    let out = |id: &str, o: &str| ToolOutput { call_id: id.into(), name: "add".into(), output: o.into(), is_error: false, parts: vec![] };
    let messages = vec![
        Message::System("be \"brief\"\n".into()),
        Message::User("héllo 👋 \u{1}".into()),
        Message::Assistant(AssistantTurn { text: String::new(), calls: vec![call("c1", r#"{"a":1}"#), call("c2", "")], reasoning: None }),
        Message::Tool(vec![out("c1", "2"), out("c2", "tab\there")]),
        Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![], reasoning: None }),
    ];
    let tool = ToolSpec {
        name: "add".into(),
        description: "adds \\ numbers".into(),
        input_schema: json!({"type": "object", "properties": {"a": {"type": "number", "minimum": -1.5}}}),
        source: Default::default(),
        agent: None,
    };
    let tools = vec![tool.clone()];
    let choice = json!({"type": "function", "function": {"name": "add"}});
    let view = serde_json::Value::Array(openai::dialect::render(&messages, None));
    // The rendered fields and their order, as the serde view that rendered them before wrote them.
    let rendered = concat!(
        r#"[{"role":"system","content":"be \"brief\"\n"},{"role":"user","content":"héllo 👋 \u0001"},"#,
        r#"{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}},"#,
        r#"{"id":"c2","type":"function","function":{"name":"add","arguments":""}}]},{"role":"tool","tool_call_id":"c1","content":"2"},"#,
        r#"{"role":"tool","tool_call_id":"c2","content":"tab\there"},{"role":"assistant","content":"done"}]"#,
    );
    assert_eq!(serde_json::to_string(&view).unwrap(), rendered);
    let decl =
        json!([{"type": "function", "function": {"name": "add", "description": "adds \\ numbers", "parameters": tool.input_schema}}]);
    let check = |tools: &[ToolSpec], tool_choice: ToolChoice, max_tokens: Option<u64>, stream: bool, want: serde_json::Value| {
        let req = ModelRequest { system: "", messages: &messages, tools, stream, tool_choice, max_tokens };
        assert_eq!(build_request(&cfg(Style::OpenAi), &req).body, serde_json::to_string(&want).unwrap());
    };
    check(&tools, ToolChoice::Auto, None, false, json!({"model": "m", "messages": view, "tools": decl, "tool_choice": "auto"}));
    check(
        &[],
        ToolChoice::Auto,
        None,
        true,
        json!({"model": "m", "messages": view, "stream": true, "stream_options": {"include_usage": true}}),
    );
    check(
        &tools,
        ToolChoice::Given(&choice),
        Some(7),
        false,
        json!({"model": "m", "messages": view, "tools": decl, "tool_choice": choice, "max_tokens": 7}),
    );
    check(&tools, ToolChoice::Omit, None, false, json!({"model": "m", "messages": view, "tools": decl}));
    let empty = ModelRequest { system: "", messages: &[], tools: &[], stream: false, tool_choice: ToolChoice::Omit, max_tokens: None };
    assert_eq!(build_request(&cfg(Style::OpenAi), &empty).body, r#"{"model":"m","messages":[]}"#);
}

/// The Gemini body around the serde view of `contents` is written by hand; it must be the bytes
/// serde_json gives for the same fields in the same order.
#[test]
fn gemini_body_is_what_serde_json_writes() {
    use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
    use crate::tool::ToolSpec;
    let messages = vec![
        Message::System("sys \"one\"".into()),
        Message::User("hi\n".into()),
        Message::Assistant(AssistantTurn {
            text: String::new(),
            calls: vec![ToolCall { id: "c1".into(), name: "add".into(), arguments: r#"{"a":1}"#.into(), signature: None }],
            reasoning: None,
        }),
        Message::Tool(vec![ToolOutput { call_id: "c1".into(), name: "add".into(), output: "2".into(), is_error: false, parts: vec![] }]),
    ];
    let schema = json!({"type": ["number", "null"], "additionalProperties": false});
    let tools = vec![ToolSpec {
        name: "add".into(),
        description: "adds".into(),
        input_schema: schema.clone(),
        source: Default::default(),
        agent: None,
    }];
    let contents = serde_json::Value::Array(gemini::dialect::render(&messages, None));
    let system = json!({"parts": [{"text": "be brief\n\nsys \"one\""}]});
    let decl = json!([{"functionDeclarations": [{"name": "add", "description": "adds", "parameters": gemini_schema(&schema)}]}]);
    let forced = json!({"function": {"name": "add"}});
    let (none, any) = (json!("none"), json!("required"));
    let check = |tools: &[ToolSpec], tool_choice: ToolChoice, max_tokens: Option<u64>, system: &str, want: serde_json::Value| {
        let req = ModelRequest { system, messages: &messages, tools, stream: false, tool_choice, max_tokens };
        assert_eq!(build_request(&cfg(Style::Gemini), &req).body, serde_json::to_string(&want).unwrap());
    };
    check(
        &tools,
        ToolChoice::Auto,
        None,
        "be brief",
        json!({"contents": contents, "systemInstruction": system, "tools": decl, "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}}),
    );
    check(
        &tools,
        ToolChoice::Given(&forced),
        Some(9),
        "",
        json!({"contents": contents, "systemInstruction": {"parts": [{"text": "sys \"one\""}]}, "tools": decl, "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["add"]}}, "generationConfig": {"maxOutputTokens": 9}}),
    );
    check(
        &tools,
        ToolChoice::Given(&none),
        None,
        "be brief",
        json!({"contents": contents, "systemInstruction": system, "tools": decl, "toolConfig": {"functionCallingConfig": {"mode": "NONE"}}}),
    );
    check(
        &tools,
        ToolChoice::Given(&any),
        None,
        "be brief",
        json!({"contents": contents, "systemInstruction": system, "tools": decl, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}),
    );
    check(&[], ToolChoice::Auto, None, "be brief", json!({"contents": contents, "systemInstruction": system}));
    let bare = ModelRequest { system: "", messages: &[], tools: &[], stream: true, tool_choice: ToolChoice::Omit, max_tokens: None };
    assert_eq!(build_request(&cfg(Style::Gemini), &bare).body, r#"{"contents":[]}"#);
}

/// The Anthropic body around the serde view of `messages` is written by hand; it must be the
/// bytes serde_json gives for the same fields in the same order.
#[test]
fn anthropic_body_is_what_serde_json_writes() {
    use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
    use crate::tool::ToolSpec;
    let messages = vec![
        Message::User("hi \"there\"".into()),
        Message::Assistant(AssistantTurn {
            text: "ok".into(),
            calls: vec![ToolCall { id: "c1".into(), name: "add".into(), arguments: r#"{"a":1}"#.into(), signature: None }],
            reasoning: None,
        }),
        Message::Tool(vec![ToolOutput { call_id: "c1".into(), name: "add".into(), output: "2".into(), is_error: true, parts: vec![] }]),
    ];
    let schema = json!({"type": "object", "properties": {"a": {"type": "number"}}});
    let tools = vec![ToolSpec {
        name: "add".into(),
        description: "adds\n".into(),
        input_schema: schema.clone(),
        source: Default::default(),
        agent: None,
    }];
    let view = serde_json::Value::Array(anthropic::dialect::render(&messages, None));
    let decl = json!([{"name": "add", "description": "adds\n", "input_schema": schema}]);
    let forced = json!({"function": {"name": "add"}});
    let (none, any, auto) = (json!("none"), json!("any"), json!("auto"));
    let check =
        |tools: &[ToolSpec], tool_choice: ToolChoice, max_tokens: Option<u64>, stream: bool, system: &str, want: serde_json::Value| {
            let req = ModelRequest { system, messages: &messages, tools, stream, tool_choice, max_tokens };
            assert_eq!(build_request(&cfg(Style::Anthropic), &req).body, serde_json::to_string(&want).unwrap());
        };
    check(
        &tools,
        ToolChoice::Auto,
        None,
        false,
        "sys",
        json!({"model": "m", "max_tokens": 4096, "messages": view, "system": "sys", "tools": decl}),
    );
    check(
        &tools,
        ToolChoice::Given(&forced),
        Some(5),
        true,
        "",
        json!({"model": "m", "max_tokens": 5, "messages": view, "tools": decl, "stream": true, "tool_choice": {"type": "tool", "name": "add"}}),
    );
    check(
        &tools,
        ToolChoice::Given(&none),
        None,
        false,
        "",
        json!({"model": "m", "max_tokens": 4096, "messages": view, "tools": decl, "tool_choice": {"type": "none"}}),
    );
    check(
        &tools,
        ToolChoice::Given(&any),
        None,
        false,
        "",
        json!({"model": "m", "max_tokens": 4096, "messages": view, "tools": decl, "tool_choice": {"type": "any"}}),
    );
    check(&[], ToolChoice::Given(&auto), None, false, "", json!({"model": "m", "max_tokens": 4096, "messages": view}));
}

/// What the Anthropic and Gemini renders give (the request bodies write the same values): their
/// fields and order, pinned as the serde views that rendered them before wrote them.
#[test]
fn anthropic_and_gemini_renders_keep_their_fields_and_order() {
    use crate::message::{AssistantTurn, Message, ToolCall, ToolOutput};
    let call = |id: &str, args: &str| ToolCall { id: id.into(), name: "add".into(), arguments: args.into(), signature: None };
    let out =
        |id: &str, o: &str, e: bool| ToolOutput { call_id: id.into(), name: "add".into(), output: o.into(), is_error: e, parts: vec![] };
    let messages = vec![
        Message::System("sys".into()),
        Message::User("héllo \"x\"".into()),
        Message::Assistant(AssistantTurn {
            text: String::new(),
            calls: vec![call("c1", r#"{"a":1.5,"b":[true,null]}"#), call("c2", "not json")],
            reasoning: None,
        }),
        Message::Tool(vec![out("c1", "2", false), out("c2", "bad\n", true)]),
        Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![], reasoning: None }),
        Message::Assistant(AssistantTurn { text: "both".into(), calls: vec![call("c3", "{}")], reasoning: None }),
    ];
    let text = |v: Vec<serde_json::Value>| serde_json::to_string(&v).unwrap();
    assert_eq!(
        text(anthropic::dialect::render(&messages, None)),
        concat!(
            r#"[{"role":"user","content":"héllo \"x\""},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"add","input":{"a":1.5,"b":[true,null]}},"#,
            r#"{"type":"tool_use","id":"c2","name":"add","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"2","is_error":false},"#,
            r#"{"type":"tool_result","tool_use_id":"c2","content":"bad\n","is_error":true}]},{"role":"assistant","content":[{"type":"text","text":"done"}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"both"},{"type":"tool_use","id":"c3","name":"add","input":{}}]}]"#,
        )
    );
    assert_eq!(
        text(gemini::dialect::render(&messages, None)),
        concat!(
            r#"[{"role":"user","parts":[{"text":"héllo \"x\""}]},{"role":"model","parts":[{"functionCall":{"id":"c1","name":"add","args":{"a":1.5,"b":[true,null]}}},"#,
            r#"{"functionCall":{"id":"c2","name":"add","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"add","response":{"output":"2"}}},"#,
            r#"{"functionResponse":{"id":"c2","name":"add","response":{"error":"bad\n"}}}]},{"role":"model","parts":[{"text":"done"}]},"#,
            r#"{"role":"model","parts":[{"text":"both"},{"functionCall":{"id":"c3","name":"add","args":{}}}]}]"#,
        )
    );
}

fn request_for(style: Style, base: &str, model: &str, stream: bool) -> HttpRequest {
    let cfg = ProviderConfig { base_url: base.into(), model: model.into(), api_key: Some("key-123".into()), ..cfg(style) };
    let req = ModelRequest { system: "", messages: &[], tools: &[], stream, tool_choice: ToolChoice::Auto, max_tokens: None };
    build_request(&cfg, &req)
}

#[test]
fn the_model_enters_a_url_only_for_gemini_and_then_as_one_encoded_segment() {
    // OpenAI and Anthropic: the URL is the base's, whatever the model; the model is in the body.
    for (style, base, url) in [
        (Style::OpenAi, "https://h/v1/", "https://h/v1/chat/completions"),
        (Style::Anthropic, "https://h", "https://h/v1/messages"),
        (Style::Anthropic, "https://h/v1", "https://h/v1/messages"),
    ] {
        let r = request_for(style, base, "vendor/../x?y#z", false);
        assert_eq!(r.url, url, "{style:?}");
        assert_eq!(r.json()["model"], "vendor/../x?y#z", "{style:?}");
    }
    // Gemini: one path segment, every byte but the unreserved ones percent-encoded.
    let url = |base: &str, model: &str, stream: bool| request_for(Style::Gemini, base, model, stream).url;
    assert_eq!(url("https://h", "gemini-2.0-flash", false), "https://h/v1beta/models/gemini-2.0-flash:generateContent");
    assert_eq!(url("https://h/v1/", "m", true), "https://h/v1/models/m:streamGenerateContent?alt=sse");
    assert_eq!(url("https://h", "a b%c:d~é", false), "https://h/v1beta/models/a%20b%25c%3Ad~%C3%A9:generateContent");
    // Even unchecked, nothing a model holds can end the segment.
    let leaky = url("https://h", "../x/y?k#f\\z", false);
    assert_eq!(leaky, "https://h/v1beta/models/..%2Fx%2Fy%3Fk%23f%5Cz:generateContent");
    // …and `check_model` refuses what would still mean something (`..`, control characters) before any request.
    for (style, model, ok) in [
        (Style::Gemini, "gemini-1.5-pro", true),
        (Style::Gemini, "..", false),
        (Style::Gemini, "a..b", false),
        (Style::Gemini, "models/x", false),
        (Style::Gemini, "x\u{7f}", false),
        (Style::OpenAi, "openai/gpt-4o", true),
        (Style::OpenAi, "x\ty/..", true),
        (Style::Anthropic, "claude-3-5-haiku", true),
        (Style::Anthropic, "a\u{0}?#", true),
    ] {
        let checked = super::check_model(style, model);
        assert_eq!(checked.is_ok(), ok, "{style:?} {model:?}");
        assert!(checked.err().map_or(true, |e| e.code() == "bad_input"));
    }
}

#[test]
fn requests_never_follow_a_redirect_and_a_redirect_is_refused() {
    for style in [Style::OpenAi, Style::Anthropic, Style::Gemini] {
        let head: serde_json::Value =
            serde_json::from_str(&crate::driver::request_head(&request_for(style, "https://h", "m", false))).unwrap();
        assert_eq!(head["redirect"], "manual", "{style:?}");
        assert_eq!(head["method"], "POST");
        assert!(head["headers"].as_object().unwrap().values().any(|v| v.as_str().unwrap().contains("key-123")), "{style:?}");
    }
    for status in [301, 302, 303, 307, 308] {
        let e = status_error(status, "moved to https://elsewhere key-123", Some("key-123"));
        assert_eq!((e.code(), e.status), ("provider_http", Some(status)));
        let mut want = String::from("LLM ");
        crate::json::write_u64(&mut want, u64::from(status));
        assert_eq!(e.message, want + ": redirect refused");
        let resp = HttpResponse { status, body: "{}".into(), retry_after: None };
        assert_eq!(parse_response(&cfg(Style::OpenAi), &resp).unwrap_err().status, Some(status));
    }
    assert_eq!(status_error(404, "nope", None).message, "LLM 404: nope");
}
