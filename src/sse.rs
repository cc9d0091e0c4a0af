//! An incremental Server-Sent Events decoder (the WHATWG event-stream rules) that is correct for
//! any chunk boundary: a chunk may end inside a UTF-8 character, inside a field name, or between
//! the `\r` and `\n` of one line ending. Bytes are kept until a whole line is there; only whole
//! lines are decoded as UTF-8.

use crate::prelude::*;
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SseEvent {
    /// The `event:` field; `None` means the default type `message`.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseDecoder {
    buf: Vec<u8>,
    /// The previous chunk ended with `\r`: a `\n` at the start of the next one ends nothing.
    skip_lf: bool,
    event: Option<String>,
    /// The `data:` lines so far, already joined with `\n`.
    data: String,
    has_data: bool,
    started: bool,
}

impl SseDecoder {
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// Feeds bytes; returns the events completed by them, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut bytes = chunk;
        // An empty chunk says nothing about the byte after a `\r`: keep waiting for it.
        if self.skip_lf && !bytes.is_empty() {
            if let Some(b'\n') = bytes.first() {
                bytes = bytes.get(1..).unwrap_or_default();
            }
            self.skip_lf = false;
        }
        let mut start = 0;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b == b'\n' || b == b'\r' {
                self.buf.extend_from_slice(&bytes[start..i]);
                let line = core::mem::take(&mut self.buf);
                self.line(&line, &mut out);
                if b == b'\r' {
                    match bytes.get(i + 1) {
                        Some(b'\n') => i += 1,
                        Some(_) => {}
                        None => self.skip_lf = true,
                    }
                }
                start = i + 1;
            }
            i += 1;
        }
        self.buf.extend_from_slice(&bytes[start..]);
        out
    }

    /// Whether the stream ended cleanly: no partial line and no event left undispatched.
    pub fn is_clean_end(&self) -> bool {
        self.buf.is_empty() && !self.has_data
    }

    fn line(&mut self, raw: &[u8], out: &mut Vec<SseEvent>) {
        let mut line = String::from_utf8_lossy(raw).into_owned();
        if !self.started {
            // A byte-order mark may open the stream.
            self.started = true;
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                line = rest.to_string();
            }
        }
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent { event: self.event.take(), data: core::mem::take(&mut self.data) });
            }
            self.event = None;
            self.data.clear();
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return; // a comment (keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((field, v)) => (field, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields do not matter to a one-shot response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STREAM: &str =
        ": keep-alive\r\n\r\nevent: delta\r\ndata: {\"t\":\"héllo 👋\"}\r\n\r\ndata: line one\ndata: line two\n\ndata:[DONE]\r\r";

    fn all_at_once() -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let ev = d.push(STREAM.as_bytes());
        assert!(d.is_clean_end());
        ev
    }

    #[test]
    fn decodes_comments_events_multiline_data_and_every_line_ending() {
        let ev = all_at_once();
        assert_eq!(ev.len(), 3);
        assert_eq!(ev[0], SseEvent { event: Some("delta".into()), data: "{\"t\":\"héllo 👋\"}".into() });
        assert_eq!(ev[1].data, "line one\nline two");
        assert_eq!(ev[2].data, "[DONE]");
    }

    #[test]
    fn every_split_point_gives_the_same_events() {
        let bytes = STREAM.as_bytes();
        let expected = all_at_once();
        for cut in 0..=bytes.len() {
            let mut d = SseDecoder::new();
            let mut ev = d.push(&bytes[..cut]);
            ev.extend(d.push(&bytes[cut..]));
            assert_eq!(ev, expected, "split at byte {cut}");
            assert!(d.is_clean_end());
        }
        // and byte by byte
        let mut d = SseDecoder::new();
        let ev: Vec<_> = bytes.iter().flat_map(|b| d.push(&[*b])).collect();
        assert_eq!(ev, expected);
    }

    #[test]
    fn a_stream_cut_inside_an_event_is_not_a_clean_end() {
        let mut d = SseDecoder::new();
        d.push(b"data: {\"partial\":");
        assert!(!d.is_clean_end());
        let mut d = SseDecoder::new();
        d.push(b"data: complete line\n");
        assert!(!d.is_clean_end(), "no blank line: the event was never dispatched");
    }
}
