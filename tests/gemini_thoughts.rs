//! Gemini 3 thought signatures and thought parts, verbatim: kept where Gemini put them, sent
//! back byte for byte at the same part position in every follow-up request (streamed or not,
//! across a halt that went through JSON), never sent to another model, replaced for a Gemini 3
//! target by the documented skip-validator signature when a call has none; thought text is
//! reasoning, never answer text; an empty candidate that did not plainly stop is a typed error;
//! an empty model turn is never sent as `{ text: "" }`.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::dialect::{read, render};
use toolnexus_wasm::driver::{drive, Env, Transport};
use toolnexus_wasm::message::{AssistantTurn, Message, Reasoning, ToolCall, ToolOutput};
use toolnexus_wasm::provider::{parse_response, Delta, Finish, HttpResponse, ModelReply, ProviderConfig, StreamAssembler, Style};
use toolnexus_wasm::run::{LoopConfig, ResumeInput, Run, RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{relay_answer, RelayResult, Request};
use toolnexus_wasm::tool::{ToolResult, ToolSpec, Toolkit};

const G3: &str = "gemini-3-pro-preview";
// Opaque signatures in the shape Gemini sends them (base64), made up for these tests.
const S1: &str = "CiQBjz1rX2d3ZWF0aGVyLXBhcmlzLXN0ZXAtMQ==";
const S2: &str = "CiQBjz1rXzJzdGVwLXR3by10aW1lLWxvb2t1cA==";
const S3: &str = "EpAICo0IAb4+9vtleHQtcGFydC1zaWduYXR1cmU=";
const SKIP: &str = "skip_thought_signature_validator";
const PLAN: &str = "**Planning the lookup**\n\nI will ask for both cities at once.";
const ANSWER: &str = "Sunny in both; 09:00 in Paris.";

fn cfg(model: &str) -> LoopConfig {
    let mut c = config(Style::Gemini);
    c.provider.model = model.into();
    c
}

fn provider(model: &str) -> ProviderConfig {
    cfg(model).provider
}

/// A whole generateContent reply with these parts.
fn reply(parts: Value, reason: &str) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": reason, "index": 0}],
           "usageMetadata": {"promptTokenCount": 30, "candidatesTokenCount": 8, "totalTokenCount": 120, "thoughtsTokenCount": 82},
           "modelVersion": G3})
}

/// The same reply as an SSE body: one event per list of parts, the finish reason and the usage
/// on the last.
fn sse(events: &[Value], reason: &str) -> String {
    let mut out = String::new();
    for (i, parts) in events.iter().enumerate() {
        let mut cand = json!({"content": {"role": "model", "parts": parts}, "index": 0});
        if i + 1 == events.len() {
            cand["finishReason"] = json!(reason);
        }
        let ev = json!({"candidates": [cand],
                        "usageMetadata": {"promptTokenCount": 30, "candidatesTokenCount": 8, "totalTokenCount": 120, "thoughtsTokenCount": 82},
                        "modelVersion": G3});
        out.push_str(&format!("data: {ev}\r\n\r\n"));
    }
    out
}

fn weather_kit() -> Vec<ToolSpec> {
    vec![native("get_weather"), native("get_time")]
}

fn weather_tools() -> Tools {
    Tools::default()
        .with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap())))
        .with("get_time", |a, _| ToolResult::ok(format!("09:00 in {}", a["city"].as_str().unwrap())))
}

fn go(
    model: &str,
    kit: Vec<ToolSpec>,
    t: &dyn Transport,
    stream: bool,
    tools: &Tools,
    history: Vec<Message>,
    prompt: &str,
) -> toolnexus_wasm::Result<RunResult> {
    let (ids, clock, policy) = (ids(), tick(), streaming(stream));
    let env = Env { policy: &policy, ..Env::new(t, tools, &ids, &clock) };
    let (r, step) = Run::start(cfg(model), Toolkit::new(kit)?, history, prompt)?;
    futures_executor::block_on(drive(r, step, &env))
}

fn go_resume(
    model: &str,
    kit: Vec<ToolSpec>,
    t: &dyn Transport,
    history: Vec<Message>,
    pending: Request,
    answer: toolnexus_wasm::suspend::Answer,
) -> RunResult {
    let (ids, clock) = (ids(), tick());
    let tools = Tools::default();
    let env = Env::new(t, &tools, &ids, &clock);
    let (r, step) =
        Run::resume(cfg(model), Toolkit::new(kit).unwrap(), ResumeInput { history, pending, answer, children: Vec::new() }).unwrap();
    futures_executor::block_on(drive(r, step, &env)).unwrap()
}

/// The compact JSON text of `v`, as a request body writes it.
fn text(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// The three steps of a Gemini 3 tool loop: a thought and two parallel calls (signed on the
/// first only, as Gemini does), a sequential call (signed), a signed answer.
fn step_parts() -> [Value; 3] {
    [
        json!([{"text": PLAN, "thought": true},
               {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": S1},
               {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}]),
        json!([{"functionCall": {"name": "get_time", "args": {"city": "Paris"}}, "thoughtSignature": S2}]),
        json!([{"text": ANSWER, "thoughtSignature": S3}]),
    ]
}

/// The same steps streamed: the thought and the answer in pieces, the answer's signature on an
/// empty text part at the very end.
fn step_streams() -> [String; 3] {
    let [one, two, _] = step_parts();
    [
        sse(
            &[
                json!([{"text": "**Planning the lookup**\n\n", "thought": true}]),
                json!([{"text": "I will ask for both cities at once.", "thought": true}]),
                json!([one[1]]),
                json!([one[2]]),
            ],
            "STOP",
        ),
        sse(&[two], "STOP"),
        sse(
            &[json!([{"text": "Sunny in both; "}]), json!([{"text": "09:00 in Paris."}]), json!([{"text": "", "thoughtSignature": S3}])],
            "STOP",
        ),
    ]
}

/// Model contents as the follow-up requests must carry them, byte for byte.
fn first_turn() -> String {
    text(&json!({"role": "model", "parts": [
        {"text": PLAN, "thought": true},
        {"functionCall": {"id": "call_1_0", "name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": S1},
        {"functionCall": {"id": "call_1_1", "name": "get_weather", "args": {"city": "Tokyo"}}}]}))
}
fn second_turn() -> String {
    text(
        &json!({"role": "model", "parts": [{"functionCall": {"id": "call_2_0", "name": "get_time", "args": {"city": "Paris"}}, "thoughtSignature": S2}]}),
    )
}
fn third_turn() -> String {
    text(&json!({"role": "model", "parts": [{"text": ANSWER, "thoughtSignature": S3}]}))
}

fn check_loop(r: &RunResult, bodies: &[String]) {
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.text, ANSWER, "thought text never in the answer");
    assert_eq!(r.reasoning, PLAN);
    assert_eq!(bodies.len(), 3);
    assert!(!bodies[0].contains("thoughtSignature"));
    assert!(bodies[1].contains(&first_turn()), "{}", bodies[1]);
    assert!(bodies[2].contains(&[first_turn().as_str(), ","].concat()), "{}", bodies[2]);
    assert!(bodies[2].contains(&second_turn()), "{}", bodies[2]);
    for b in bodies {
        assert!(!b.contains("reasoningOrigin") && !b.contains(SKIP), "{b}");
    }
    // The state view names the origin of each model content's reasoning.
    let m = r.messages();
    let origin = json!({"provider": "gemini", "model": G3});
    assert_eq!((&m[1]["reasoningOrigin"], &m[3]["reasoningOrigin"], &m[5]["reasoningOrigin"]), (&origin, &origin, &origin));
    assert_eq!(m[5]["parts"], json!([{"text": ANSWER, "thoughtSignature": S3}]));
}

#[test]
fn a_gemini_3_tool_loop_sends_every_signature_back_where_it_came() {
    let p = Scripted::new(step_parts().into_iter().map(|parts| reply(parts, "STOP")).collect());
    let r = go(G3, weather_kit(), &p, false, &weather_tools(), vec![], "weather and time?").unwrap();
    let bodies: Vec<String> = p.requests.borrow().iter().map(|q| q.body.clone()).collect();
    check_loop(&r, &bodies);

    // The conversation goes on from the result's JSON text: the text part's signature too.
    let saved: Value = serde_json::from_str(&r.to_json()).unwrap();
    let history = read(saved["messages"].as_array().unwrap()).unwrap();
    assert_eq!(history, r.transcript, "the JSON keeps every signature and its origin");
    let p2 = Scripted::new(vec![gm_text("Rain tomorrow.")]);
    go(G3, weather_kit(), &p2, false, &weather_tools(), history, "and tomorrow?").unwrap();
    let body = p2.requests.borrow()[0].body.clone();
    let turns = [first_turn(), second_turn(), third_turn()];
    for t in &turns {
        assert!(body.contains(t.as_str()), "{t} in {body}");
    }
    assert!(!body.contains("reasoningOrigin"));
    let contents = p2.bodies()[0]["contents"].clone();
    assert_eq!(contents.as_array().unwrap().len(), 7);
    assert_eq!(contents[6], json!({"role": "user", "parts": [{"text": "and tomorrow?"}]}));
}

#[test]
fn a_streamed_loop_sends_the_same_bytes_as_a_whole_one() {
    let whole = Scripted::new(step_parts().into_iter().map(|parts| reply(parts, "STOP")).collect());
    let a = go(G3, weather_kit(), &whole, false, &weather_tools(), vec![], "weather and time?").unwrap();
    for cut in [1, 57, 200, 333] {
        let t = Chunked::default();
        for s in step_streams() {
            t.push_split(&s, cut.min(s.len()));
        }
        let b = go(G3, weather_kit(), &t, true, &weather_tools(), vec![], "weather and time?").unwrap();
        let bodies: Vec<String> = t.requests.borrow().iter().map(|q| q.body.clone()).collect();
        check_loop(&b, &bodies);
        let want: Vec<String> = whole.requests.borrow().iter().map(|q| q.body.clone()).collect();
        assert_eq!(bodies, want, "cut at {cut}");
        assert_eq!(b.transcript, a.transcript);
    }
}

fn assemble(model: &str, chunks: &[&[u8]]) -> (Vec<Delta>, toolnexus_wasm::Result<ModelReply>) {
    let mut a = StreamAssembler::new(&provider(model));
    let mut deltas = Vec::new();
    for c in chunks {
        if let Err(e) = a.push(c, &mut deltas) {
            return (deltas, Err(e));
        }
    }
    (deltas, a.finish())
}

fn parse(model: &str, v: &Value) -> toolnexus_wasm::Result<ModelReply> {
    parse_response(&provider(model), &HttpResponse { status: 200, body: v.to_string(), retry_after: None })
}

#[test]
fn streamed_replies_equal_whole_ones_at_every_split() {
    let [one, two, three] = step_parts();
    let [s1, s2, s3] = step_streams();
    // A thought cut in two whose signature comes on its last piece.
    let signed_thought = (
        json!([{"text": "Let me think. Then answer.", "thought": true, "thoughtSignature": S2}, {"text": "4"}]),
        sse(
            &[
                json!([{"text": "Let me think. ", "thought": true}]),
                json!([{"text": "Then answer.", "thought": true, "thoughtSignature": S2}]),
                json!([{"text": "4"}]),
            ],
            "STOP",
        ),
    );
    // A thought between two calls, each part its own event: it stays after the first call.
    let a = json!({"functionCall": click_call("#a"), "thoughtSignature": S1});
    let (b, mid) = (json!({"functionCall": click_call("#b")}), json!({"text": "now the second", "thought": true}));
    let between = (json!([a, mid, b]), sse(&[json!([a]), json!([mid]), json!([b])], "STOP"));
    let cases = [(one, s1), (two, s2), (three, s3), signed_thought, between];
    for (n, (parts, body)) in cases.iter().enumerate() {
        let whole = parse(G3, &reply(parts.clone(), "STOP")).unwrap();
        let bytes = body.as_bytes();
        for cut in 0..=bytes.len() {
            let (deltas, r) = assemble(G3, &[&bytes[..cut], &bytes[cut..]]);
            assert_eq!(r.unwrap(), whole, "case {n} cut at {cut}");
            assert_eq!(Delta::join(&deltas, false), whole.turn.text, "case {n} cut at {cut}");
            assert_eq!(Delta::join(&deltas, true), whole.reasoning_text, "case {n} cut at {cut}");
        }
    }

    // What each whole reply holds, exactly.
    let r = parse(G3, &reply(cases[0].0.clone(), "STOP")).unwrap();
    assert_eq!((r.turn.text.as_str(), r.reasoning_text.as_str(), r.finish), ("", PLAN, Finish::ToolCalls));
    let sigs: Vec<Option<&str>> = r.turn.calls.iter().map(|c| c.signature.as_deref()).collect();
    assert_eq!(sigs, [Some(S1), None], "the second parallel call stays unsigned, as received");
    let want = Reasoning {
        provider: "gemini".into(),
        model: G3.into(),
        items: vec![(0, json!({"text": PLAN, "thought": true}))],
        text_signature: None,
    };
    assert_eq!(r.turn.reasoning, Some(want));
    let r = parse(G3, &reply(cases[1].0.clone(), "STOP")).unwrap();
    let want = Reasoning { provider: "gemini".into(), model: G3.into(), items: vec![], text_signature: None };
    assert_eq!((r.turn.calls[0].signature.as_deref(), r.turn.reasoning), (Some(S2), Some(want)));
    let r = parse(G3, &reply(cases[2].0.clone(), "STOP")).unwrap();
    assert_eq!((r.turn.text.as_str(), r.turn.reasoning.unwrap().text_signature.as_deref()), (ANSWER, Some(S3)));
    let r = parse(G3, &reply(cases[3].0.clone(), "STOP")).unwrap();
    assert_eq!((r.turn.text.as_str(), r.reasoning_text.as_str()), ("4", "Let me think. Then answer."));
    let items = r.turn.reasoning.unwrap().items;
    assert_eq!(items, [(0, json!({"text": "Let me think. Then answer.", "thought": true, "thoughtSignature": S2}))]);

    let r = parse(G3, &reply(cases[4].0.clone(), "STOP")).unwrap();
    assert_eq!(r.turn.reasoning.unwrap().items, [(1, json!({"text": "now the second", "thought": true}))]);

    // No thought, no signature: no reasoning at all.
    assert_eq!(parse(G3, &gm_text("plain")).unwrap().turn.reasoning, None);
    // Of several signed text parts the last signature is kept; an empty one is none.
    let parts = json!([{"text": "a", "thoughtSignature": S1}, {"text": "b", "thoughtSignature": S2}, {"text": "", "thoughtSignature": ""}]);
    let r = parse(G3, &reply(parts, "STOP")).unwrap();
    assert_eq!((r.turn.text.as_str(), r.turn.reasoning.unwrap().text_signature.as_deref()), ("ab", Some(S2)));
}

/// The results of these calls, all "ok".
fn oks(ids: &[&str]) -> Message {
    Message::Tool(
        ids.iter()
            .map(|id| ToolOutput { call_id: (*id).into(), name: "t".into(), output: "ok".into(), is_error: false, parts: vec![] })
            .collect(),
    )
}

fn click_call(s: &str) -> Value {
    json!({"name": "click", "args": {"s": s}})
}

#[test]
fn a_halt_through_json_resumes_with_the_signatures_for_the_same_model_only() {
    let first = reply(json!([{"functionCall": click_call("#a"), "thoughtSignature": S1}, {"functionCall": click_call("#b")}]), "STOP");
    let p = Scripted::new(vec![first]);
    let r = go(G3, vec![relay("click")], &p, false, &Tools::default(), vec![], "click both").unwrap();
    assert_eq!(r.status, Status::Pending);
    let saved = r.to_json();
    assert!(saved.contains(&format!("\"thoughtSignature\":\"{S1}\"")), "{saved}");

    let signed = text(&json!({"role": "model", "parts": [
        {"functionCall": {"id": "call_1_0", "name": "click", "args": {"s": "#a"}}, "thoughtSignature": S1},
        {"functionCall": {"id": "call_1_1", "name": "click", "args": {"s": "#b"}}}]}));
    let skipped = text(&json!({"role": "model", "parts": [
        {"functionCall": {"id": "call_1_0", "name": "click", "args": {"s": "#a"}}, "thoughtSignature": SKIP},
        {"functionCall": {"id": "call_1_1", "name": "click", "args": {"s": "#b"}}}]}));
    let bare = text(&json!({"role": "model", "parts": [
        {"functionCall": {"id": "call_1_0", "name": "click", "args": {"s": "#a"}}},
        {"functionCall": {"id": "call_1_1", "name": "click", "args": {"s": "#b"}}}]}));
    // A fresh process each time: only the JSON text survives.
    for (model, want) in [(G3, &signed), ("gemini-3-flash-preview", &skipped), ("gemini-2.5-flash", &bare)] {
        let h = state::load(&serde_json::from_str(&saved).unwrap()).unwrap();
        let history = read(&h.messages).unwrap();
        let answer = relay_answer(
            &h.pending.id,
            vec![
                RelayResult { id: "call_1_0".into(), output: "A".into(), is_error: false, parts: vec![] },
                RelayResult { id: "call_1_1".into(), output: "B".into(), is_error: false, parts: vec![] },
            ],
        );
        let p2 = Scripted::new(vec![gm_text("both clicked")]);
        let out = go_resume(model, vec![relay("click")], &p2, history, h.pending, answer);
        assert_eq!(out.text, "both clicked");
        let body = p2.requests.borrow()[0].body.clone();
        assert!(body.contains(want.as_str()), "{model}: {body}");
        assert!(!body.contains("reasoningOrigin"), "{model}");
        assert_eq!(body.matches("thoughtSignature").count(), usize::from(model != "gemini-2.5-flash"), "{model}: {body}");
    }
}

#[test]
fn foreign_turns_get_no_signatures_and_a_gemini_3_target_gets_the_documented_one() {
    let call =
        |id: &str, sig: Option<&str>| ToolCall { id: id.into(), name: "t".into(), arguments: "{}".into(), signature: sig.map(Into::into) };
    let thinking = json!({"type": "thinking", "thinking": "hmm", "signature": "EqQBCkgIARABGAIiQ"});
    let anthropic =
        Reasoning { provider: "anthropic".into(), model: "claude-sonnet-4-5".into(), items: vec![(0, thinking)], text_signature: None };
    let older = Reasoning { provider: "gemini".into(), model: "gemini-2.5-pro".into(), items: vec![], text_signature: Some(S3.into()) };
    let history = vec![
        Message::User("go".into()),
        Message::Assistant(AssistantTurn {
            text: String::new(),
            calls: vec![call("a1", None), call("a2", None)],
            reasoning: Some(anthropic),
        }),
        oks(&["a1", "a2"]),
        Message::Assistant(AssistantTurn { text: "seen".into(), calls: vec![call("g1", Some(S1))], reasoning: Some(older) }),
        oks(&["g1"]),
    ];
    let fc = |id: &str| json!({"id": id, "name": "t", "args": {}});
    for (model, sig) in [(G3, Some(SKIP)), ("gemini-2.5-pro-preview", None)] {
        let p = Scripted::new(vec![gm_text("done")]);
        go(model, vec![native("t")], &p, false, &Tools::default(), history.clone(), "more").unwrap();
        let c = &p.bodies()[0]["contents"];
        let first = |f: Value| match sig {
            Some(s) => json!({"functionCall": f, "thoughtSignature": s}),
            None => json!({"functionCall": f}),
        };
        assert_eq!(c[1], json!({"role": "model", "parts": [first(fc("a1")), {"functionCall": fc("a2")}]}), "{model}");
        assert_eq!(
            c[3],
            json!({"role": "model", "parts": [{"text": "seen"}, first(fc("g1"))]}),
            "{model}: another Gemini model's signatures stay home"
        );
        let body = p.requests.borrow()[0].body.clone();
        assert!(!body.contains("thinking") && !body.contains(S1) && !body.contains(S3), "{body}");
    }
    // To the model that made it, the Gemini turn goes back signed.
    let p = Scripted::new(vec![gm_text("done")]);
    go("gemini-2.5-pro", vec![native("t")], &p, false, &Tools::default(), history.clone(), "more").unwrap();
    assert_eq!(
        p.bodies()[0]["contents"][3],
        json!({"role": "model", "parts": [{"text": "seen", "thoughtSignature": S3}, {"functionCall": fc("g1"), "thoughtSignature": S1}]})
    );
    // An OpenAI run's turn continued by Gemini 3.
    let p1 = Scripted::new(vec![oa_calls(&[("c1", "t", "{}")]), oa_text("ok")]);
    let tools = Tools::default().with("t", |_, _| ToolResult::ok("fine"));
    let a = run(Style::OpenAi, vec![native("t")], &p1, &tools, None, &[], "x").unwrap();
    let p2 = Scripted::new(vec![gm_text("done")]);
    go(G3, vec![native("t")], &p2, false, &tools, read(&a.messages()).unwrap(), "y").unwrap();
    assert_eq!(p2.bodies()[0]["contents"][1], json!({"role": "model", "parts": [{"functionCall": fc("c1"), "thoughtSignature": SKIP}]}));
}

#[test]
fn an_empty_candidate_that_did_not_plainly_stop_is_a_provider_error_naming_why() {
    let malformed = json!({"candidates": [{"content": {"role": "model"}, "finishReason": "MALFORMED_FUNCTION_CALL",
                                           "finishMessage": "Malformed function call: print(default_api.t(x=))", "index": 0}]});
    let cases = [
        (reply(json!([]), "SAFETY"), "Gemini withheld the answer: finishReason SAFETY"),
        (
            malformed,
            "Gemini ended without an answer: finishReason MALFORMED_FUNCTION_CALL (Malformed function call: print(default_api.t(x=)))",
        ),
        (reply(json!([]), "OTHER"), "Gemini ended without an answer: finishReason OTHER"),
        (reply(json!([{"text": "thinking only", "thought": true}]), "MODEL_ARMOR"), "Gemini withheld the answer: finishReason MODEL_ARMOR"),
        (reply(json!([]), "SOME_FUTURE_REASON"), "Gemini ended without an answer: finishReason SOME_FUTURE_REASON"),
    ];
    for (body, message) in &cases {
        let p = Scripted::new(vec![body.clone()]);
        let e = go(G3, vec![native("t")], &p, false, &Tools::default(), vec![], "x").unwrap_err();
        assert_eq!((e.code(), e.message.as_str()), ("provider_error", *message));
        // Streamed, the last event ends the reply the same way.
        let parts = body["candidates"][0]["content"]["parts"].clone();
        let mut ev = body.clone();
        ev["candidates"][0]["content"]["parts"] = if parts.is_null() { json!([]) } else { parts };
        let (_, r) = assemble(G3, &[format!("data: {ev}\r\n\r\n").as_bytes()]);
        let e = r.unwrap_err();
        assert_eq!((e.code(), e.message.as_str()), ("provider_error", *message));
    }
    // Text streamed before a final event that only names the reason: an answer, filtered.
    let body = format!(
        "{}data: {}\r\n\r\n",
        sse(&[json!([{"text": "Part of it"}])], "STOP").replace(",\"finishReason\":\"STOP\"", ""),
        json!({"candidates": [{"finishReason": "SAFETY", "index": 0}]})
    );
    let (_, r) = assemble(G3, &[body.as_bytes()]);
    let r = r.unwrap();
    assert_eq!((r.turn.text.as_str(), r.finish, r.stop_reason.as_deref()), ("Part of it", Finish::ContentFilter, Some("SAFETY")));
    // Blocked prompts stay errors.
    let blocked = json!({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}});
    let e = parse(G3, &blocked).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("provider_error", "Gemini blocked the prompt: PROHIBITED_CONTENT"));
    // The token limit with nothing written is an empty answer cut for length; its thoughts stay.
    let r = parse(G3, &reply(json!([{"text": "long thinking", "thought": true}]), "MAX_TOKENS")).unwrap();
    assert_eq!((r.turn.text.as_str(), r.finish, r.reasoning_text.as_str()), ("", Finish::Length, "long thinking"));
    assert_eq!(toolnexus_wasm::provider::gemini_finish_reason("MALFORMED_FUNCTION_CALL"), None);
    assert_eq!(toolnexus_wasm::provider::gemini_finish_reason("MODEL_ARMOR"), Some("content_filter"));
}

#[test]
fn an_empty_stop_turn_is_never_sent_as_empty_text() {
    let empty = json!({"candidates": [{"content": {"role": "model"}, "finishReason": "STOP", "index": 0}], "modelVersion": G3});
    let p = Scripted::new(vec![empty]);
    let r = go(G3, vec![native("t")], &p, false, &Tools::default(), vec![], "hi").unwrap();
    assert_eq!((r.status, r.text.as_str(), r.finish_reason), (Status::Done, "", Some(Finish::Stop)));
    assert_eq!(r.messages()[1], json!({"role": "model", "parts": []}), "the state view of an empty turn");
    let history = read(&serde_json::from_str::<Value>(&r.to_json()).unwrap()["messages"].as_array().unwrap().clone()).unwrap();
    assert_eq!(history, r.transcript);
    assert_eq!(history[1], Message::Assistant(AssistantTurn::default()));

    let p2 = Scripted::new(vec![gm_calls(&[("", "t", json!({}))]), gm_text("done")]);
    let tools = Tools::default().with("t", |_, _| ToolResult::ok("fine"));
    go(G3, vec![native("t")], &p2, false, &tools, history, "again").unwrap();
    for (i, body) in p2.requests.borrow().iter().enumerate() {
        assert!(!body.body.contains("{\"text\":\"\"}"), "request {i}: {}", body.body);
    }
    let c = p2.bodies()[0]["contents"].clone();
    assert_eq!(c, json!([{"role": "user", "parts": [{"text": "hi"}]}, {"role": "user", "parts": [{"text": "again"}]}]));
    // The old state form of an empty turn reads back the same.
    assert_eq!(read(&[json!({"role": "model", "parts": [{"text": ""}]})]).unwrap(), [Message::Assistant(AssistantTurn::default())]);
}

#[test]
fn the_state_view_reads_back_to_the_same_transcript() {
    let t = |text: &str, n: usize| json!({"text": text, "thought": true, "n": n});
    let call = |id: &str, sig: Option<&str>| ToolCall {
        id: id.into(),
        name: "t".into(),
        arguments: "{\"k\":1}".into(),
        signature: sig.map(Into::into),
    };
    let reasoning = Reasoning {
        provider: "gemini".into(),
        model: G3.into(),
        items: vec![(0, t("first", 0)), (0, t("second", 0)), (1, t("between", 1)), (2, t("after", 2))],
        text_signature: Some(S3.into()),
    };
    let m = vec![
        Message::User("go".into()),
        Message::Assistant(AssistantTurn {
            text: String::new(),
            calls: vec![call("a", Some(S1)), call("b", None)],
            reasoning: Some(reasoning),
        }),
        oks(&["a", "b"]),
        Message::Assistant(AssistantTurn { text: "x".into(), calls: vec![], reasoning: None }),
        Message::Assistant(AssistantTurn::default()),
    ];
    let v = render(&m, Style::Gemini);
    assert_eq!(
        v[1],
        json!({"role": "model", "parts": [t("first", 0), t("second", 0), {"text": "", "thoughtSignature": S3},
            {"functionCall": {"id": "a", "name": "t", "args": {"k": 1}}, "thoughtSignature": S1}, t("between", 1),
            {"functionCall": {"id": "b", "name": "t", "args": {"k": 1}}}, t("after", 2)],
            "reasoningOrigin": {"provider": "gemini", "model": G3}})
    );
    assert_eq!(read(&v).unwrap(), m);
    // A Gemini history from elsewhere (no origin member) is Gemini's, of any model.
    let mut bare = v[1].clone();
    bare.as_object_mut().unwrap().remove("reasoningOrigin");
    let Message::Assistant(turn) = &read(&[bare]).unwrap()[0] else { panic!() };
    let r = turn.reasoning.as_ref().unwrap();
    assert_eq!((r.provider.as_str(), r.model.as_str(), r.items.len()), ("gemini", "", 4));
}
