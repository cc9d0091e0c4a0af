//! Cached prompt tokens as each provider reports them, in results, `usage` events and the `llm`
//! metric. The usage objects are the shapes the providers document and their SDKs' tests use:
//! OpenAI's `prompt_tokens_details.cached_tokens`, the Responses API's
//! `input_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens` /
//! `cache_creation_input_tokens` (whose `input_tokens` leaves both out), Gemini's
//! `cachedContentTokenCount`.

mod common;

use common::config;
use serde_json::{json, Value};
use toolnexus_wasm::provider::{parse_response, HttpResponse, Style};

fn usage(style: Style, body: Value) -> toolnexus_wasm::message::Usage {
    let resp = HttpResponse { status: 200, body: body.to_string(), retry_after: None };
    parse_response(&config(style).provider, &resp).unwrap().usage
}

#[test]
fn cached_tokens_are_counted_for_every_provider() {
    let u = usage(
        Style::OpenAi,
        json!({"choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 2006, "completion_tokens": 300, "total_tokens": 2306, "prompt_tokens_details": {"cached_tokens": 1920}}}),
    );
    assert_eq!((u.prompt_tokens, u.cache_read_tokens, u.cache_write_tokens), (2006, 1920, 0));
    assert_eq!(u.to_json(), json!({"promptTokens": 2006, "completionTokens": 300, "totalTokens": 2306, "cacheReadTokens": 1920}));
    let u = usage(
        Style::Responses,
        json!({"status": "completed", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}],
            "usage": {"input_tokens": 2006, "output_tokens": 300, "total_tokens": 2306, "input_tokens_details": {"cached_tokens": 1024}}}),
    );
    assert_eq!(u.cache_read_tokens, 1024);
    // Anthropic's `input_tokens` is what came after the last cache breakpoint: the prompt is the sum.
    let u = usage(
        Style::Anthropic,
        json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 21, "cache_creation_input_tokens": 188086, "cache_read_input_tokens": 40, "output_tokens": 393}}),
    );
    assert_eq!((u.prompt_tokens, u.cache_read_tokens, u.cache_write_tokens, u.total_tokens), (188147, 40, 188086, 188147 + 393));
    let u = usage(
        Style::Gemini,
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 4000, "candidatesTokenCount": 20, "totalTokenCount": 4020, "cachedContentTokenCount": 3000}}),
    );
    assert_eq!((u.prompt_tokens, u.cache_read_tokens), (4000, 3000));
    // Without a cache the usage reads as before.
    let u = usage(
        Style::OpenAi,
        json!({"choices": [{"message": {"role": "assistant", "content": "hi"}}], "usage": {"prompt_tokens": 5, "completion_tokens": 1}}),
    );
    assert_eq!(u.to_json(), json!({"promptTokens": 5, "completionTokens": 1, "totalTokens": 6}));
}

/// A streamed Anthropic reply states the cache counts in `message_start` and the output in
/// `message_delta`: the prompt is their sum, as for a whole reply.
#[test]
fn a_streamed_anthropic_reply_counts_the_cache_too() {
    use toolnexus_wasm::provider::StreamAssembler;
    let provider = config(Style::Anthropic).provider;
    let mut asm = StreamAssembler::new(&provider);
    let events = [
        json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": [], "usage": {"input_tokens": 10, "cache_read_input_tokens": 500, "cache_creation_input_tokens": 0, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 7}}),
        json!({"type": "message_stop"}),
    ];
    let mut sse = String::new();
    for e in &events {
        sse.push_str(&format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()));
    }
    let mut deltas = Vec::new();
    asm.push(sse.as_bytes(), &mut deltas).unwrap();
    let u = asm.finish().unwrap().usage;
    assert_eq!((u.prompt_tokens, u.completion_tokens, u.cache_read_tokens, u.total_tokens), (510, 7, 500, 517));
}
