//! The SSE decoder against a reference splitter written straight from the event-stream rules:
//! decode the whole stream as UTF-8 (replacing bad sequences), drop one leading BOM, cut lines at
//! CRLF, LF or CR, dispatch on a blank line when any `data` line was seen (data lines joined with
//! `\n`), ignore comment lines (`:` first), take `event`, ignore other fields, and drop an
//! unterminated last line and an undispatched event at the end. The decoder must give exactly
//! these events, and the same clean-end verdict, for the stream whole, in random chunks and one
//! byte at a time.

use crate::chunks;
use toolnexus_wasm::sse::{SseDecoder, SseEvent};

/// The reference: `(events, clean_end)`.
pub fn reference(bytes: &[u8]) -> (Vec<SseEvent>, bool) {
    // A clean end: the last byte ends a line (a lone BOM is an unterminated line too) and no
    // event is left undispatched.
    let unterminated = !bytes.is_empty() && !matches!(bytes.last(), Some(b'\r' | b'\n'));
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some(p) = rest.find(['\r', '\n']) {
        lines.push(&rest[..p]);
        let skip = if rest[p..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[p + skip..];
    }
    let mut events = Vec::new();
    let mut event: Option<String> = None;
    let mut data: Option<String> = None;
    for line in lines {
        if line.is_empty() {
            if let Some(d) = data.take() {
                events.push(SseEvent { event: event.take(), data: d });
            }
            event = None;
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_string()),
            },
            "event" => event = Some(value.to_string()),
            _ => {}
        }
    }
    (events, !unterminated && data.is_none())
}

fn decode(chunks: &[&[u8]]) -> (Vec<SseEvent>, bool) {
    let mut d = SseDecoder::new();
    let events = chunks.iter().flat_map(|c| d.push(c)).collect();
    (events, d.is_clean_end())
}

/// Target `sse`: first byte seeds the chunking, the rest is the stream.
pub fn sse(data: &[u8]) {
    let Some((seed, body)) = chunks::seed_and_body(data) else {
        return;
    };
    let want = reference(body);
    assert_eq!(decode(&[body]), want, "whole stream differs from the reference");
    assert_eq!(decode(&chunks::random(body, seed)), want, "random chunking (seed {seed}) differs from the reference");
    assert_eq!(decode(&chunks::bytewise(body)), want, "byte-by-byte with empty chunks differs from the reference");
}
