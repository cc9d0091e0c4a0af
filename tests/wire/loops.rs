//! Every recorded reply with tool calls as the first model reply of a run (whole replies through
//! `Scripted`, streams through `Chunked` cut by a seed), a native tool answering, and a recorded
//! text reply finishing. Then the same with the calls on relay tools: the run halts, its result
//! goes through JSON text, and a fresh resume answers it. Both follow-up requests must carry the
//! reasoning state the provider validates, the same in both, and the same as the real client's
//! recorded follow-up where there is one (see `requests`).

use crate::common::*;
use crate::manifest::*;
use crate::replies::parsed;
use crate::requests::*;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{relay_answer, RelayResult};
use toolnexus_wasm::tool::{ToolResult, ToolSpec};

/// Recorded first replies whose real follow-up request is recorded too.
const FOLLOW_UPS: &[(&str, &str)] = &[
    ("anthropic/parallel_tool_calls.json", "anthropic/parallel_tool_calls.request.json"),
    ("anthropic/parallel_tool_calls.sse", "anthropic/parallel_tool_calls_stream.request.json"),
    ("anthropic/thinking_tool.json", "anthropic/thinking_tool.request.json"),
    ("anthropic/thinking_tool_stream.sse", "anthropic/thinking_tool_stream.request.json"),
    ("gemini/parallel_tool_calls.json", "gemini/parallel_tool_calls.request.json"),
    ("gemini/tool_call_stream.sse", "gemini/tool_loop_answer.request.json"),
    ("openai/tool_call_usage_stream.sse", "openai/tool_loop_answer.request.json"),
    ("responses/reasoning_tool.json", "responses/reasoning_tool.request.json"),
    // Not ("responses/tool_call_stream.sse", "responses/text_stream.request.json"): the client
    // that recorded it (pydantic-ai) sent the item id (`fc_…`) as the `call_id`, which the API
    // takes as any string pairing a call with its output; the package sends the `call_id` the
    // reply gave. The pairing itself is checked for every reply above.
];

/// The recorded text reply that ends each loop.
fn answer_file(style: &str, stream: bool) -> String {
    let name = match (style, stream) {
        ("openai", true) => "tool_loop_answer.sse",
        ("anthropic", true) => "thinking_tool_answer.sse",
        ("gemini", true) => "tool_loop_answer.sse",
        ("responses", true) => "text_stream.sse",
        _ => "text.json",
    };
    format!("{style}/{name}")
}

const FIXED_OUTPUT: &str = "fixed output";

/// A call's tool name, arguments and the output it gets, until it is used.
type Slot = (String, Value, String);

/// One case: the recording, its follow-up (if recorded), the prompt and the outputs per call.
struct Case {
    style: Style,
    first: toolnexus_wasm::provider::ModelReply,
    answer: Entry,
    answer_reply: toolnexus_wasm::provider::ModelReply,
    recorded: Option<Value>,
    prompt: String,
    outputs: Vec<String>,
}

impl Case {
    fn new(e: &Entry) -> Result<Case, String> {
        let style = e.style()?;
        let first = parsed(e)?.1.map_err(|(c, m)| format!("the recording does not parse ({c}: {m})"))?;
        let answer = entry(&answer_file(&e.style, e.stream));
        let answer_reply = parsed(&answer)?.1.map_err(|(c, m)| format!("{}: {c}: {m}", answer.file))?;
        let recorded = FOLLOW_UPS.iter().find(|(r, _)| *r == e.file).map(|(_, q)| read_json(q));
        let prompt = recorded.as_ref().map(|q| prompt_of(&e.style, q)).filter(|p| !p.is_empty()).unwrap_or_else(|| "Use the tools.".into());
        let mut outputs = recorded.as_ref().map(|q| outputs_of(&e.style, q)).unwrap_or_default();
        outputs.resize(first.turn.calls.len(), FIXED_OUTPUT.into());
        Ok(Case { style, first, answer, answer_reply, recorded, prompt, outputs })
    }

    fn names(&self) -> Vec<String> {
        let mut n: Vec<String> = self.first.turn.calls.iter().map(|c| c.name.clone()).collect();
        n.dedup();
        n.sort();
        n.dedup();
        n
    }

    /// Native tools answering each call with its recorded output (matched by name and
    /// arguments, in call order).
    fn tools(&self) -> Tools {
        let left: Rc<RefCell<Vec<Option<Slot>>>> = Rc::new(RefCell::new(
            self.first
                .turn
                .calls
                .iter()
                .zip(&self.outputs)
                .map(|(c, o)| Some((c.name.clone(), Value::Object(c.input_or_empty()), o.clone())))
                .collect(),
        ));
        let mut tools = Tools::default();
        for name in self.names() {
            let left = left.clone();
            let me = name.clone();
            tools = tools.with(&name, move |args, _| {
                let args = Value::Object(args.clone());
                let mut left = left.borrow_mut();
                let slot = left.iter_mut().find(|s| s.as_ref().is_some_and(|(n, a, _)| *n == me && *a == args));
                ToolResult::ok(slot.and_then(Option::take).map_or(FIXED_OUTPUT.to_string(), |(_, _, o)| o))
            });
        }
        tools
    }

    fn kit(&self, spec: fn(&str) -> ToolSpec) -> Vec<ToolSpec> {
        self.names().iter().map(|n| spec(n)).collect()
    }

    /// What the finished run must report.
    fn check_done(&self, e: &Entry, r: &RunResult) -> Result<(), String> {
        same("status", r.status, Status::Done)?;
        same("text", r.text.as_str(), self.answer.turn_text())?;
        same("finishReason", r.finish_reason.map(|f| f.as_str()), self.answer.expect["finish"].as_str())?;
        same("providerFinishReason", r.provider_finish_reason.as_deref(), self.answer.provider_finish())?;
        same("reasoning", r.reasoning.clone(), format!("{}{}", self.first.reasoning_text, self.answer_reply.reasoning_text))?;
        same("reasoning present", !r.reasoning.is_empty(), e.expect["reasoning"] == true || self.answer.expect["reasoning"] == true)?;
        same("tool calls run", r.tool_call_count, e.calls().len())?;
        // The durable state (the result's messages) keeps every signature of both replies.
        let kept = signatures_in(&e.style, &Value::Array(r.messages()));
        same("signatures kept in the result's messages", kept, e.signatures() + self.answer.signatures())
    }

    /// The follow-up request: its reasoning state and calls against the reply and the recording.
    fn check_follow_up(&self, e: &Entry, body: &Value) -> Result<Value, String> {
        let msgs = transcript(&e.style, body);
        let got = validated(&e.style, &msgs);
        same("signatures sent back", signatures_in(&e.style, &Value::Array(msgs.clone())), e.signatures())?;
        if !e.stream {
            same("follow-up vs the reply's own reasoning state and calls", &got, &expected_from_reply(&e.style, &read_json(&e.file)))?;
        }
        if let Some(q) = &self.recorded {
            let want = as_recorded(&e.style, &validated(&e.style, &transcript(&e.style, q)));
            same("follow-up vs the recorded follow-up", &as_recorded(&e.style, &got), &want)?;
        }
        let ids: Vec<&str> = self.first.turn.calls.iter().map(|c| c.id.as_str()).collect();
        if e.style != "gemini" {
            // Gemini gives no ids; elsewhere the provider's ids go back unchanged.
            for id in &ids {
                if !serde_json::to_string(&got).unwrap().contains(&format!("\"{id}\"")) {
                    return Err(format!("call id {id} is not in the follow-up: {got}"));
                }
            }
        }
        Ok(got)
    }
}

fn straight(e: &Entry) -> Result<Value, String> {
    let c = Case::new(e)?;
    let tools = c.tools();
    let (r, second) = if e.stream {
        let t = Chunked::default();
        t.push(200, chunks(&e.bytes(), 3, 9));
        t.push(200, chunks(&c.answer.bytes(), 4, 64));
        let r = run_full(c.style, true, c.kit(native), &t, &tools, None, &Host::default(), vec![], &c.prompt);
        let bodies: Vec<Value> = t.requests.borrow().iter().map(|q| q.json()).collect();
        (r, bodies)
    } else {
        let p = Scripted::default();
        p.push(200, e.text());
        p.push(200, c.answer.text());
        let r = run(c.style, c.kit(native), &p, &tools, None, &[], &c.prompt);
        (r, p.bodies())
    };
    let r = r.map_err(|err| format!("the run failed: {}: {}", err.code(), err.message))?;
    // Both checks run, so one failure does not hide the other.
    let done = c.check_done(e, &r);
    same("requests", second.len(), 2)?;
    match (done, c.check_follow_up(e, &second[1])) {
        (Ok(()), follow) => follow.map_err(|m| format!("straight run: {m}")),
        (Err(d), Ok(_)) => Err(format!("straight run: {d}")),
        (Err(d), Err(f)) => Err(format!("straight run: {d}; and {f}")),
    }
}

/// Halts on relay tools, stores the result as JSON text, resumes in a fresh run.
fn relayed(e: &Entry) -> Result<Value, String> {
    let c = Case::new(e)?;
    let host = Host::default();
    let r = if e.stream {
        let t = Chunked::default();
        t.push(200, chunks(&e.bytes(), 5, 9));
        run_full(c.style, true, c.kit(relay), &t, &Tools::default(), None, &host, vec![], &c.prompt)
    } else {
        let p = Scripted::default();
        p.push(200, e.text());
        run(c.style, c.kit(relay), &p, &Tools::default(), None, &[], &c.prompt)
    };
    let r = r.map_err(|err| format!("the relay run failed: {}: {}", err.code(), err.message))?;
    same("status of the relay run", r.status, Status::Pending)?;
    let stored = r.to_json();
    let stored_messages = serde_json::from_str::<Value>(&stored).unwrap()["messages"].clone();
    same("signatures in the stored result's messages", signatures_in(&e.style, &stored_messages), e.signatures())?;
    let halted = state::load(&serde_json::from_str(&stored).unwrap()).map_err(|err| format!("state::load: {}", err.message))?;
    let results: Vec<RelayResult> = halted
        .pending
        .relay_calls()
        .iter()
        .zip(&c.outputs)
        .map(|(call, out)| RelayResult { id: call.id.clone(), output: out.clone(), is_error: false, parts: vec![] })
        .collect();
    same("relay calls", results.len(), e.calls().len())?;
    let answer = relay_answer(&halted.pending.id, results);
    let (out, body) = if e.stream {
        let t = Chunked::default();
        t.push(200, chunks(&c.answer.bytes(), 6, 64));
        let history = toolnexus_wasm::dialect::read(&halted.messages).map_err(|err| format!("dialect::read: {}", err.message))?;
        let out = resume_full(c.style, true, c.kit(relay), &t, &Tools::default(), &host, history, halted.pending, answer);
        let body = t.requests.borrow().first().map(|q| q.json());
        (out, body)
    } else {
        let p = Scripted::default();
        p.push(200, c.answer.text());
        let out = resume(c.style, c.kit(relay), &p, &Tools::default(), None, &halted.messages, halted.pending, answer);
        (out, p.bodies().first().cloned())
    };
    let out = out.map_err(|err| format!("the resume failed: {}: {}", err.code(), err.message))?;
    same("status after the resume", out.status, Status::Done)?;
    same("text after the resume", out.text.as_str(), c.answer.turn_text())?;
    c.check_follow_up(e, &body.ok_or("the resume sent no request")?).map_err(|m| format!("resumed run: {m}"))
}

fn loop_entry(e: &Entry) -> Result<(), String> {
    let a = straight(e)?;
    let b = relayed(e)?;
    same("follow-up after halt → JSON → resume vs the straight run's", b, a)
}

fn with_calls(style: &str) -> Vec<Entry> {
    entries_of(style).into_iter().filter(|e| !e.calls().is_empty() && e.unsupported().is_none()).collect()
}

#[test]
fn openai_tool_replies_run_through_the_loop() {
    each(&with_calls("openai"), loop_entry);
}

#[test]
fn anthropic_tool_replies_run_through_the_loop() {
    each(&with_calls("anthropic"), loop_entry);
}

#[test]
fn gemini_tool_replies_run_through_the_loop() {
    each(&with_calls("gemini"), loop_entry);
}

#[test]
fn responses_tool_replies_run_through_the_loop() {
    each(&with_calls("responses"), loop_entry);
}

/// Every recorded follow-up is paired with the reply it follows: same call names, and (but for
/// Gemini, whose ids are the client's) the same ids.
#[test]
fn every_recorded_follow_up_belongs_to_its_reply() {
    let mut seen = 0;
    for (reply, request) in FOLLOW_UPS {
        let e = entry(reply);
        let q = validated(&e.style, &transcript(&e.style, &read_json(request)));
        let dump = q.to_string();
        for c in e.calls() {
            assert!(dump.contains(&format!("\"{}\"", c["name"].as_str().unwrap())), "{request}: {dump}");
        }
        assert_eq!(signatures_in(&e.style, &Value::Array(transcript(&e.style, &read_json(request)))), e.signatures(), "{request}");
        if !e.stream {
            // What the extractors take from the reply is what the real client sent back.
            assert_eq!(as_recorded(&e.style, &expected_from_reply(&e.style, &read_json(reply))), as_recorded(&e.style, &q), "{request}");
        }
        seen += 1;
    }
    assert_eq!(seen, FOLLOW_UPS.len());
}

/// Anthropic's redacted_thinking reply ended a turn; the next turn of the conversation (the
/// history through JSON, a new prompt) sends the redacted block back as the real client did.
#[test]
fn anthropic_redacted_thinking_goes_back_in_the_next_turn() {
    let e = entry("anthropic/redacted_thinking.json");
    let recorded = read_json("anthropic/redacted_thinking.request.json");
    let msgs = transcript("anthropic", &recorded);
    let p = Scripted::default();
    p.push(200, e.text());
    let r1 = run(Style::Anthropic, vec![], &p, &Tools::default(), None, &[], &prompt_of("anthropic", &recorded)).unwrap();
    let stored: Value = serde_json::from_str(&r1.to_json()).unwrap();
    assert_eq!(signatures_in("anthropic", &stored["messages"]), 1, "the state keeps the redacted block: {stored}");
    let history = stored["messages"].as_array().unwrap().clone();
    let next = msgs.last().unwrap()["content"][0]["text"].as_str().unwrap();
    let p2 = Scripted::default();
    p2.push(200, entry("anthropic/text.json").text());
    run(Style::Anthropic, vec![], &p2, &Tools::default(), None, &history, next).unwrap();
    let sent = transcript("anthropic", &p2.bodies()[0]);
    assert_eq!(validated("anthropic", &sent), validated("anthropic", &msgs));
    assert_eq!(validated("anthropic", &sent), expected_from_reply("anthropic", &read_json(&e.file)));
}
