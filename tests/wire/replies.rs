//! Every manifest entry through the package's parsers: a JSON body through `parse_response`
//! (with the HTTP status it came with), an SSE body through `StreamAssembler` whole, byte by byte
//! and in random chunks, each checked against the manifest's expectation.

use crate::common::config;
use crate::manifest::*;
use serde_json::Value;
use toolnexus_wasm::provider::{parse_response, Delta, HttpResponse, ModelReply, StreamAssembler, Style};

/// What one replay gave: the deltas (empty for a JSON body) and the reply, or the error as
/// `(code, message)`.
pub type Outcome = (Vec<Delta>, Result<ModelReply, (String, String)>);

pub fn parse_json(style: Style, body: &str, status: u16) -> Outcome {
    let resp = HttpResponse { status, body: body.to_string(), retry_after: None };
    (Vec::new(), parse_response(&config(style).provider, &resp).map_err(|e| (e.code().to_string(), e.message)))
}

pub fn assemble(style: Style, chunks: &[Vec<u8>]) -> Outcome {
    let mut a = StreamAssembler::new(&config(style).provider);
    let mut deltas = Vec::new();
    for c in chunks {
        if let Err(e) = a.push(c, &mut deltas) {
            return (deltas, Err((e.code().to_string(), e.message)));
        }
    }
    (deltas, a.finish().map_err(|e| (e.code().to_string(), e.message)))
}

/// The entry parsed once (whole body).
pub fn parsed(e: &Entry) -> Result<Outcome, String> {
    let style = e.style()?;
    Ok(if e.stream { assemble(style, &[e.bytes()]) } else { parse_json(style, &e.text(), e.status()) })
}

/// Checks one outcome against the entry's expectation.
pub fn check(e: &Entry, (deltas, reply): &Outcome) -> Result<(), String> {
    let x = &e.expect;
    if let Some(setting) = e.unsupported() {
        let Err((code, msg)) = reply else { return Err(format!("an unsupported recording parsed: {reply:?}")) };
        same("error code", code.as_str(), "provider_parse")?;
        return if msg.contains(setting) { Ok(()) } else { Err(format!("the error does not name {setting}: {msg:?}")) };
    }
    if e.is_error() {
        let Err((code, msg)) = reply else { return Err(format!("an error body parsed as a reply: {reply:?}")) };
        let want_code = if e.stream || e.status() == 200 { "provider_error" } else { "provider_http" };
        same("error code", code.as_str(), want_code)?;
        let want = x["error"].as_str().unwrap();
        // Error text is capped (200 characters, then `…`): the provider's message must be there
        // as far as the cap lets it be, from its start.
        let capped = msg.strip_suffix('…').and_then(|m| m.split_once(": ")).map(|(_, t)| t);
        let fits = msg.contains(want) || capped.is_some_and(|t| t.chars().count() >= 100 && want.starts_with(t));
        return if fits { Ok(()) } else { Err(format!("the error message does not hold the provider's {want:?}: {msg:?}")) };
    }
    if e.withheld() {
        let Err((code, msg)) = reply else {
            return Err(format!("a withheld reply with no content must be a provider_error, got a reply: {reply:?}"));
        };
        same("error code of a withheld reply", code.as_str(), "provider_error")?;
        let reason = e.provider_finish().unwrap();
        return if msg.contains(reason) {
            Ok(())
        } else {
            Err(format!("the error does not name the provider's reason {reason:?}: {msg:?}"))
        };
    }
    let r = reply.as_ref().map_err(|(c, m)| format!("{c}: {m}"))?;
    same("turn text", r.turn.text.as_str(), e.turn_text())?;
    if e.stream {
        same("text deltas joined", Delta::join(deltas, false).as_str(), e.turn_text())?;
        same("reasoning deltas joined", Delta::join(deltas, true), r.reasoning_text.clone())?;
    }
    same("refusal", r.refusal, x.get("refusal").is_some_and(|v| !v.is_null()))?;
    let calls: Vec<(String, Value)> = r
        .turn
        .calls
        .iter()
        .map(|c| (c.name.clone(), c.input().map(Value::Object).unwrap_or_else(|err| Value::String(format!("bad arguments: {err}")))))
        .collect();
    let want: Vec<(String, Value)> = e.calls().iter().map(|c| (c["name"].as_str().unwrap().to_string(), c["arguments"].clone())).collect();
    same("calls (name, arguments)", calls, want)?;
    // Ids are not checked here: Gemini sends none, and the loop gives each call a unique one
    // (the loop replays below and the fuzz targets check that).
    same("finish", r.finish.as_str(), x["finish"].as_str().unwrap())?;
    same("provider finish", r.stop_reason.as_deref(), e.provider_finish())?;
    same("readable reasoning present", !r.reasoning_text.is_empty(), x["reasoning"].as_bool().unwrap())?;
    if !r.reasoning_text.is_empty() && r.turn.text.contains(r.reasoning_text.trim()) {
        return Err("the reasoning text leaked into the answer text".into());
    }
    same("reasoning signatures", signatures(&e.style, r), e.signatures())?;
    let usage = (r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.reasoning_tokens);
    match x["usage"].as_object() {
        Some(u) => {
            let want = (
                u["prompt"].as_u64().unwrap(),
                u["completion"].as_u64().unwrap(),
                u.get("reasoning").and_then(|n| n.as_u64()).unwrap_or(0),
            );
            same("usage (prompt, completion, reasoning)", usage, want)
        }
        None => same("usage of a reply without any", usage, (0, 0, 0)),
    }
}

/// A stream gives the same deltas and the same reply (or error) in every chunking, and each is
/// what the manifest expects.
fn check_entry(e: &Entry) -> Result<(), String> {
    let style = e.style()?;
    if !e.stream {
        return check(e, &parse_json(style, &e.text(), e.status()));
    }
    let body = e.bytes();
    let whole = assemble(style, std::slice::from_ref(&body));
    check(e, &whole).map_err(|m| format!("whole body: {m}"))?;
    for (how, chunks) in chunkings(&body) {
        let got = assemble(style, &chunks);
        check(e, &got).map_err(|m| format!("{how}: {m}"))?;
        if got != whole {
            return Err(format!("{how}: the result differs from the whole body's: {got:?}"));
        }
    }
    Ok(())
}

#[test]
fn openai_replies_match_the_manifest() {
    each(&entries_of("openai"), check_entry);
}

#[test]
fn anthropic_replies_match_the_manifest() {
    each(&entries_of("anthropic"), check_entry);
}

#[test]
fn gemini_replies_match_the_manifest() {
    each(&entries_of("gemini"), check_entry);
}

#[test]
fn responses_replies_match_the_manifest() {
    each(&entries_of("responses"), check_entry);
}

/// The harness itself: the chunkings concatenate to the body, and the checker rejects a wrong
/// reply (so a passing style is not a checker that accepts anything).
#[test]
fn the_harness_can_fail() {
    let body: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    for (how, c) in chunkings(&body) {
        assert_eq!(c.concat(), body, "{how}");
    }
    assert!(chunks(&body, 1, 9).iter().any(Vec::is_empty), "some chunks are empty");
    let e = entry("openai/text.json");
    let (d, r) = parse_json(Style::OpenAi, &e.text(), 200);
    let mut r = r.unwrap();
    assert_eq!(check(&e, &(d.clone(), Ok(r.clone()))), Ok(()));
    r.turn.text.push('!');
    assert!(check(&e, &(d.clone(), Ok(r.clone()))).unwrap_err().starts_with("turn text"));
    r.turn.text.pop();
    r.usage.completion_tokens += 1;
    assert!(check(&e, &(d, Ok(r))).unwrap_err().starts_with("usage"));
}
