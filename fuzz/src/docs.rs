//! The documents a host hands back: histories in any dialect, pending `RunResult`s and stored
//! conversations. Garbage is a typed `bad_input`/`bad_state` error; what loads is usable: a
//! history renders in every style and reads back to a fixpoint, a pending state resumes into a
//! balanced transcript, and a conversation state survives a JSON round trip unchanged.

use crate::adapter;
use crate::run_loop::check_result;
use serde_json::Value;
use toolnexus_wasm::dialect::{read, read_json, render};
use toolnexus_wasm::message::Message;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::state::{load, load_conversation};
use toolnexus_wasm::Error;

const STYLES: [Style; 4] = [Style::OpenAi, Style::Anthropic, Style::Gemini, Style::Responses];

fn expect_code(e: &Error, codes: &[&str], what: &str) {
    assert!(codes.contains(&e.code()), "{what}: unexpected error code {} ({})", e.code(), e.message);
}

/// Target `dialect`: `dialect::read_json` on any text.
pub fn dialect(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let messages = match read_json(&text) {
        Ok(m) => m,
        Err(e) => return expect_code(&e, &["bad_input", "bad_state"], "read_json"),
    };
    // One pass of render → read may normalise (a dialect without system messages drops them,
    // results merge); after it, the transcript must be a fixpoint: nothing more is lost or
    // invented on later passes. (An empty Gemini user text is kept: it used to be dropped here.)
    for style in STYLES {
        let once = read(&render(&messages, style)).unwrap_or_else(|e| panic!("{style:?}: a rendered transcript does not read back: {e:?}"));
        let shown = render(&once, style);
        let twice = read(&shown).unwrap_or_else(|e| panic!("{style:?}: a rendered transcript does not read back: {e:?}"));
        assert_eq!(floats_rounded(twice), floats_rounded(once), "{style:?}: render → read is not a fixpoint after one pass");
    }
}

/// The transcript with every float in call arguments and JSON outputs cut to 12 significant
/// digits. serde_json is built without `float_roundtrip` (it would cost about 9 KB gzip of wasm,
/// see docs/decisions/size.md), so a float with more digits than f64 holds may move by one ULP each
/// time arguments are parsed and written again.
fn floats_rounded(mut messages: Vec<Message>) -> Vec<Message> {
    fn round(v: &mut Value) {
        match v {
            Value::Number(n) if n.is_f64() => *v = Value::String(format!("{:.11e}", n.as_f64().unwrap_or(0.0))),
            Value::Array(a) => a.iter_mut().for_each(round),
            Value::Object(o) => o.values_mut().for_each(round),
            _ => {}
        }
    }
    let rounded = |text: &mut String| {
        if let Ok(mut v) = serde_json::from_str::<Value>(text) {
            round(&mut v);
            *text = v.to_string();
        }
    };
    for m in &mut messages {
        match m {
            Message::Assistant(t) => t.calls.iter_mut().for_each(|c| rounded(&mut c.arguments)),
            Message::Tool(outs) => outs.iter_mut().for_each(|o| rounded(&mut o.output)),
            _ => {}
        }
    }
    messages
}

/// Target `state`: `state::load` on any JSON, then a resume of what loads.
pub fn state(data: &[u8]) {
    let Ok(v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let halted = match load(&v) {
        Ok(h) => h,
        Err(e) => return expect_code(&e, &["bad_state"], "state::load"),
    };
    // The reader itself says `bad_input` for a part no provider carries (right for a caller's
    // `history`); the state paths map whatever it refuses to `bad_state` (checked below).
    let history = match read(&halted.messages) {
        Ok(h) => h,
        Err(e) => {
            expect_code(&e, &["bad_state", "bad_input"], "dialect::read of a loaded state");
            let resumed = toolnexus_wasm::conversation::halted_state(&v);
            return expect_code(&resumed.unwrap_err(), &["bad_state"], "resume from a state the reader refuses");
        }
    };
    let style = v.get("style").and_then(Value::as_str).and_then(|s| Style::parse(s).ok()).unwrap_or(Style::OpenAi);
    let answer = adapter::answer(&halted.pending.id, true, None);
    // The reader refuses a turn whose calls lack ids or share one (results pair by id), so
    // everything that reads is held to the full result checks.
    for m in &history {
        if let Message::Assistant(t) = m {
            for (i, c) in t.calls.iter().enumerate() {
                assert!(
                    !c.id.is_empty() && !t.calls[..i].iter().any(|d| d.id == c.id),
                    "a read history has a call without an id of its own"
                );
            }
        }
    }
    match adapter::resume_to_end(style, history, halted.pending, answer) {
        Ok(r) => check_result(&r, "resume of a loaded state"),
        Err(e) => expect_code(&e, &["bad_state", "bad_input"], "resume of a loaded state"),
    }
}

/// Target `conversation`: `state::load_conversation` on any JSON; what loads round-trips.
pub fn conversation(data: &[u8]) {
    let Ok(v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let (state, transcript) = match load_conversation(&v) {
        Ok(x) => x,
        Err(e) => return expect_code(&e, &["bad_state", "bad_input"], "load_conversation"),
    };
    let saved = serde_json::to_value(&state).expect("a ConversationState serialises");
    let (again, transcript2) = load_conversation(&saved).unwrap_or_else(|e| panic!("a loaded conversation state does not reload: {e:?}"));
    assert_eq!(again, state, "conversation state changed over a JSON round trip");
    assert_eq!(transcript2, transcript, "conversation transcript changed over a JSON round trip");
}
