//! The structure-aware loop target: an `arbitrary` script of model replies (text, tool calls with
//! provider ids, missing ids, repeated ids and ids that look synthesised; known, relay, suspending
//! and unknown tools; good, invalid and non-object arguments; HTTP failures), an optional
//! in-process `waitFor`, and a list of resumes (good answers, declines, stale answer ids, a
//! replayed answer after the run went on). Each whole run goes through the core's state machine
//! and driver natively, and every result is checked: no panic, ids unique and non-empty in each
//! assistant turn, every call with exactly one result (a halted turn: at most one, some missing),
//! a halted result survives JSON and `state::load`, every saved conversation state reloads, and a
//! resume with a good answer continues.

use crate::adapter::{self, WaitPlan, World};
use arbitrary::{Arbitrary, Unstructured};
use serde_json::{json, Value};
use toolnexus_wasm::dialect::read;
use toolnexus_wasm::message::Message;
use toolnexus_wasm::provider::{HttpResponse, Style};
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::state::{load, load_conversation};
use toolnexus_wasm::suspend::Request;

#[derive(Arbitrary, Debug)]
struct Script {
    style: u8,
    max_turns: u8,
    wait: Option<(Option<bool>, bool)>,
    history: bool,
    turns: Vec<Turn>,
    resumes: Vec<Resume>,
}

#[derive(Arbitrary, Debug)]
enum Turn {
    Text(u8),
    Calls(Vec<Call>),
    HttpError,
}

#[derive(Arbitrary, Debug)]
struct Call {
    id: Id,
    tool: Tool,
    args: Args,
}

#[derive(Arbitrary, Debug)]
enum Id {
    Missing,
    Empty,
    Pool(u8),
    /// Shaped like the ids the loop synthesises (`call_<turn>_<index>`).
    SynthLike(u8, u8),
}

#[derive(Arbitrary, Debug)]
enum Tool {
    Lookup,
    Auth,
    AuthAgain,
    Click,
    Unknown,
}

#[derive(Arbitrary, Debug)]
enum Args {
    Object(u8),
    Empty,
    NotJson,
    NotObject,
}

#[derive(Arbitrary, Debug)]
enum Resume {
    /// Answer the pending request (`ok`), relay results by id for the calls whose bit is set, or
    /// the single-call shorthand.
    Good { ok: bool, mask: u8, shorthand: bool },
    /// First an answer whose id does not echo the request (refused, the model never called),
    /// then a good one.
    StaleId,
}

const POOL: [&str; 4] = ["a", "b", "call_x", "toolu_1"];

impl Call {
    fn id(&self) -> Option<String> {
        match self.id {
            Id::Missing => None,
            Id::Empty => Some(String::new()),
            Id::Pool(i) => Some(POOL[usize::from(i) % POOL.len()].into()),
            Id::SynthLike(t, i) => Some(format!("call_{}_{}", t % 4, i % 4)),
        }
    }
    fn name(&self) -> &'static str {
        match self.tool {
            Tool::Lookup => "lookup",
            Tool::Auth | Tool::AuthAgain => "auth",
            Tool::Click => "click",
            Tool::Unknown => "nope",
        }
    }
    /// The arguments as the raw JSON text a provider would send.
    fn args(&self) -> String {
        let again = matches!(self.tool, Tool::AuthAgain);
        match self.args {
            Args::Object(n) => json!({"n": n, "again": again}).to_string(),
            Args::Empty => {
                if again {
                    json!({"again": true}).to_string()
                } else {
                    String::new()
                }
            }
            Args::NotJson => "{\"n\": ".into(),
            Args::NotObject => "[1,2]".into(),
        }
    }
}

/// One reply in the style's wire format.
fn reply(style: Style, turn: &Turn) -> HttpResponse {
    let calls = match turn {
        Turn::Text(n) => return adapter::final_text(style, &format!("text {n}")),
        Turn::HttpError => return HttpResponse { status: 500, body: "{\"error\":{\"message\":\"overloaded\"}}".into(), retry_after: None },
        Turn::Calls(c) => c,
    };
    let with_id = |mut v: Value, key: &str, c: &Call| {
        if let Some(id) = c.id() {
            v[key] = Value::String(id);
        }
        v
    };
    let input = |c: &Call| serde_json::from_str::<Value>(&c.args()).unwrap_or_else(|_| Value::String(c.args()));
    let body = match style {
        Style::OpenAi => {
            let tc: Vec<Value> = calls
                .iter()
                .map(|c| with_id(json!({"type": "function", "function": {"name": c.name(), "arguments": c.args()}}), "id", c))
                .collect();
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": tc}, "finish_reason": "tool_calls"}]})
        }
        Style::Anthropic => {
            let blocks: Vec<Value> =
                calls.iter().map(|c| with_id(json!({"type": "tool_use", "name": c.name(), "input": input(c)}), "id", c)).collect();
            json!({"type": "message", "role": "assistant", "content": blocks, "stop_reason": "tool_use"})
        }
        Style::Gemini => {
            let parts: Vec<Value> =
                calls.iter().map(|c| json!({"functionCall": with_id(json!({"name": c.name(), "args": input(c)}), "id", c)})).collect();
            json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]})
        }
        Style::Responses => {
            let items: Vec<Value> = calls
                .iter()
                .map(|c| with_id(json!({"type": "function_call", "name": c.name(), "arguments": c.args()}), "call_id", c))
                .collect();
            json!({"status": "completed", "output": items})
        }
    };
    HttpResponse { status: 200, body: body.to_string(), retry_after: None }
}

pub fn assert_unique_ids(ids: &[String], what: &str) {
    for (i, id) in ids.iter().enumerate() {
        assert!(!id.is_empty(), "{what}: call {i} has an empty id: {ids:?}");
        assert!(!ids[..i].contains(id), "{what}: id {id:?} is used twice: {ids:?}");
    }
}

/// The invariants every result of a run must hold.
pub fn check_result(r: &RunResult, what: &str) {
    let transcript = read(&r.messages()).unwrap_or_else(|e| panic!("{what}: the result's messages do not read back: {e:?}"));
    let last_calls = transcript.iter().rposition(|m| matches!(m, Message::Assistant(t) if !t.calls.is_empty()));
    for (i, m) in transcript.iter().enumerate() {
        let Message::Assistant(turn) = m else {
            continue;
        };
        if turn.calls.is_empty() {
            continue;
        }
        let ids: Vec<String> = turn.calls.iter().map(|c| c.id.clone()).collect();
        assert_unique_ids(&ids, what);
        let results: Vec<String> = match transcript.get(i + 1) {
            Some(Message::Tool(outs)) => outs.iter().map(|o| o.call_id.clone()).collect(),
            _ => Vec::new(),
        };
        for (k, id) in results.iter().enumerate() {
            assert!(ids.contains(id), "{what}: result for {id:?}, which is no call of its turn {ids:?}");
            assert!(!results[..k].contains(id), "{what}: two results for call {id:?}");
        }
        let halted_turn = r.status == Status::Pending && Some(i) == last_calls;
        if halted_turn {
            assert!(results.len() < ids.len(), "{what}: halted, but every call of the halted turn has a result");
        } else {
            assert_eq!(results.len(), ids.len(), "{what}: calls {ids:?} have results {results:?}");
        }
    }
    match (&r.status, &r.pending) {
        (Status::Pending, Some(p)) => {
            assert!(!p.id.is_empty(), "{what}: a pending request without an id")
        }
        (Status::Pending, None) => panic!("{what}: pending without a request"),
        (_, Some(p)) => panic!("{what}: status {:?} with a pending request {p:?}", r.status),
        _ => {}
    }
}

/// A halted result through JSON, as a host keeps it, and back through `state::load`.
fn round_trip(r: &RunResult) -> (Vec<Message>, Request) {
    let text = r.to_json();
    let v: Value = serde_json::from_str(&text).expect("a RunResult's JSON parses");
    let h = load(&v).unwrap_or_else(|e| panic!("a halted result does not load: {e:?}"));
    assert_eq!(Some(&h.pending), r.pending.as_ref(), "the pending request changed over JSON");
    assert_eq!(h.messages, r.messages(), "the messages changed over JSON");
    (read(&h.messages).expect("checked by check_result"), h.pending)
}

fn check_saves(world: &World) {
    for (k, s) in world.saves.borrow().iter().enumerate() {
        let v = serde_json::to_value(s).expect("a ConversationState serialises");
        if let Err(e) = load_conversation(&v) {
            panic!("saved state {k} does not reload: {e:?}\n{v}");
        }
    }
}

fn answer_for(pending: &Request, ok: bool, mask: u8, shorthand: bool) -> toolnexus_wasm::suspend::Answer {
    let data = if shorthand {
        json!({"output": "clicked", "isError": mask & 1 == 1})
    } else {
        let results: Vec<Value> = pending
            .relay_calls()
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << (i % 8)) != 0)
            .map(|(_, c)| json!({"id": c.id, "output": format!("clicked {}", c.id)}))
            .collect();
        json!({"results": results, "code": 7})
    };
    adapter::answer(&pending.id, ok, data.as_object().cloned())
}

fn expect_run_error(e: &toolnexus_wasm::Error, what: &str) {
    // The only failure a script can cause is the provider's HTTP 500.
    assert_eq!(e.code(), "provider_http", "{what}: unexpected error {e:?}");
}

/// Target `run_loop`.
pub fn run_loop(data: &[u8]) {
    let Ok(script) = Script::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let style = [Style::OpenAi, Style::Anthropic, Style::Gemini, Style::Responses][usize::from(script.style % 4)];
    let max_turns = u32::from(script.max_turns % 6) + 1;
    let replies = script.turns.iter().take(12).map(|t| reply(style, t)).collect();
    let wait = script.wait.map(|(ok, shorthand)| WaitPlan { ok, shorthand });
    let world = World::new(replies, adapter::final_text(style, "done"), wait);
    let history = if script.history {
        vec![
            Message::User("earlier".into()),
            Message::Assistant(toolnexus_wasm::message::AssistantTurn { text: "hello".into(), calls: vec![], reasoning: None }),
        ]
    } else {
        Vec::new()
    };

    let mut result = adapter::start(&world, style, max_turns, history, "go");
    for plan in script.resumes.iter().take(4) {
        let r = match &result {
            Err(e) => return expect_run_error(e, "run"),
            Ok(r) => r,
        };
        check_result(r, "run");
        check_saves(&world);
        if r.status != Status::Pending {
            return;
        }
        let (history, pending) = round_trip(r);
        let (ok, mask, shorthand) = match *plan {
            Resume::Good { ok, mask, shorthand } => (ok, mask, shorthand),
            Resume::StaleId => {
                let before = world.requests.get();
                let mut stale = answer_for(&pending, true, 0xff, false);
                stale.id.push_str("-stale");
                let e =
                    adapter::resume(&world, style, max_turns, history.clone(), pending.clone(), stale).expect_err("a stale answer resumed");
                assert_eq!(e.code(), "answer_mismatch", "stale answer: {e:?}");
                assert_eq!(world.requests.get(), before, "a refused answer reached the model");
                (true, 0xff, false)
            }
        };
        let answer = answer_for(&pending, ok, mask, shorthand);
        result = adapter::resume(&world, style, max_turns, history.clone(), pending.clone(), answer.clone());
        // Replaying the same answer over the transcript the resume produced is refused once that
        // run finished: its halted turn is no longer the last.
        if let Ok(done) = &result {
            if done.status != Status::Pending {
                let after = read(&done.messages()).expect("checked below");
                let replay = adapter::resume(&world, style, max_turns, after, pending, answer);
                let e = replay.expect_err("an answer replayed over a finished transcript resumed");
                assert_eq!(e.code(), "bad_state", "replayed answer: {e:?}");
            }
        }
    }
    match &result {
        Err(e) => expect_run_error(e, "run"),
        Ok(r) => {
            check_result(r, "run");
            check_saves(&world);
        }
    }
}
