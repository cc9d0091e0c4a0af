//! Streaming (contract §a.6, §c.8, §f SSE, Part 1 rule 14): recorded streams split at every byte,
//! truncation, provider error events, cumulative Anthropic usage, and the event order of the one
//! driver.

mod common;
use common::*;
use serde_json::json;
use toolnexus_wasm::provider::{Delta, StreamAssembler, Style};
use toolnexus_wasm::run::Status;
use toolnexus_wasm::tool::ToolResult;

fn assemble(style: Style, chunks: &[&[u8]]) -> (Vec<String>, toolnexus_wasm::Result<toolnexus_wasm::provider::ModelReply>) {
    let mut a = StreamAssembler::new(&config(style).provider);
    let mut deltas = Vec::new();
    let texts = |d: Vec<Delta>| d.into_iter().filter_map(|x| if let Delta::Text(t) = x { Some(t) } else { None }).collect();
    for c in chunks {
        if let Err(e) = a.push(c, &mut deltas) {
            return (texts(deltas), Err(e));
        }
    }
    (texts(deltas), a.finish())
}

#[test]
fn recorded_streams_give_the_same_reply_at_every_split_point() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic")] {
        for name in ["stream_tool_calls.sse", "stream_text.sse"] {
            let body = fixture_text(&format!("{dir}/{name}"));
            let bytes = body.as_bytes();
            let (deltas, whole) = assemble(style, &[bytes]);
            let whole = whole.unwrap();
            for cut in 0..=bytes.len() {
                let (d, r) = assemble(style, &[&bytes[..cut], &bytes[cut..]]);
                assert_eq!(r.as_ref().unwrap(), &whole, "{dir}/{name} split at {cut}");
                assert_eq!(d.concat(), deltas.concat(), "{dir}/{name} split at {cut}");
            }
            let singles: Vec<&[u8]> = bytes.chunks(1).collect();
            assert_eq!(assemble(style, &singles).1.unwrap(), whole, "{dir}/{name} byte by byte");
        }
    }
}

#[test]
fn recorded_streams_assemble_calls_text_and_usage() {
    let (_, r) = assemble(Style::OpenAi, &[fixture_text("openai/stream_tool_calls.sse").as_bytes()]);
    let r = r.unwrap();
    assert_eq!(r.turn.calls.len(), 2);
    assert_eq!((r.turn.calls[0].id.as_str(), r.turn.calls[0].arguments.as_str()), ("call_Ab1", "{\"city\": \"Paris\"}"));
    assert_eq!(r.turn.calls[1].arguments, "{\"city\":\"Tokyo\"}");
    assert_eq!(r.usage.total_tokens, 128);

    let (deltas, r) = assemble(Style::Anthropic, &[fixture_text("anthropic/stream_tool_calls.sse").as_bytes()]);
    let r = r.unwrap();
    assert_eq!(deltas.concat(), "I'll check both cities.");
    assert_eq!(r.turn.calls[0].arguments, "{\"city\":\"Paris\"}", "serialised like a non-streamed input");
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), (402, 98), "message_delta usage is cumulative");
    let (deltas, r) = assemble(Style::Anthropic, &[fixture_text("anthropic/stream_text.sse").as_bytes()]);
    assert_eq!(deltas.concat(), "Both are sunny: Paris and Tokyo — ☀️ both.");
    assert_eq!(r.unwrap().usage.total_tokens, 579);
}

#[test]
fn truncated_streams_are_errors_never_partial_answers() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic")] {
        let body = fixture_text(&format!("{dir}/stream_tool_calls.sse"));
        // OpenAI-compatible servers may omit [DONE] after the chunk with finish_reason.
        let complete_from = if style == Style::OpenAi { body.find("\"finish_reason\": \"tool_calls\"").unwrap() } else { body.len() };
        for cut in 0..complete_from {
            let (_, r) = assemble(style, &[&body.as_bytes()[..cut]]);
            assert_eq!(r.unwrap_err().code(), "provider_parse", "{dir} cut at {cut}");
        }
    }
}

#[test]
fn error_events_and_bad_json_in_a_stream_are_typed_errors() {
    let err = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let (_, r) = assemble(Style::Anthropic, &[err.as_bytes()]);
    let e = r.unwrap_err();
    assert_eq!(e.code(), "provider_error");
    assert!(e.message.contains("Overloaded"));
    let (_, r) = assemble(Style::OpenAi, &[b"data: {\"error\":{\"message\":\"bad things\"}}\n\n"]);
    assert_eq!(r.unwrap_err().code(), "provider_error");
    let (_, r) = assemble(Style::OpenAi, &[b"data: {not json}\n\n"]);
    assert_eq!(r.unwrap_err().code(), "provider_parse");
}

#[test]
fn a_streamed_run_emits_events_in_contract_order_and_asks_for_sse() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic")] {
        let t = Chunked::default();
        let calls = fixture_text(&format!("{dir}/stream_tool_calls.sse"));
        let text = fixture_text(&format!("{dir}/stream_text.sse"));
        t.push_split(&calls, calls.len() / 3);
        t.push_split(&text, 7);
        let tools = Tools::default().with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap())));
        let host = Host::default();
        let r = run_full(style, true, vec![native("get_weather")], &t, &tools, None, &host, vec![], "weather?").unwrap();
        assert_eq!(r.status, Status::Done);
        let kinds = host.kinds();
        let first_result = kinds.iter().position(|k| k == "tool_result").unwrap();
        assert!(kinds[..first_result].iter().filter(|k| *k == "tool_call").count() == 2, "{kinds:?}");
        assert_eq!(&kinds[kinds.len() - 2..], ["usage", "done"]);
        let text_events: String =
            host.events.borrow().iter().filter(|e| e["type"] == "text").map(|e| e["delta"].as_str().unwrap().to_string()).collect();
        assert!(text_events.ends_with("☀️ both."), "{text_events}");
        assert_eq!(r.text, text_events.trim_start_matches("I'll check both cities."));
        let body = t.requests.borrow()[0].json();
        assert_eq!(body["stream"], true);
        if style == Style::OpenAi {
            assert_eq!(body["stream_options"], json!({"include_usage": true}));
        }
        let done = host.events.borrow().last().unwrap().clone();
        assert_eq!(done["result"]["status"], "done");
    }
}

#[test]
fn a_streamed_http_error_is_provider_http() {
    let t = Chunked::default();
    t.push(429, vec![b"{\"error\":{\"message\":\"slow ".to_vec(), b"down\"}}".to_vec()]);
    let e = run_full(Style::OpenAi, true, vec![], &t, &Tools::default(), None, &Host::default(), vec![], "x").unwrap_err();
    assert_eq!(e.code(), "provider_http");
    assert!(e.message.contains("slow down"));
}

/// An event that fails after others in the same chunk: the deltas before it are delivered with
/// the error, however the bytes were cut (found by the `stream_*` fuzz targets: a failing event
/// used to drop the deltas of the events before it in its chunk, so a consumer saw different text
/// for the same stream).
#[test]
fn deltas_before_a_failing_event_are_kept_whatever_the_chunking() {
    let delta = |t: &str| format!("data: {}\n\n", json!({"choices": [{"index": 0, "delta": {"content": t}}]}));
    let openai = format!("{}{}data: {{not json}}\n\n{}", delta("Hel"), delta("lo"), delta("never"));
    let text_block = |t: &str| {
        format!(
            "event: content_block_delta\ndata: {}\n\n",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": t}})
        )
    };
    let start = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
    let anthropic = format!(
        "{start}{}{}event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}}}\n\n{}",
        text_block("Hel"),
        text_block("lo"),
        text_block("never")
    );
    for (style, body, code) in [(Style::OpenAi, openai, "provider_parse"), (Style::Anthropic, anthropic, "provider_error")] {
        let bytes = body.as_bytes();
        let (deltas, r) = assemble(style, &[bytes]);
        assert_eq!(deltas.concat(), "Hello", "{style:?}: one chunk");
        assert_eq!(r.as_ref().unwrap_err().code(), code, "{style:?}");
        for cut in 0..=bytes.len() {
            let (d, r2) = assemble(style, &[&bytes[..cut], &bytes[cut..]]);
            assert_eq!((d.concat(), r2.unwrap_err()), (deltas.concat(), r.clone().unwrap_err()), "{style:?} split at {cut}");
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(assemble(style, &singles).0.concat(), "Hello", "{style:?} byte by byte");
        // One push gives the deltas and the error together.
        let mut a = StreamAssembler::new(&config(style).provider);
        let mut d = Vec::new();
        assert_eq!(a.push(bytes, &mut d).unwrap_err().code(), code);
        assert_eq!(Delta::join(&d, false), "Hello");
    }
    // In a streamed run the text events come out, then the run fails with the event's error.
    let t = Chunked::default();
    t.push(200, vec![format!("{}{}data: {{not json}}\n\n", delta("Hel"), delta("lo")).into_bytes(), delta("never").into_bytes()]);
    let host = Host::default();
    let e = run_full(Style::OpenAi, true, vec![], &t, &Tools::default(), None, &host, vec![], "x").unwrap_err();
    assert_eq!(e.code(), "provider_parse");
    let text: String =
        host.events.borrow().iter().filter(|e| e["type"] == "text").map(|e| e["delta"].as_str().unwrap().to_string()).collect();
    assert_eq!(text, "Hello");
}
