//! The manifest of recorded replies, and what every replay needs: the style of an entry, the
//! HTTP status an error body came with, deterministic chunkings of a stream, and the count of
//! opaque reasoning signatures in a parsed reply.

use serde_json::Value;
use toolnexus_wasm::message::ToolCall;
use toolnexus_wasm::provider::{ModelReply, Style};

pub const WIRE: &str = "wire";

pub struct Entry {
    pub file: String,
    pub style: String,
    pub stream: bool,
    pub expect: Value,
}

impl Entry {
    /// The raw recorded bytes.
    pub fn bytes(&self) -> Vec<u8> {
        read_bytes(&self.file)
    }
    pub fn text(&self) -> String {
        String::from_utf8(self.bytes()).unwrap_or_else(|e| panic!("{}: not UTF-8: {e}", self.file))
    }
    /// The entry's style, or why it cannot be had on this build.
    pub fn style(&self) -> Result<Style, String> {
        Style::parse(&self.style).map_err(|e| {
            format!(
                "style \"{}\" is not available in this build ({}): the {} provider is not merged yet",
                self.style, e.message, self.style
            )
        })
    }
    /// The file name without its folder and extension (`error_400`).
    pub fn stem(&self) -> &str {
        let name = self.file.rsplit('/').next().unwrap_or(&self.file);
        name.split('.').next().unwrap_or(name)
    }
    /// A recording of a setting the package refuses with a typed error naming it (SOURCES.md).
    pub fn unsupported(&self) -> Option<&str> {
        self.expect["unsupported"].as_str()
    }
    pub fn is_error(&self) -> bool {
        self.expect["finish"] == "error"
    }
    /// The HTTP status the body came with: a 200 unless the file is named for an error.
    /// `error_quota` is OpenAI's insufficient_quota, served as 429 (SOURCES.md).
    pub fn status(&self) -> u16 {
        match self.stem() {
            "error_quota" => 429,
            s => s.strip_prefix("error_").and_then(|n| n.parse().ok()).unwrap_or(200),
        }
    }
    /// The answer text the reply's turn must hold: the visible text, or the refusal, which is
    /// the text of a refused reply.
    pub fn turn_text(&self) -> &str {
        self.expect["refusal"].as_str().or_else(|| self.expect["text"].as_str()).unwrap_or("")
    }
    pub fn calls(&self) -> &[Value] {
        self.expect["calls"].as_array().map_or(&[], Vec::as_slice)
    }
    /// A reply the provider withheld with nothing in it (a blocked prompt, a safety stop, a
    /// refusal with no content): the package gives a typed `provider_error` naming the provider's
    /// reason, never an empty answer that would be stored and sent back.
    pub fn withheld(&self) -> bool {
        matches!(self.expect["finish"].as_str(), Some("content_filter" | "refusal"))
            && self.turn_text().is_empty()
            && self.calls().is_empty()
    }
    pub fn provider_finish(&self) -> Option<&str> {
        self.expect["providerFinish"].as_str()
    }
    pub fn signatures(&self) -> usize {
        self.expect["signatures"].as_u64().unwrap_or(0) as usize
    }
}

pub fn read_bytes(rel: &str) -> Vec<u8> {
    let p = format!("{}/tests/fixtures/{WIRE}/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

pub fn read_json(rel: &str) -> Value {
    serde_json::from_slice(&read_bytes(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

pub fn entries() -> Vec<Entry> {
    let m = read_json("manifest.json");
    m.as_array()
        .expect("manifest.json is an array")
        .iter()
        .map(|e| Entry {
            file: e["file"].as_str().unwrap().to_string(),
            style: e["style"].as_str().unwrap().to_string(),
            stream: e["stream"].as_bool().unwrap(),
            expect: e["expect"].clone(),
        })
        .collect()
}

pub fn entries_of(style: &str) -> Vec<Entry> {
    let all: Vec<Entry> = entries().into_iter().filter(|e| e.style == style).collect();
    assert!(!all.is_empty(), "no manifest entry of style {style}");
    all
}

pub fn entry(file: &str) -> Entry {
    entries().into_iter().find(|e| e.file == file).unwrap_or_else(|| panic!("{file} is not in the manifest"))
}

/// Runs `check` on each entry and fails once, listing every entry that failed (a panic inside
/// `check` counts as a failure of that entry, with its message).
pub fn each(entries: &[Entry], check: impl Fn(&Entry) -> Result<(), String>) {
    let mut failures = Vec::new();
    for e in entries {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(e)));
        match r {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => failures.push(format!("{}: {msg}", e.file)),
            Err(p) => {
                let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                failures.push(format!("{}: panicked: {}", e.file, msg.unwrap_or_default()));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} entries failed:\n{}", failures.len(), entries.len(), failures.join("\n\n"));
}

/// `Err(message)` unless `got == want`.
pub fn same<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}

/// A small deterministic PRNG (xorshift64*), so a failing chunking can be replayed by its seed.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

pub const SEEDS: [u64; 5] = [1, 2, 3, 17, 2026];

/// `body` cut into chunks of 0..=max bytes (some empty, some inside a UTF-8 character or a
/// CRLF), by `seed`.
pub fn chunks(body: &[u8], seed: u64, max: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let n = (rng.next() % (max + 1)) as usize;
        let (a, b) = rest.split_at(n.min(rest.len()));
        out.push(a.to_vec());
        rest = b;
    }
    out
}

/// Every chunking a stream is replayed in: whole, byte by byte, and random cuts by seed.
pub fn chunkings(body: &[u8]) -> Vec<(String, Vec<Vec<u8>>)> {
    let mut out =
        vec![("whole".to_string(), vec![body.to_vec()]), ("byte by byte".to_string(), body.chunks(1).map(<[u8]>::to_vec).collect())];
    for seed in SEEDS {
        out.push((format!("seed {seed} (chunks up to 9 bytes)"), chunks(body, seed, 9)));
        out.push((format!("seed {seed} (chunks up to 200 bytes)"), chunks(body, seed, 200)));
    }
    out
}

/// The opaque reasoning artifacts a parsed reply holds, counted as the manifest counts them:
/// Anthropic thinking items with a signature and redacted_thinking items; Responses reasoning
/// items with `encrypted_content`; Gemini signatures on calls, on the text part and inside
/// thought items.
pub fn signatures(style: &str, reply: &ModelReply) -> usize {
    let call_sigs = reply.turn.calls.iter().filter(|c: &&ToolCall| c.signature.as_deref().is_some_and(|s| !s.is_empty())).count();
    let Some(r) = &reply.turn.reasoning else { return call_sigs };
    let items = r.items.iter().map(|(_, v)| v);
    let nonempty = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
    match style {
        "anthropic" => items
            .filter(|v| (v["type"] == "thinking" && nonempty(v, "signature")) || (v["type"] == "redacted_thinking" && nonempty(v, "data")))
            .count(),
        "responses" => items.filter(|v| v["type"] == "reasoning" && nonempty(v, "encrypted_content")).count(),
        "gemini" => call_sigs + usize::from(r.text_signature.is_some()) + items.filter(|v| nonempty(v, "thoughtSignature")).count(),
        _ => call_sigs,
    }
}
