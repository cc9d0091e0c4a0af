//! The JSON the edge hands to JS is written by hand (`to_value` / `to_json`) so that no serde
//! serializer is linked into the wasm; here each must equal what the serde derives write.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::events::StreamEvent;
use toolnexus_wasm::message::Usage;
use toolnexus_wasm::retry::ErrorInfo;
use toolnexus_wasm::suspend::Request;

fn same<T: serde::Serialize>(hand: String, t: &T) {
    assert_eq!(hand, serde_json::to_string(t).unwrap());
}

#[test]
fn events_metrics_and_error_infos_are_what_serde_writes() {
    let p = Scripted::new(vec![text_in(toolnexus_wasm::provider::Style::Anthropic, "hi \"there\"")]);
    let result = run(toolnexus_wasm::provider::Style::Anthropic, vec![], &p, &Tools::default(), None, &[], "q").unwrap();
    let request = Request {
        id: "p".into(),
        kind: "tool_call".into(),
        prompt: "x".into(),
        data: json!({"calls": []}).as_object().cloned(),
        ..Request::default()
    };
    for e in [
        StreamEvent::Text { delta: "a\n\"b\"".into() },
        StreamEvent::ToolCall { id: "c".into(), name: "n".into(), args: json!({"x": [1, 2.5, null]}) },
        StreamEvent::ToolResult { id: "c".into(), name: "n".into(), output: "o".into(), is_error: true, parts: vec![] },
        StreamEvent::ToolResult {
            id: "c".into(),
            name: "n".into(),
            output: "o".into(),
            is_error: false,
            parts: vec![
                toolnexus_wasm::part::Part::Text("t".into()),
                toolnexus_wasm::part::Part::Image(toolnexus_wasm::part::Image {
                    source: "iVBO".into(),
                    inline: true,
                    media_type: "image/png".into(),
                }),
            ],
        },
        StreamEvent::Pending { request },
        StreamEvent::Usage {
            usage: Usage { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, reasoning_tokens: 0, ..Usage::default() },
        },
        StreamEvent::Done { result: Box::new(result) },
    ] {
        same(e.to_json(), &e);
    }
    // Metric events are built in JS from their fields (`metric` in host.js); their members are
    // pinned by metrics.rs's serde test and tests/js/metrics.test.mjs.
    for i in [
        ErrorInfo { error: "e".into(), status: Some(429), attempt: 1, retryable: true },
        ErrorInfo { error: "e".into(), status: None, attempt: 0, retryable: false },
    ] {
        same(toolnexus_wasm::json::to_text(&i.to_value()), &i);
    }
    let _: Value = serde_json::from_str(&StreamEvent::Text { delta: String::new() }.to_json()).unwrap();
}
