//! No input makes the core panic (a panic in wasm traps and poisons the instance): provider
//! replies cut at every byte, hostile JSON shapes as replies, histories and states.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::dialect;
use toolnexus_wasm::provider::{parse_response, HttpResponse, Style};
use toolnexus_wasm::state;

/// Deterministic pseudo-random numbers (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// Random JSON built from the keys and values the parsers look at, so the fuzz reaches deep.
fn hostile(rng: &mut Rng, depth: u32) -> Value {
    const KEYS: [&str; 22] = [
        "choices",
        "message",
        "content",
        "tool_calls",
        "function",
        "name",
        "arguments",
        "id",
        "usage",
        "prompt_tokens",
        "type",
        "text",
        "tool_use",
        "input",
        "role",
        "tool_call_id",
        "tool_use_id",
        "is_error",
        "error",
        "schemaVersion",
        "status",
        "pending",
    ];
    match if depth > 4 { rng.next() % 6 } else { rng.next() % 9 } {
        0 => Value::Null,
        1 => json!(rng.next() % 3 == 0),
        2 => json!(rng.next() as i64),
        3 => json!(-1.5e308),
        4 => json!(*rng.pick(&["", "assistant", "user", "tool", "tool_use", "text", "{\"a\":", "pending", "system"])),
        5 => json!(*rng.pick(&KEYS)),
        6 | 7 => {
            let mut m = serde_json::Map::new();
            for _ in 0..(rng.next() % 5) {
                m.insert(rng.pick(&KEYS).to_string(), hostile(rng, depth + 1));
            }
            Value::Object(m)
        }
        _ => Value::Array((0..rng.next() % 4).map(|_| hostile(rng, depth + 1)).collect()),
    }
}

#[test]
fn replies_cut_at_every_byte_are_errors_not_panics() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic")] {
        let cfg = config(style).provider;
        for name in ["tool_calls.json", "final_text.json"] {
            let full = serde_json::to_string(&fixture(&format!("{dir}/{name}"))).unwrap();
            for cut in 0..full.len() {
                let Some(part) = full.get(..cut) else { continue };
                let r = parse_response(&cfg, &HttpResponse { status: 200, body: part.to_string(), retry_after: None });
                assert_eq!(r.unwrap_err().code(), "provider_parse", "{dir}/{name} cut at {cut}");
            }
            assert!(parse_response(&cfg, &HttpResponse { status: 200, body: full, retry_after: None }).is_ok());
        }
    }
}

#[test]
fn hostile_json_never_panics_anywhere() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20_000 {
        let v = hostile(&mut rng, 0);
        for style in [Style::OpenAi, Style::Anthropic] {
            let _ = parse_response(&config(style).provider, &HttpResponse { status: 200, body: v.to_string(), retry_after: None });
        }
        let history = match &v {
            Value::Array(a) => a.clone(),
            other => vec![other.clone()],
        };
        if let Ok(messages) = dialect::read(&history) {
            let _ = dialect::render(&messages, Style::Anthropic);
        }
        let _ = state::load(&v);
        let _ = state::load_conversation(&v);
        let _ = toolnexus_wasm::suspend::Request::from_json(&v, "x");
        let _ = toolnexus_wasm::suspend::Answer::from_json(&v, "x");
        let _ = toolnexus_wasm::suspend::RelayResult::from_json(&v, "x");
        let _ = toolnexus_wasm::tool::ToolSpec::from_json(&v, "x");
        // the whole loop over a hostile reply, a hostile history and a hostile resume
        let p = Scripted::default();
        p.push(200, v.to_string());
        p.push(200, oa_text("end").to_string());
        let _ = run(
            Style::OpenAi,
            vec![native("t"), relay("click")],
            &p,
            &Tools::default().with("t", |_, _| toolnexus_wasm::tool::ToolResult::ok("x")),
            None,
            &history,
            "x",
        );
    }
}

#[test]
fn hostile_answers_on_resume_never_panic() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}"), ("c2", "click", "{}")])]);
    let halted = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), None, &[], "x").unwrap();
    let pending = halted.pending.clone().unwrap();
    let mut rng = Rng(42);
    for _ in 0..5_000 {
        let data = hostile(&mut rng, 0);
        let answer = toolnexus_wasm::suspend::Answer {
            id: pending.id.clone(),
            ok: rng.next() % 4 != 0,
            data: data.as_object().cloned(),
            reason: None,
        };
        let p2 = Scripted::new(vec![oa_text("ok")]);
        let r =
            resume(Style::OpenAi, vec![relay("click")], &p2, &Tools::default(), None, &halted.messages(), pending.clone(), answer).unwrap();
        assert!(balanced(&r.messages()));
    }
}

/// A provider that invents tool names must not grow the metrics: 2,000 distinct unknown names
/// (250 calls a turn over eight turns) are 2,000 `tool="unknown"` events, one series of the JS
/// client's `metrics()` (tests/js/origin.test.mjs); the transcript still names each call.
#[test]
fn unknown_tool_names_share_one_metric_series() {
    use toolnexus_wasm::metrics::Metric;
    let mut replies = Vec::new();
    for turn in 0..8 {
        let calls: Vec<(String, String)> = (0..250).map(|i| (format!("c{turn}_{i}"), format!("made_up_{turn}_{i}"))).collect();
        let calls: Vec<(&str, &str, &str)> = calls.iter().map(|(id, n)| (id.as_str(), n.as_str(), "{}")).collect();
        replies.push(oa_calls(&calls));
    }
    replies.push(oa_text("done"));
    let p = Scripted::new(replies);
    let (tools, rec) = (Tools::default(), Recorder::default());
    let r = run_observed(Style::OpenAi, vec![native("real")], &p, &tools, None, Some(&rec), &[], "go").unwrap();
    assert_eq!((r.text.as_str(), r.tool_call_count), ("done", 2000));
    assert!(r.to_json().contains("Unknown tool: made_up_7_249"), "the model still sees the name");
    let events = rec.0.borrow();
    let tool_events: Vec<&Metric> = events.iter().filter(|m| matches!(m, Metric::Tool { .. })).collect();
    assert_eq!(tool_events.len(), 2000);
    assert!(tool_events
        .iter()
        .all(|m| matches!(m, Metric::Tool { tool, source, is_error: true, .. } if tool == "unknown" && source == "custom")));
}
