//! Each provider's whole-reply parser and stream assembler. Whatever the bytes, a reply is a
//! typed `provider_parse`/`provider_error` error or a reply the loop can take (its calls get
//! unique, non-empty ids); a stream gives the same final reply (and the same deltas on the way) or
//! the same error however its bytes are chunked.

use crate::adapter;
use crate::chunks;
use toolnexus_wasm::provider::{parse_response, Delta, HttpResponse, ModelReply, StreamAssembler, Style};

fn allowed(code: &str) -> bool {
    matches!(code, "provider_parse" | "provider_error")
}

fn reply(style: Style, data: &[u8]) {
    let cfg = adapter::provider(style);
    let resp = HttpResponse { status: 200, body: String::from_utf8_lossy(data).into_owned(), retry_after: None };
    match parse_response(&cfg, &resp) {
        Err(e) => assert!(allowed(e.code()), "{style:?} reply: unexpected error code {} ({})", e.code(), e.message),
        Ok(_) => {
            let ids = adapter::first_turn_call_ids(style, &resp)
                .unwrap_or_else(|e| panic!("{style:?}: a parsed reply failed in the loop: {e:?}"));
            crate::run_loop::assert_unique_ids(&ids, "one reply's calls");
        }
    }
}

pub fn reply_openai(data: &[u8]) {
    reply(Style::OpenAi, data)
}
pub fn reply_anthropic(data: &[u8]) {
    reply(Style::Anthropic, data)
}
pub fn reply_gemini(data: &[u8]) {
    reply(Style::Gemini, data)
}
pub fn reply_responses(data: &[u8]) {
    reply(Style::Responses, data)
}

/// The text deltas joined, then a mark and the reasoning deltas joined: however the bytes were
/// cut, both must come out the same, and neither may leak into the other.
fn joined(deltas: &[Delta]) -> String {
    let (mut text, mut reasoning) = (String::new(), String::from("\u{1}"));
    for d in deltas {
        match d {
            Delta::Text(t) => text.push_str(t),
            Delta::Reasoning(t) => reasoning.push_str(t),
        }
    }
    text + &reasoning
}

/// The concatenated deltas and the final reply (or the first error as code and message).
fn assemble(style: Style, parts: &[&[u8]]) -> (String, Result<ModelReply, (String, String)>) {
    let mut asm = StreamAssembler::new(&adapter::provider(style));
    let mut deltas = Vec::new();
    for p in parts {
        if let Err(e) = asm.push(p, &mut deltas) {
            return (joined(&deltas), Err((e.code().to_string(), e.message)));
        }
    }
    let text = joined(&deltas);
    (text, asm.finish().map_err(|e| (e.code().to_string(), e.message)))
}

fn stream(style: Style, data: &[u8]) {
    let Some((seed, body)) = chunks::seed_and_body(data) else {
        return;
    };
    let whole = assemble(style, &[body]);
    if let Err((code, msg)) = &whole.1 {
        assert!(allowed(code), "{style:?} stream: unexpected error code {code} ({msg})");
    }
    // Errors included: the deltas before a failing event are delivered whatever the chunking
    // (they used to be dropped with the failing push, so they depended on the chunking).
    let same = |other: (String, Result<ModelReply, (String, String)>)| other == whole;
    assert!(same(assemble(style, &chunks::random(body, seed))), "{style:?} stream: random chunking (seed {seed}) changed the result");
    assert!(same(assemble(style, &chunks::bytewise(body))), "{style:?} stream: byte-by-byte chunking changed the result");
}

pub fn stream_openai(data: &[u8]) {
    stream(Style::OpenAi, data)
}
pub fn stream_anthropic(data: &[u8]) {
    stream(Style::Anthropic, data)
}
pub fn stream_gemini(data: &[u8]) {
    stream(Style::Gemini, data)
}
pub fn stream_responses(data: &[u8]) {
    stream(Style::Responses, data)
}
