//! Anthropic extended thinking with tools, verbatim: `thinking` / `redacted_thinking` (and server
//! tool) blocks are kept exactly as received, at their place among the calls, sent back first in
//! the assistant message of the next request, saved in the state and resumed from its JSON text,
//! streamed into the same reply as the whole body at every split point, and never sent to another
//! model or from another provider.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::dialect;
use toolnexus_wasm::driver::{drive, Env};
use toolnexus_wasm::message::{AssistantTurn, Message, Reasoning, ToolCall, ToolOutput};
use toolnexus_wasm::provider::{parse_response, Delta, Finish, HttpResponse, ModelReply, StreamAssembler, Style};
use toolnexus_wasm::run::{LoopConfig, ResumeInput, Run, RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{relay_answer, RelayResult, Request};
use toolnexus_wasm::tool::{ToolResult, ToolSpec, Toolkit};

const SIG_1: &str = "ErUBCkYIBRgCIkDXCUNV+gjEmM/HDurQFaB8xo5QB2kRDthZsgy2bBl5/v3UuvgjRRN+fRmHTlZmv1DNEr1qdXupY8fxhIYDmlXnSt9PwTZ13L5cnioCwD3iU1fcJFZJdTuKKLviNcZKzKFCL7/OxTHCnz13vDtPXZ7VG1qfpxydREeG5CslII2IGYQMk+p0tQFY1guwGm6DgBxshufi6yzamKoIlCEARAzAxvaluwtA4Z8XpFpLS6Lk/BLOWPiIsOP0o3CQ09044r61Q/xPWR6XEvntr7tNFebqtNPLerD82earQrj+A==";
const SIG_2: &str = "EqQBCkYIBRgCIkAr1ElKBx0HqcQQizLAMM4bN5pRotE5XGTcFlFYaC/LVgBvvycYZtfvmHGgc1M7TzvtatXBWlQWOBwra1kVnZXy71iINXkrKVzT051kDGxId1hM3p3pzVTuEaSyqdilUdUyZIyqkPypPBFrV5nmBur3fswQwLLkIvKpawj8UBANrTrSB65wvpDNSq5Tw7fpazJ238b/06ND3xHfPM1UslHTE7tfscVD3YbiQYFQPPSMpkIIOgg=";
const REDACTED: &str = "EmwKAhgBEgy3mns5rQoHpi1k/hCZX4sAWA076zboXvo0pvdxWmKhqitsF+Bf35FZcTLjrTHaIihEfdnVlLS4shcGdIkJDO2OoE/4yyyRrRSqpbdr5WpaJo/00qElVB6IhhIH7pgHdaxINTz9oYzfFBx7/y9grbMS+SnMF6etPa2myZ96GZvcowyI4fSd8mFgczB8AZQwtsAJ3tMYLAksBzN09epIwbSzF89RHaQQj6LOPA4V1Ms79r1aXtRNGNODxsDd9Z5p+MrNFvJDknyDlO7f5P2oRk3XVf0hSDDY7I6zHu6Sf0Njet8opF5rMTdz0ToI2zB2+/nGvMt0Hq5jllaLiEOH/ZtTWlkXT243Jk0jsrzl/7wNLGQiyy2Ke48P/50kypFrFScdMCa1Fmog1pxEtSIR";
const THOUGHT_1: &str = "The user wants the weather in Paris. I'll call get_weather with \"Paris\" — then compare: 21 °C ÷ 3 = 7.";
const THOUGHT_2: &str = "Paris is sunny.\nNow Tokyo, the second city.";

fn thinking(text: &str, sig: &str) -> Value {
    json!({"type": "thinking", "thinking": text, "signature": sig})
}
fn redacted() -> Value {
    json!({"type": "redacted_thinking", "data": REDACTED})
}
fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}
fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

/// A whole Messages API reply with these content blocks.
fn reply(content: Vec<Value>, stop: &str) -> Value {
    json!({"id": "msg_01Y6V41gqPaKWEw7iPouH7iW", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
           "content": content, "stop_reason": stop, "stop_sequence": null,
           "usage": {"input_tokens": 1210, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 187}})
}

fn thinking_then_call() -> Value {
    reply(
        vec![
            thinking(THOUGHT_1, SIG_1),
            text("Let me check."),
            tool_use("toolu_01A09q90qw90lq917835lq9", "get_weather", json!({"city": "Paris"})),
        ],
        "tool_use",
    )
}

/// Thinking, call, thinking, call: interleaved thinking between tool calls.
fn interleaved() -> Value {
    reply(
        vec![
            thinking(THOUGHT_1, SIG_1),
            tool_use("toolu_01A09q90qw90lq917835lq9", "get_weather", json!({"city": "Paris"})),
            thinking(THOUGHT_2, SIG_2),
            tool_use("toolu_01BjF3kmLZ4fRQwQqJvF2x7c", "get_weather", json!({"city": "Tokyo"})),
        ],
        "tool_use",
    )
}

/// A redacted block beside a readable one, then a call.
fn with_redacted() -> Value {
    reply(
        vec![redacted(), thinking(THOUGHT_1, SIG_1), tool_use("toolu_01A09q90qw90lq917835lq9", "get_weather", json!({"city": "Paris"}))],
        "tool_use",
    )
}

/// Server tool blocks (a web search the API ran itself) before the text and a client call.
fn with_server_tool() -> Value {
    reply(
        vec![
            thinking(THOUGHT_1, SIG_1),
            json!({"type": "server_tool_use", "id": "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k", "name": "web_search", "input": {"query": "Paris weather today"}}),
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k",
                   "content": [{"type": "web_search_result", "title": "Paris forecast", "url": "https://weather.example/paris",
                                "encrypted_content": SIG_2, "page_age": "3 hours ago"}]}),
            text("Sunny in Paris; now Tokyo."),
            tool_use("toolu_01BjF3kmLZ4fRQwQqJvF2x7c", "get_weather", json!({"city": "Tokyo"})),
        ],
        "tool_use",
    )
}

fn parse(v: &Value) -> toolnexus_wasm::Result<ModelReply> {
    parse_response(&config(Style::Anthropic).provider, &HttpResponse { status: 200, body: v.to_string(), retry_after: None })
}

fn weather() -> Vec<ToolSpec> {
    vec![native("get_weather")]
}
fn weather_tools() -> Tools {
    Tools::default().with("get_weather", |a, _| ToolResult::ok(format!("sunny in {}", a["city"].as_str().unwrap())))
}

/// The reasoning a reply of `provider`'s `model` carries, with these items.
fn reasoning(provider: &str, model: &str, items: Vec<(usize, Value)>) -> Option<Reasoning> {
    Some(Reasoning { provider: provider.into(), model: model.into(), items, text_signature: None })
}

#[test]
fn a_reply_with_thinking_and_a_call_keeps_the_block_and_its_readable_text() {
    let r = parse(&thinking_then_call()).unwrap();
    assert_eq!(r.turn.text, "Let me check.");
    assert_eq!(
        r.turn.calls,
        vec![ToolCall {
            id: "toolu_01A09q90qw90lq917835lq9".into(),
            name: "get_weather".into(),
            arguments: "{\"city\":\"Paris\"}".into(),
            signature: None
        }]
    );
    assert_eq!(r.turn.reasoning, reasoning("anthropic", "test-model", vec![(0, thinking(THOUGHT_1, SIG_1))]));
    assert_eq!(r.reasoning_text, THOUGHT_1);
    assert_eq!((r.finish, r.stop_reason.as_deref(), r.refusal), (Finish::ToolCalls, Some("tool_use"), false));

    // Interleaved: each block keeps its place among the calls; readable texts a paragraph apart.
    let r = parse(&interleaved()).unwrap();
    assert_eq!(
        r.turn.reasoning,
        reasoning("anthropic", "test-model", vec![(0, thinking(THOUGHT_1, SIG_1)), (1, thinking(THOUGHT_2, SIG_2))])
    );
    assert_eq!(r.reasoning_text, format!("{THOUGHT_1}\n\n{THOUGHT_2}"));
    assert_eq!(r.turn.text, "", "thinking never leaks into the answer");

    // A redacted block has no readable text; server tool blocks are kept as they came.
    let r = parse(&with_redacted()).unwrap();
    assert_eq!(r.turn.reasoning, reasoning("anthropic", "test-model", vec![(0, redacted()), (0, thinking(THOUGHT_1, SIG_1))]));
    assert_eq!(r.reasoning_text, THOUGHT_1);
    let web = with_server_tool();
    let r = parse(&web).unwrap();
    let items: Vec<(usize, Value)> = web["content"].as_array().unwrap()[..3].iter().map(|b| (0, b.clone())).collect();
    assert_eq!(r.turn.reasoning, reasoning("anthropic", "test-model", items));
    assert_eq!(r.turn.text, "Sunny in Paris; now Tokyo.");

    // No thinking: no reasoning at all.
    let r = parse(&an_text("plain")).unwrap();
    assert_eq!((r.turn.reasoning, r.reasoning_text.as_str()), (None, ""));
}

/// The assistant message of the request after the tool results, for a first reply `first`.
fn follow_up(first: Value) -> (RunResult, String, Value) {
    let p = Scripted::new(vec![first, an_text("Sunny in both.")]);
    let r = run(Style::Anthropic, weather(), &p, &weather_tools(), None, &[], "Weather in Paris and Tokyo?").unwrap();
    assert_eq!(r.status, Status::Done);
    let body = p.requests.borrow()[1].body.clone();
    let sent = p.bodies()[1]["messages"][1].clone();
    (r, body, sent)
}

#[test]
fn the_follow_up_request_sends_the_thinking_block_first_byte_for_byte() {
    let first = thinking_then_call();
    let (r, body, sent) = follow_up(first.clone());
    assert_eq!(sent, json!({"role": "assistant", "content": first["content"]}), "thinking first, then text, then the call");
    // Byte-equal to what was received, signature and escapes included.
    let received = serde_json::to_string(&thinking(THOUGHT_1, SIG_1)).unwrap();
    assert!(first.to_string().contains(&received));
    assert!(body.contains(&format!("\"content\":[{received},")), "{body}");
    assert!(!body.contains("reasoningOrigin"), "a request never carries the tag");
    assert_eq!(r.reasoning, THOUGHT_1);
    // The result's (and state's) view keeps the blocks, tagged with their origin.
    assert_eq!(
        r.messages()[1],
        json!({"role": "assistant", "content": first["content"], "reasoningOrigin": {"provider": "anthropic", "model": "test-model"}})
    );
    assert_eq!(
        r.messages()[3],
        json!({"role": "assistant", "content": [{"type": "text", "text": "Sunny in both."}]}),
        "no reasoning: no tag"
    );
}

#[test]
fn interleaved_thinking_keeps_its_order_between_the_calls() {
    let first = interleaved();
    let (r, body, sent) = follow_up(first.clone());
    assert_eq!(sent, json!({"role": "assistant", "content": first["content"]}));
    let blocks: Vec<String> = first["content"].as_array().unwrap().iter().map(|b| serde_json::to_string(b).unwrap()).collect();
    assert!(body.contains(&format!("\"content\":[{}]", blocks.join(","))), "{body}");
    assert_eq!(r.reasoning, format!("{THOUGHT_1}\n\n{THOUGHT_2}"));
    assert_eq!(r.tool_calls.iter().map(|c| c.output.as_str()).collect::<Vec<_>>(), ["sunny in Paris", "sunny in Tokyo"]);
}

#[test]
fn redacted_thinking_and_server_tool_blocks_go_back_verbatim() {
    for first in [with_redacted(), with_server_tool()] {
        let (r, body, sent) = follow_up(first.clone());
        assert_eq!(sent, json!({"role": "assistant", "content": first["content"]}));
        assert!(body.contains(&serde_json::to_string(&first["content"]).unwrap()), "{body}");
        // The saved view reads back to the same transcript.
        assert_eq!(dialect::read(&r.messages()).unwrap(), r.transcript);
    }
    let (_, body, _) = follow_up(with_redacted());
    assert!(body.contains(&format!("{{\"type\":\"redacted_thinking\",\"data\":\"{REDACTED}\"}}")));
}

#[test]
fn the_state_view_reads_back_to_the_same_transcript() {
    let turn = |text: &str, calls: &[&str], items: Vec<(usize, Value)>, model: &str| {
        Message::Assistant(AssistantTurn {
            text: text.into(),
            calls: calls
                .iter()
                .map(|id| ToolCall {
                    id: (*id).into(),
                    name: "get_weather".into(),
                    arguments: "{\"city\":\"Paris\"}".into(),
                    signature: None,
                })
                .collect(),
            reasoning: reasoning("anthropic", model, items),
        })
    };
    let results = |ids: &[&str]| {
        Message::Tool(
            ids.iter()
                .map(|id| ToolOutput {
                    call_id: (*id).into(),
                    name: "get_weather".into(),
                    output: "sunny".into(),
                    is_error: false,
                    parts: vec![],
                })
                .collect(),
        )
    };
    let transcript = vec![
        Message::User("Weather?".into()),
        // thinking, text, call, thinking, call, and a block after the last call
        turn(
            "Checking.",
            &["toolu_01A", "toolu_01B"],
            vec![
                (0, redacted()),
                (0, thinking(THOUGHT_1, SIG_1)),
                (1, thinking(THOUGHT_2, SIG_2)),
                (2, json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}})),
            ],
            "claude-sonnet-4-5-20250929",
        ),
        results(&["toolu_01A", "toolu_01B"]),
        turn("Sunny.", &[], vec![(0, thinking(THOUGHT_2, SIG_2))], "claude-opus-4-1-20250805"),
    ];
    let view = dialect::render(&transcript, Style::Anthropic);
    assert_eq!(
        view[1],
        json!({"role": "assistant", "content": [
            redacted(), thinking(THOUGHT_1, SIG_1), {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}},
            thinking(THOUGHT_2, SIG_2),
            {"type": "tool_use", "id": "toolu_01B", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}}],
            "reasoningOrigin": {"provider": "anthropic", "model": "claude-sonnet-4-5-20250929"}})
    );
    assert_eq!(view[3]["reasoningOrigin"], json!({"provider": "anthropic", "model": "claude-opus-4-1-20250805"}));
    assert_eq!(dialect::read(&view).unwrap(), transcript);
    // Through JSON text too, as a host stores it.
    let text = serde_json::to_string(&view).unwrap();
    assert_eq!(dialect::read_json(&text).unwrap(), transcript);

    // A history from elsewhere (no tag) is Anthropic's, model unknown.
    let mut untagged = view[3].clone();
    untagged.as_object_mut().unwrap().remove("reasoningOrigin");
    let Message::Assistant(t) = &dialect::read(&[untagged]).unwrap()[0] else { panic!() };
    assert_eq!(t.reasoning, reasoning("anthropic", "", vec![(0, thinking(THOUGHT_2, SIG_2))]));
}

/// The reply as the Messages API streams it: each block opened empty (a redacted or server
/// result block whole), its text, thinking and input in pieces of `n` characters, the
/// signature in two deltas.
fn sse(reply: &Value, n: usize) -> String {
    let mut out = String::new();
    let mut ev = |name: &str, data: Value| out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    let usage = &reply["usage"];
    let mut message = reply.clone();
    message["content"] = json!([]);
    message["stop_reason"] = Value::Null;
    message["usage"] = json!({"input_tokens": usage["input_tokens"], "output_tokens": 1});
    ev("message_start", json!({"type": "message_start", "message": message}));
    ev("ping", json!({"type": "ping"}));
    let pieces = |s: &str| -> Vec<String> {
        let chars: Vec<char> = s.chars().collect();
        chars.chunks(n).map(|c| c.iter().collect()).collect()
    };
    for (i, b) in reply["content"].as_array().unwrap().iter().enumerate() {
        let delta = |d: Value| json!({"type": "content_block_delta", "index": i, "delta": d});
        let kind = b["type"].as_str().unwrap();
        let (start, deltas): (Value, Vec<Value>) = match kind {
            "thinking" => {
                let sig = b["signature"].as_str().unwrap();
                let mut d: Vec<Value> =
                    pieces(b["thinking"].as_str().unwrap()).iter().map(|p| json!({"type": "thinking_delta", "thinking": p})).collect();
                d.push(json!({"type": "signature_delta", "signature": &sig[..sig.len() / 2]}));
                d.push(json!({"type": "signature_delta", "signature": &sig[sig.len() / 2..]}));
                (json!({"type": "thinking", "thinking": "", "signature": ""}), d)
            }
            "text" => (
                json!({"type": "text", "text": ""}),
                pieces(b["text"].as_str().unwrap()).iter().map(|p| json!({"type": "text_delta", "text": p})).collect(),
            ),
            "tool_use" | "server_tool_use" => {
                let mut start = b.clone();
                start["input"] = json!({});
                let input = b["input"].to_string();
                (start, pieces(&input).iter().map(|p| json!({"type": "input_json_delta", "partial_json": p})).collect())
            }
            _ => (b.clone(), vec![]),
        };
        ev("content_block_start", json!({"type": "content_block_start", "index": i, "content_block": start}));
        for d in deltas {
            ev("content_block_delta", delta(d));
        }
        ev("content_block_stop", json!({"type": "content_block_stop", "index": i}));
    }
    ev(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": reply["stop_reason"], "stop_sequence": null}, "usage": {"output_tokens": usage["output_tokens"]}}),
    );
    ev("message_stop", json!({"type": "message_stop"}));
    out
}

/// The streamed reply of `chunks`, with its answer and reasoning deltas joined.
fn assemble(chunks: &[&[u8]]) -> (toolnexus_wasm::Result<ModelReply>, String, String) {
    let mut a = StreamAssembler::new(&config(Style::Anthropic).provider);
    let mut deltas: Vec<Delta> = Vec::new();
    for c in chunks {
        if let Err(e) = a.push(c, &mut deltas) {
            return (Err(e), Delta::join(&deltas, false), Delta::join(&deltas, true));
        }
    }
    (a.finish(), Delta::join(&deltas, false), Delta::join(&deltas, true))
}

#[test]
fn a_streamed_reply_equals_the_whole_one_at_every_split_point() {
    for (name, whole) in
        [("interleaved", interleaved()), ("redacted", with_redacted()), ("server tool", with_server_tool()), ("text", thinking_then_call())]
    {
        let want = parse(&whole).unwrap();
        for n in [1, 7, 1000] {
            let body = sse(&whole, n);
            let bytes = body.as_bytes();
            let (r, text, thought) = assemble(&[bytes]);
            assert_eq!(r.unwrap(), want, "{name} in pieces of {n}");
            assert_eq!((text.as_str(), thought.as_str()), (want.turn.text.as_str(), want.reasoning_text.as_str()), "{name}: deltas");
            if n != 7 {
                continue;
            }
            for cut in 0..=bytes.len() {
                let (r, t, th) = assemble(&[&bytes[..cut], &bytes[cut..]]);
                assert_eq!(r.as_ref().unwrap(), &want, "{name} split at {cut}");
                assert_eq!((t, th), (text.clone(), thought.clone()), "{name} split at {cut}");
            }
        }
    }
}

#[test]
fn a_streamed_run_sends_the_assembled_blocks_back_like_a_whole_one() {
    let t = Chunked::default();
    let first = sse(&interleaved(), 5);
    t.push_split(&first, first.len() / 2);
    t.push_split(&sse(&an_text("Sunny in both."), 4), 30);
    let host = Host::default();
    let r = run_full(Style::Anthropic, true, weather(), &t, &weather_tools(), None, &host, vec![], "Weather?").unwrap();
    assert_eq!(r.status, Status::Done);
    let body = t.requests.borrow()[1].body.clone();
    let blocks: Vec<String> = interleaved()["content"].as_array().unwrap().iter().map(|b| serde_json::to_string(b).unwrap()).collect();
    assert!(body.contains(&format!("{{\"role\":\"assistant\",\"content\":[{}]}}", blocks.join(","))), "{body}");
    let thoughts: String =
        host.events.borrow().iter().filter(|e| e["type"] == "reasoning").map(|e| e["delta"].as_str().unwrap().to_string()).collect();
    let texts: String =
        host.events.borrow().iter().filter(|e| e["type"] == "text").map(|e| e["delta"].as_str().unwrap().to_string()).collect();
    assert_eq!(texts, "Sunny in both.", "no thinking in the text events");
    assert_eq!(r.reasoning, format!("{THOUGHT_1}\n\n{THOUGHT_2}"));
    assert_eq!(thoughts, r.reasoning, "the reasoning events carry the readable thinking");
}

/// A run of the loop with the client configured for `model`.
fn loop_config(model: &str) -> LoopConfig {
    let mut cfg = config(Style::Anthropic);
    cfg.provider.model = model.into();
    cfg
}

fn resume_as(
    model: &str,
    kit: Vec<ToolSpec>,
    p: &Scripted,
    history: Vec<Message>,
    pending: Request,
    answer: toolnexus_wasm::suspend::Answer,
) -> RunResult {
    let (ids, clock, tools) = (ids(), tick(), Tools::default());
    let env = Env::new(p, &tools, &ids, &clock);
    let (r, step) =
        Run::resume(loop_config(model), Toolkit::new(kit).unwrap(), ResumeInput { history, pending, answer, children: Vec::new() })
            .unwrap();
    futures_executor::block_on(drive(r, step, &env)).unwrap()
}

/// A relay call made after thinking halts the run; only its JSON text survives.
fn halted_on_a_relay_call() -> (String, Value) {
    let first = reply(
        vec![thinking(THOUGHT_1, SIG_1), tool_use("toolu_01D7FLrfh4GYq7yT1ULFeyMV", "click", json!({"selector": "#buy"}))],
        "tool_use",
    );
    let p = Scripted::new(vec![first.clone()]);
    let r = run(Style::Anthropic, vec![relay("click")], &p, &Tools::default(), None, &[], "Buy it").unwrap();
    assert_eq!(r.status, Status::Pending);
    (r.to_json(), first)
}

fn load(text: &str) -> (Vec<Message>, Request) {
    let h = state::load(&serde_json::from_str(text).unwrap()).unwrap();
    (dialect::read(&h.messages).unwrap(), h.pending)
}

fn clicked(pending: &Request) -> toolnexus_wasm::suspend::Answer {
    relay_answer(
        &pending.id,
        vec![RelayResult { id: "toolu_01D7FLrfh4GYq7yT1ULFeyMV".into(), output: "bought".into(), is_error: false, parts: vec![] }],
    )
}

#[test]
fn a_halted_run_resumed_from_its_json_text_sends_the_thinking_back() {
    let (text, first) = halted_on_a_relay_call();
    let saved: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        saved["messages"][1],
        json!({"role": "assistant", "content": first["content"], "reasoningOrigin": {"provider": "anthropic", "model": "test-model"}})
    );
    let (history, pending) = load(&text);
    let p = Scripted::new(vec![an_text("Bought.")]);
    let out = resume_as("test-model", vec![relay("click")], &p, history, pending.clone(), clicked(&pending));
    assert_eq!((out.status, out.text.as_str()), (Status::Done, "Bought."));
    let body = &p.requests.borrow()[0].body;
    let blocks: Vec<String> = first["content"].as_array().unwrap().iter().map(|b| serde_json::to_string(b).unwrap()).collect();
    assert!(body.contains(&format!("{{\"role\":\"assistant\",\"content\":[{}]}}", blocks.join(","))), "{body}");
    assert_eq!(
        p.bodies()[0]["messages"][2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "content": "bought", "is_error": false}]})
    );
}

#[test]
fn thinking_from_another_model_is_never_sent() {
    // The state was made by test-model; the client now talks to another Claude model.
    let (text, first) = halted_on_a_relay_call();
    let (history, pending) = load(&text);
    let p = Scripted::new(vec![an_text("Bought.")]);
    let out = resume_as("claude-opus-4-1-20250805", vec![relay("click")], &p, history, pending.clone(), clicked(&pending));
    assert_eq!(out.status, Status::Done);
    assert_eq!(p.bodies()[0]["messages"][1], json!({"role": "assistant", "content": [first["content"][1]]}), "the call alone");
    assert!(!p.requests.borrow()[0].body.contains(SIG_1));
    // The result still holds the old model's blocks, tagged as the old model's.
    assert_eq!(out.messages()[1]["reasoningOrigin"], json!({"provider": "anthropic", "model": "test-model"}));
    assert_eq!(out.messages()[1]["content"][0], thinking(THOUGHT_1, SIG_1));
}

#[test]
fn reasoning_of_another_provider_is_never_sent_to_anthropic() {
    let gemini = Reasoning {
        provider: "gemini".into(),
        model: "gemini-2.5-pro".into(),
        items: vec![(0, json!({"text": "Checking the weather", "thought": true}))],
        text_signature: Some(SIG_2.into()),
    };
    let openai = Reasoning {
        provider: "openai".into(),
        model: "test-model".into(),
        items: vec![(0, json!({"type": "reasoning", "id": "rs_68af", "summary": [], "encrypted_content": SIG_2}))],
        text_signature: None,
    };
    for r in [gemini, openai] {
        let history = vec![
            Message::User("Weather in Paris?".into()),
            Message::Assistant(AssistantTurn {
                text: "Checking.".into(),
                calls: vec![ToolCall {
                    id: "call_1_0".into(),
                    name: "get_weather".into(),
                    arguments: "{\"city\":\"Paris\"}".into(),
                    signature: Some(SIG_1.into()),
                }],
                reasoning: Some(r.clone()),
            }),
            Message::Tool(vec![ToolOutput {
                call_id: "call_1_0".into(),
                name: "get_weather".into(),
                output: "sunny".into(),
                is_error: false,
                parts: vec![],
            }]),
            Message::Assistant(AssistantTurn { text: "Sunny.".into(), calls: vec![], reasoning: Some(r.clone()) }),
        ];
        let p = Scripted::new(vec![an_text("Still sunny.")]);
        let out = run_full(Style::Anthropic, false, weather(), &p, &weather_tools(), None, &Host::default(), history, "And now?").unwrap();
        assert_eq!(out.status, Status::Done);
        assert_eq!(
            p.bodies()[0]["messages"],
            json!([
                {"role": "user", "content": "Weather in Paris?"},
                {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, {"type": "tool_use", "id": "call_1_0", "name": "get_weather", "input": {"city": "Paris"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1_0", "content": "sunny", "is_error": false}]},
                {"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]},
                {"role": "user", "content": "And now?"}
            ]),
            "{}",
            r.provider
        );
        // Nor does the Anthropic view of the result show it (it is not Anthropic's to carry).
        assert_eq!(out.messages()[1], p.bodies()[0]["messages"][1]);
    }
}

#[test]
fn a_refusal_keeps_its_text_and_one_without_text_is_withheld() {
    let r = parse(&reply(vec![text("I can't help with that.")], "refusal")).unwrap();
    assert_eq!(
        (r.turn.text.as_str(), r.finish, r.refusal, r.stop_reason.as_deref()),
        ("I can't help with that.", Finish::Refusal, true, Some("refusal"))
    );
    let streamed = assemble(&[sse(&reply(vec![text("I can't help with that.")], "refusal"), 4).as_bytes()]).0.unwrap();
    assert_eq!(streamed, r);

    let mut empty = reply(vec![], "refusal");
    empty["stop_details"] =
        json!({"type": "refusal", "category": "cyber", "explanation": "This request triggered restrictions on violative cyber content."});
    let e = parse(&empty).unwrap_err();
    assert_eq!(e.code(), "provider_error");
    assert_eq!(
        e.message,
        "Anthropic withheld the answer: stop_reason refusal (This request triggered restrictions on violative cyber content.)"
    );
    // Streamed, the details come in message_delta.
    let body = sse(&reply(vec![thinking(THOUGHT_1, SIG_1)], "refusal"), 9).replace(
        "\"stop_reason\":\"refusal\",\"stop_sequence\":null}",
        "\"stop_reason\":\"refusal\",\"stop_sequence\":null,\"stop_details\":{\"type\":\"refusal\",\"explanation\":\"Blocked.\"}}",
    );
    let (r, _, thought) = assemble(&[body.as_bytes()]);
    assert_eq!(r.unwrap_err().message, "Anthropic withheld the answer: stop_reason refusal (Blocked.)");
    assert_eq!(thought, THOUGHT_1, "what streamed before the refusal was delivered");
    assert_eq!(
        parse(&reply(vec![thinking(THOUGHT_1, SIG_1)], "refusal")).unwrap_err().message,
        "Anthropic withheld the answer: stop_reason refusal"
    );
}

#[test]
fn malformed_thinking_streams_are_typed_errors_or_ignored_never_panics() {
    let ev = |data: Value| format!("event: x\ndata: {data}\n\n");
    let start = |i: u64, b: Value| ev(json!({"type": "content_block_start", "index": i, "content_block": b}));
    let delta = |i: u64, d: Value| ev(json!({"type": "content_block_delta", "index": i, "delta": d}));
    let end =
        format!("{}{}", ev(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})), ev(json!({"type": "message_stop"})));

    // A thinking delta for a block never opened.
    let (r, _, _) = assemble(&[delta(3, json!({"type": "thinking_delta", "thinking": "x"})).as_bytes()]);
    assert_eq!(r.unwrap_err().message, "Anthropic stream: delta for unknown content block 3");
    // A server tool block whose streamed input is not JSON.
    let body = format!(
        "{}{}{}",
        start(0, json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}})),
        delta(0, json!({"type": "input_json_delta", "partial_json": "{\"query\": "})),
        ev(json!({"type": "content_block_stop", "index": 0}))
    );
    assert_eq!(assemble(&[body.as_bytes()]).0.unwrap_err().code(), "provider_parse");
    // Thinking and signature deltas aimed at a redacted block or a text block change nothing.
    let body = format!(
        "{}{}{}{}{}{end}",
        start(0, redacted()),
        delta(0, json!({"type": "thinking_delta", "thinking": "leak"})),
        delta(0, json!({"type": "signature_delta", "signature": "forged"})),
        start(1, json!("not a block")),
        delta(1, json!({"type": "thinking_delta", "thinking": "leak"})),
    );
    let (r, text, thought) = assemble(&[body.as_bytes()]);
    let r = r.unwrap();
    assert_eq!(r.turn.reasoning, reasoning("anthropic", "test-model", vec![(0, redacted())]));
    assert_eq!((text.as_str(), thought.as_str(), r.reasoning_text.as_str()), ("", "", ""));
}

#[test]
fn openai_content_parts_in_an_assistant_message_are_not_taken_for_anthropic_blocks() {
    let m = json!({"role": "assistant", "content": [{"type": "text", "text": "No."}, {"type": "refusal", "refusal": "I can't."}, {"type": "output_text", "text": "x"}]});
    assert_eq!(
        dialect::read(&[m]).unwrap(),
        vec![Message::Assistant(AssistantTurn { text: "No.".into(), calls: vec![], reasoning: None })]
    );
}
