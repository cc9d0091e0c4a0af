//! `style: "responses"` (OpenAI's Responses API): the request body, a tool loop that replays
//! encrypted reasoning verbatim, a durable halt in a new process, reasoning of another model
//! left out, refusals, cut and failed replies, streams equal to whole replies at every split
//! point, images, and the `input` items read back into the same transcript.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::dialect;
use toolnexus_wasm::message::{AssistantTurn, Message, Reasoning, ToolCall, ToolOutput};
use toolnexus_wasm::part::{Image, Part};
use toolnexus_wasm::provider::{
    build_request, parse_response, Delta, Finish, HttpResponse, ModelRequest, StreamAssembler, Style, ToolChoice,
};
use toolnexus_wasm::run::{RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::suspend::{relay_answer, RelayResult};
use toolnexus_wasm::tool::{default_schema, ToolResult};

const R: Style = Style::Responses;

fn rs(id: &str, summary: &[&str], enc: &str) -> Value {
    let parts: Vec<Value> = summary.iter().map(|t| json!({"type": "summary_text", "text": t})).collect();
    json!({"type": "reasoning", "id": id, "summary": parts, "encrypted_content": enc})
}

fn fc(call_id: &str, name: &str, args: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id, "name": name, "arguments": args, "status": "completed"})
}

fn msg(text: &str) -> Value {
    json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

fn response(output: Vec<Value>) -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "error": null, "incomplete_details": null,
           "model": "test-model", "output": output,
           "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15, "output_tokens_details": {"reasoning_tokens": 2}}})
}

/// What the request carries back for a call, a text and a result.
fn sent_call(call_id: &str, name: &str, args: &str) -> Value {
    json!({"type": "function_call", "call_id": call_id, "name": name, "arguments": args})
}
fn sent_text(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
}
fn sent_result(call_id: &str, output: &str) -> Value {
    json!({"type": "function_call_output", "call_id": call_id, "output": output})
}

fn tagged(mut item: Value, model: &str) -> Value {
    item["reasoningOrigin"] = json!({"provider": "openai", "model": model});
    item
}

/// The transcript read back from the result's `messages` is the transcript, and renders the same.
fn round_trips(r: &RunResult) {
    let back = dialect::read(&r.messages()).unwrap();
    assert_eq!(back, r.transcript);
    assert_eq!(dialect::render(&back, R), r.messages());
}

#[test]
fn the_request_follows_the_wire_format() {
    let p = Scripted::new(vec![rs_text("hello")]);
    let r = run(R, vec![native("add")], &p, &Tools::default(), None, &[], "hi").unwrap();
    assert_eq!(
        (r.status, r.text.as_str(), r.finish_reason, r.provider_finish_reason.as_deref()),
        (Status::Done, "hello", Some(Finish::Stop), Some("completed"))
    );
    let req = &p.requests.borrow()[0];
    assert_eq!(req.url, "http://127.0.0.1:9/v1/responses");
    assert!(req.headers.contains(&("Authorization".into(), "Bearer sk-test-key".into())));
    let want = json!({
        "model": "test-model",
        "instructions": "You are terse.",
        "input": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "name": "add", "description": "the add tool", "parameters": default_schema(), "strict": false}],
        "tool_choice": "auto",
        "store": false,
        "include": ["reasoning.encrypted_content"],
    });
    assert_eq!(req.json(), want);
    // The system prompt is not a transcript message in this style.
    assert_eq!(r.messages(), vec![json!({"role": "user", "content": "hi"}), sent_text("hello")]);
    round_trips(&r);
}

#[test]
fn tool_choice_max_tokens_and_include_are_spelled_for_the_responses_api() {
    let tools = vec![native("add")];
    let messages = vec![Message::System("from history".into()), Message::User("x".into())];
    let body = |model: &str, choice: ToolChoice, max: Option<u64>, stream: bool| {
        let mut cfg = config(R).provider;
        cfg.model = model.into();
        let req = ModelRequest { system: "sys", messages: &messages, tools: &tools, stream, tool_choice: choice, max_tokens: max };
        build_request(&cfg, &req).json()
    };
    let forced = json!({"type": "function", "function": {"name": "add"}});
    let b = body("gpt-5", ToolChoice::Given(&forced), Some(64), true);
    assert_eq!(b["tool_choice"], json!({"type": "function", "name": "add"}));
    assert_eq!(b["instructions"], "sys\n\nfrom history");
    assert_eq!(b["input"], json!([{"role": "user", "content": "x"}]));
    assert_eq!((b["max_output_tokens"].clone(), b["stream"].clone()), (json!(64), json!(true)));
    for (given, want) in [(json!("required"), json!("required")), (json!("any"), json!("required")), (json!("none"), json!("none"))] {
        assert_eq!(body("o4-mini", ToolChoice::Given(&given), None, false)["tool_choice"], want);
    }
    let native_shape = json!({"type": "function", "name": "add"});
    assert_eq!(body("o3", ToolChoice::Given(&native_shape), None, false)["tool_choice"], native_shape);
    assert!(body("o3", ToolChoice::Omit, None, false).get("tool_choice").is_none());
    // Models that do not reason refuse the include (400); the rest are asked for it.
    for (model, asked) in [
        ("gpt-4o", false),
        ("gpt-4.1-mini", false),
        ("openai/gpt-4o", false),
        ("gpt-5-chat-latest", false),
        ("gpt-5", true),
        ("o3", true),
        ("openai/gpt-5-mini", true),
    ] {
        assert_eq!(body(model, ToolChoice::Auto, None, false).get("include").is_some(), asked, "{model}");
    }
    // No tools: neither tools nor a choice.
    let mut cfg = config(R).provider;
    cfg.model = "m".into();
    let req = ModelRequest { system: "", messages: &[], tools: &[], stream: false, tool_choice: ToolChoice::Auto, max_tokens: None };
    assert_eq!(build_request(&cfg, &req).body, r#"{"model":"m","input":[],"store":false,"include":["reasoning.encrypted_content"]}"#);
}

#[test]
fn a_tool_loop_replays_each_turns_encrypted_reasoning_verbatim() {
    let (rs1, rs2, rs3) = (rs("rs_1", &["Adding."], "enc-1"), rs("rs_2", &["Again,", "then done."], "enc-2"), rs("rs_3", &[], "enc-3"));
    let p = Scripted::new(vec![
        response(vec![rs1.clone(), fc("call_1", "add", "{\"a\":1}")]),
        response(vec![rs2.clone(), msg("checking"), fc("call_2", "add", "{\"a\":2}"), fc("call_3", "add", "{\"a\":3}")]),
        response(vec![rs3.clone(), msg("done")]),
    ]);
    let tools = Tools::default().with("add", |a, _| ToolResult::ok(format!("{}", a["a"].as_i64().unwrap() * 2)));
    let r = run(R, vec![native("add")], &p, &tools, None, &[], "go").unwrap();
    assert_eq!((r.status, r.text.as_str(), r.turns, r.tool_call_count), (Status::Done, "done", 3, 3));
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens), (30, 15, 45));
    assert_eq!(r.reasoning, "Adding.\n\nAgain,\n\nthen done.");

    let bodies = p.bodies();
    let user = json!({"role": "user", "content": "go"});
    let first = vec![user.clone(), rs1.clone(), sent_call("call_1", "add", "{\"a\":1}"), sent_result("call_1", "2")];
    assert_eq!(bodies[1]["input"], Value::Array(first.clone()));
    let mut second = first;
    second.extend([
        rs2.clone(),
        sent_text("checking"),
        sent_call("call_2", "add", "{\"a\":2}"),
        sent_call("call_3", "add", "{\"a\":3}"),
        sent_result("call_2", "4"),
        sent_result("call_3", "6"),
    ]);
    assert_eq!(bodies[2]["input"], Value::Array(second));

    // The state: the same items, the first of each turn with reasoning tagged with its origin.
    let want = vec![
        user,
        tagged(rs1, "test-model"),
        sent_call("call_1", "add", "{\"a\":1}"),
        sent_result("call_1", "2"),
        tagged(rs2, "test-model"),
        sent_text("checking"),
        sent_call("call_2", "add", "{\"a\":2}"),
        sent_call("call_3", "add", "{\"a\":3}"),
        sent_result("call_2", "4"),
        sent_result("call_3", "6"),
        tagged(rs3, "test-model"),
        sent_text("done"),
    ];
    assert_eq!(r.messages(), want);
    round_trips(&r);
    let Message::Assistant(t) = &r.transcript[1] else { panic!("{:?}", r.transcript) };
    assert_eq!(t.reasoning.as_ref().map(|r| (r.provider.as_str(), r.model.as_str())), Some(("openai", "test-model")));
}

#[test]
fn a_halt_on_a_relay_call_survives_json_and_the_resume_sends_the_reasoning_back() {
    let rs1 = rs("rs_1", &["Need a click."], "enc-halt");
    let p = Scripted::new(vec![response(vec![
        rs1.clone(),
        msg("clicking"),
        fc("call_a", "click", "{\"s\":\"#a\"}"),
        fc("call_b", "click", "{}"),
    ])]);
    let r = run(R, vec![relay("click")], &p, &Tools::default(), None, &[], "click").unwrap();
    assert_eq!(r.status, Status::Pending);
    assert_eq!(r.pending.as_ref().unwrap().relay_calls().iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["call_a", "call_b"]);

    // A new process: only the JSON text survives.
    let h = state::load(&serde_json::from_str(&r.to_json()).unwrap()).unwrap();
    assert_eq!(h.messages[1], tagged(rs1.clone(), "test-model"));
    let answer = relay_answer(
        &h.pending.id,
        vec![
            RelayResult { id: "call_b".into(), output: "B".into(), is_error: false, parts: vec![] },
            RelayResult { id: "call_a".into(), output: "A".into(), is_error: false, parts: vec![] },
        ],
    );
    let p2 = Scripted::new(vec![rs_text("both clicked")]);
    let out = resume(R, vec![relay("click")], &p2, &Tools::default(), None, &h.messages, h.pending, answer).unwrap();
    assert_eq!((out.status, out.text.as_str()), (Status::Done, "both clicked"));
    let want = json!([
        {"role": "user", "content": "click"},
        rs1,
        sent_text("clicking"),
        sent_call("call_a", "click", "{\"s\":\"#a\"}"),
        sent_call("call_b", "click", "{}"),
        sent_result("call_a", "A"),
        sent_result("call_b", "B"),
    ]);
    assert_eq!(p2.bodies()[0]["input"], want);
    round_trips(&out);
}

#[test]
fn reasoning_goes_back_only_to_the_model_that_made_it() {
    let rs1 = rs("rs_1", &[], "enc-other");
    let history = |origin: Option<&str>| {
        let first = match origin {
            Some(m) => tagged(rs1.clone(), m),
            None => rs1.clone(),
        };
        vec![json!({"role": "user", "content": "q"}), first, sent_call("call_1", "add", "{}"), sent_result("call_1", "r")]
    };
    let sent = |origin: Option<&str>| {
        let p = Scripted::new(vec![rs_text("ok")]);
        let r = run(R, vec![native("add")], &p, &Tools::default(), None, &history(origin), "next").unwrap();
        (p.bodies()[0]["input"].clone(), r)
    };
    let without = json!([{"role": "user", "content": "q"}, sent_call("call_1", "add", "{}"), sent_result("call_1", "r"), {"role": "user", "content": "next"}]);
    let (input, r) = sent(Some("gpt-5"));
    assert_eq!(input, without, "another model's reasoning is left out");
    // The state keeps it, still tagged with its own model.
    assert_eq!(r.messages()[1], tagged(rs1.clone(), "gpt-5"));
    let with = json!([{"role": "user", "content": "q"}, rs1, sent_call("call_1", "add", "{}"), sent_result("call_1", "r"), {"role": "user", "content": "next"}]);
    assert_eq!(sent(Some("test-model")).0, with, "the same model gets it back");
    assert_eq!(sent(None).0, with, "an untagged history (the API's own items) is OpenAI's, any model");

    // Under another provider's style the items are not sent, and the calls still are.
    let p = Scripted::new(vec![an_text("fine")]);
    run(Style::Anthropic, vec![native("add")], &p, &Tools::default(), None, &history(Some("test-model")), "next").unwrap();
    let msgs = p.bodies()[0]["messages"].clone();
    assert_eq!(msgs[1], json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "add", "input": {}}]}));
    assert!(!msgs.to_string().contains("enc-other"));
}

#[test]
fn a_refusal_is_the_text_and_finishes_as_refusal() {
    let refusal = json!({"type": "message", "id": "msg_r", "role": "assistant", "status": "completed",
                         "content": [{"type": "refusal", "refusal": "I can't help with that."}]});
    let p = Scripted::new(vec![response(vec![refusal])]);
    let r = run(R, vec![], &p, &Tools::default(), None, &[], "bad").unwrap();
    assert_eq!(
        (r.text.as_str(), r.finish_reason, r.provider_finish_reason.as_deref()),
        ("I can't help with that.", Some(Finish::Refusal), Some("completed"))
    );
}

#[test]
fn a_cut_reply_finishes_as_length_and_a_reasoning_only_turn_is_not_sent_back() {
    let mut cut = response(vec![rs("rs_1", &["Thinking"], "enc-cut"), msg("Par")]);
    cut["status"] = json!("incomplete");
    cut["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let p = Scripted::new(vec![cut.clone()]);
    let r = run(R, vec![], &p, &Tools::default(), None, &[], "q").unwrap();
    assert_eq!(
        (r.text.as_str(), r.finish_reason, r.provider_finish_reason.as_deref()),
        ("Par", Some(Finish::Length), Some("incomplete:max_output_tokens"))
    );

    // Cut while still reasoning: the turn is kept in the state, but a reasoning item that nothing
    // follows is refused by the API, so the next request leaves it out.
    cut["output"] = json!([rs("rs_2", &[], "enc-only")]);
    let p = Scripted::new(vec![cut.clone(), rs_text("ok")]);
    let first = run(R, vec![], &p, &Tools::default(), None, &[], "q").unwrap();
    assert_eq!((first.text.as_str(), first.finish_reason), ("", Some(Finish::Length)));
    assert_eq!(first.messages()[1], tagged(rs("rs_2", &[], "enc-only"), "test-model"));
    round_trips(&first);
    run(R, vec![], &p, &Tools::default(), None, &first.messages(), "again").unwrap();
    assert_eq!(p.bodies()[1]["input"], json!([{"role": "user", "content": "q"}, {"role": "user", "content": "again"}]));

    // Withheld by the content filter before any text: a typed error naming the reason.
    cut["output"] = json!([]);
    cut["incomplete_details"] = json!({"reason": "content_filter"});
    let e = run(R, vec![], &Scripted::new(vec![cut.clone()]), &Tools::default(), None, &[], "q").unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("provider_error", "OpenAI withheld the answer: incomplete:content_filter"));
    cut["output"] = json!([msg("partial")]);
    let r = run(R, vec![], &Scripted::new(vec![cut]), &Tools::default(), None, &[], "q").unwrap();
    assert_eq!((r.text.as_str(), r.finish_reason), ("partial", Some(Finish::ContentFilter)));
}

#[test]
fn a_failed_response_is_a_provider_error() {
    let mut failed = response(vec![]);
    failed["status"] = json!("failed");
    failed["error"] = json!({"code": "server_error", "message": "The model crashed."});
    let resp = HttpResponse { status: 200, body: failed.to_string(), retry_after: None };
    let e = parse_response(&config(R).provider, &resp).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("provider_error", "provider returned an error: The model crashed."));

    let sse =
        |events: &[Value]| events.iter().map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap())).collect::<String>();
    let created = json!({"type": "response.created", "sequence_number": 0, "response": {"id": "r", "status": "in_progress", "output": []}});
    let failed_event = json!({"type": "response.failed", "sequence_number": 1,
                              "response": {"id": "r", "status": "failed", "error": {"code": "server_error", "message": "The model crashed."}, "output": []}});
    let error_event = json!({"type": "error", "sequence_number": 1, "code": "rate_limit_exceeded", "message": "Slow down.", "param": null});
    for (event, want) in [(failed_event, "provider stream error: The model crashed."), (error_event, "provider stream error: Slow down.")] {
        let (_, r) = assemble(&sse(&[created.clone(), event]));
        let e = r.unwrap_err();
        assert_eq!((e.code(), e.message.as_str()), ("provider_error", want));
    }
    // A stream that stops before its terminal event is truncated, not an answer.
    let (_, r) = assemble(&sse(&[created]));
    assert_eq!(r.unwrap_err().message, "the provider stream ended before response.completed: truncated reply");
}

fn assemble(body: &str) -> (Vec<Delta>, toolnexus_wasm::Result<toolnexus_wasm::provider::ModelReply>) {
    assemble_chunks(&[body.as_bytes()])
}

fn assemble_chunks(chunks: &[&[u8]]) -> (Vec<Delta>, toolnexus_wasm::Result<toolnexus_wasm::provider::ModelReply>) {
    let mut a = StreamAssembler::new(&config(R).provider);
    let mut deltas = Vec::new();
    for c in chunks {
        if let Err(e) = a.push(c, &mut deltas) {
            return (deltas, Err(e));
        }
    }
    (deltas, a.finish())
}

/// The SSE stream the API sends for this whole response: each item opened, its deltas in two
/// pieces, closed, then the terminal event carrying the response.
fn stream_of(resp: &Value) -> String {
    let mut events: Vec<Value> =
        vec![json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}})];
    let halves = |t: &str| {
        let cut = t.char_indices().nth(t.chars().count() / 2).map_or(t.len(), |(i, _)| i);
        [t[..cut].to_string(), t[cut..].to_string()]
    };
    for (i, item) in resp["output"].as_array().unwrap().iter().enumerate() {
        let mut opened = item.clone();
        match item["type"].as_str().unwrap() {
            "reasoning" => {
                opened["summary"] = json!([]);
                opened["encrypted_content"] = json!("not-yet-whole");
            }
            "message" => opened["content"] = json!([]),
            "function_call" => opened["arguments"] = json!(""),
            _ => {}
        }
        events.push(json!({"type": "response.output_item.added", "output_index": i, "item": opened}));
        let id = item["id"].clone();
        for (k, s) in item["summary"].as_array().into_iter().flatten().enumerate() {
            events.push(json!({"type": "response.reasoning_summary_part.added", "item_id": id, "output_index": i, "summary_index": k, "part": {"type": "summary_text", "text": ""}}));
            for d in halves(s["text"].as_str().unwrap()) {
                events.push(json!({"type": "response.reasoning_summary_text.delta", "item_id": id, "output_index": i, "summary_index": k, "delta": d}));
            }
        }
        for (k, c) in item["content"].as_array().into_iter().flatten().enumerate() {
            let (kind, text) = match c["type"].as_str().unwrap() {
                "refusal" => ("response.refusal.delta", c["refusal"].as_str().unwrap()),
                _ => ("response.output_text.delta", c["text"].as_str().unwrap()),
            };
            for d in halves(text) {
                events.push(json!({"type": kind, "item_id": id, "output_index": i, "content_index": k, "delta": d}));
            }
        }
        if item["type"] == "function_call" {
            for d in halves(item["arguments"].as_str().unwrap()) {
                events.push(json!({"type": "response.function_call_arguments.delta", "item_id": id, "output_index": i, "delta": d}));
            }
            events.push(
                json!({"type": "response.function_call_arguments.done", "item_id": id, "output_index": i, "arguments": item["arguments"]}),
            );
        }
        events.push(json!({"type": "response.output_item.done", "output_index": i, "item": item}));
    }
    let end = if resp["status"] == "incomplete" { "response.incomplete" } else { "response.completed" };
    events.push(json!({"type": end, "response": resp}));
    let mut text = String::new();
    for (n, mut e) in events.into_iter().enumerate() {
        e["sequence_number"] = json!(n);
        text.push_str(&format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()));
    }
    text
}

#[test]
fn a_stream_gives_the_whole_reply_at_every_split_point() {
    let search = json!({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "météo"}});
    let mut cut = response(vec![msg("Par")]);
    cut["status"] = json!("incomplete");
    cut["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let refusal =
        response(vec![json!({"type": "message", "id": "m", "role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]})]);
    let cases = [
        response(vec![
            rs("rs_1", &["Looking it up — ☀️.", "Then two calls."], "enc-A"),
            search,
            rs("rs_2", &["", "More."], "enc-B"),
            msg("Weather: sunny ☀️"),
            fc("call_1", "add", "{\"a\":1}"),
            rs("rs_3", &[], "enc-C"),
            fc("call_2", "add", ""),
        ]),
        cut,
        refusal,
    ];
    for whole in cases {
        let want = parse_response(&config(R).provider, &HttpResponse { status: 200, body: whole.to_string(), retry_after: None }).unwrap();
        let body = stream_of(&whole);
        let bytes = body.as_bytes();
        let (deltas, r) = assemble(&body);
        assert_eq!(r.unwrap(), want);
        assert_eq!((Delta::join(&deltas, false), Delta::join(&deltas, true)), (want.turn.text.clone(), want.reasoning_text.clone()));
        for cut in 0..=bytes.len() {
            let (d, r) = assemble_chunks(&[&bytes[..cut], &bytes[cut..]]);
            assert_eq!(r.unwrap(), want, "split at {cut}");
            assert_eq!(d, deltas, "split at {cut}");
        }
    }
    // What the first case reads as, exactly.
    let whole = parse_response(
        &config(R).provider,
        &HttpResponse {
            status: 200,
            body: response(vec![rs("rs_1", &["a", "b"], "e"), rs("rs_2", &["c"], "f"), fc("call_1", "add", "{}")]).to_string(),
            retry_after: None,
        },
    )
    .unwrap();
    assert_eq!(whole.reasoning_text, "a\n\nb\n\nc");
    assert_eq!(whole.finish, Finish::ToolCalls);
    assert_eq!(whole.usage.total_tokens, 15);
    let r = whole.turn.reasoning.unwrap();
    assert_eq!((r.provider.as_str(), r.model.as_str(), r.items.len()), ("openai", "test-model", 2));
}

#[test]
fn a_streamed_tool_loop_replays_the_streamed_reasoning() {
    let rs1 = rs("rs_1", &["Summing."], "enc-stream");
    let t = Chunked::default();
    let first = stream_of(&response(vec![rs1.clone(), fc("call_1", "add", "{\"a\":4}")]));
    t.push_split(&first, first.len() / 3);
    let second = stream_of(&response(vec![msg("8")]));
    t.push_split(&second, 7);
    let tools = Tools::default().with("add", |a, _| ToolResult::ok(format!("{}", a["a"].as_i64().unwrap() * 2)));
    let host = Host::default();
    let r = run_full(R, true, vec![native("add")], &t, &tools, None, &host, vec![], "double 4").unwrap();
    assert_eq!((r.status, r.text.as_str(), r.reasoning.as_str()), (Status::Done, "8", "Summing."));
    let sent = t.requests.borrow()[1].json();
    assert_eq!(sent["stream"], true);
    assert_eq!(
        sent["input"],
        json!([{"role": "user", "content": "double 4"}, rs1, sent_call("call_1", "add", "{\"a\":4}"), sent_result("call_1", "8")])
    );
    round_trips(&r);
}

#[test]
fn images_go_as_input_image_parts_in_prompts_and_results() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAW9JTAQAAAABJRU5ErkJggg==";
    let png = Part::Image(Image::new(Some(PNG), None, None).unwrap());
    let url = Part::Image(Image::new(None, Some("https://example.com/cat.jpg"), None).unwrap());
    let history = vec![Message::UserParts(vec![Part::Text("look".into()), png.clone(), url.clone()])];
    let p = Scripted::new(vec![rs_calls(&[("call_1", "shot", json!({}))]), rs_text("a cat")]);
    let tools = Tools::default().with("shot", move |_, _| ToolResult { parts: vec![png.clone()], ..ToolResult::ok("taken") });
    let host = Host::default();
    let r = run_full(R, false, vec![native("shot")], &p, &tools, None, &host, history, "and now?").unwrap();
    let data_url = format!("data:image/png;base64,{PNG}");
    let input = p.bodies()[1]["input"].clone();
    assert_eq!(
        input[0],
        json!({"role": "user", "content": [{"type": "input_text", "text": "look"}, {"type": "input_image", "image_url": data_url},
                                            {"type": "input_image", "image_url": "https://example.com/cat.jpg"}]})
    );
    assert_eq!(
        input[3],
        json!({"type": "function_call_output", "call_id": "call_1",
               "output": [{"type": "input_text", "text": "taken"}, {"type": "input_image", "image_url": data_url}]})
    );
    round_trips(&r);
}

#[test]
fn every_transcript_reads_back_from_its_items() {
    let call = |id: &str| ToolCall { id: id.into(), name: "add".into(), arguments: "{\"a\":1}".into(), signature: None };
    let out =
        |id: &str, parts: Vec<Part>| ToolOutput { call_id: id.into(), name: "add".into(), output: "ok".into(), is_error: false, parts };
    let mut reasoning = Reasoning::new("openai");
    reasoning.model = "gpt-5".into();
    reasoning.items = vec![
        (0, rs("rs_a", &["x"], "e1")),
        (1, json!({"type": "web_search_call", "id": "ws_1", "status": "completed"})),
        (2, rs("rs_b", &[], "e2")),
    ];
    let mut at_end = Reasoning::new("openai");
    at_end.items = vec![(1, rs("rs_c", &[], "e3"))];
    let mut foreign = Reasoning::new("anthropic");
    foreign.items = vec![(0, json!({"type": "thinking", "thinking": "t", "signature": "s"}))];
    let image = Part::Image(Image::new(None, Some("https://x/a.png"), None).unwrap());
    let transcript = vec![
        Message::System("be brief".into()),
        Message::User("hi".into()),
        Message::Assistant(AssistantTurn { text: "two calls".into(), calls: vec![call("c1"), call("c2")], reasoning: Some(reasoning) }),
        Message::Tool(vec![out("c1", vec![]), out("c2", vec![image.clone()])]),
        Message::Assistant(AssistantTurn { text: String::new(), calls: vec![call("c3")], reasoning: Some(at_end) }),
        Message::Tool(vec![out("c3", vec![])]),
        Message::Assistant(AssistantTurn { text: "done".into(), calls: vec![], reasoning: None }),
        Message::UserParts(vec![Part::Text("see".into()), image]),
        // Two turns in a row: the second message starts a turn of its own.
        Message::Assistant(AssistantTurn::default()),
        Message::Assistant(AssistantTurn { text: "again".into(), calls: vec![], reasoning: None }),
    ];
    let items = dialect::render(&transcript, R);
    assert_eq!(items[2], tagged(rs("rs_a", &["x"], "e1"), "gpt-5"));
    assert_eq!(items[3], sent_text("two calls"));
    assert_eq!(items[4], sent_call("c1", "add", "{\"a\":1}"));
    assert_eq!(items[5]["type"], "web_search_call");
    assert_eq!((items[6]["call_id"].clone(), items[7]["id"].clone()), (json!("c2"), json!("rs_b")));
    assert_eq!(items[9]["output"], json!([{"type": "input_text", "text": "ok"}, {"type": "input_image", "image_url": "https://x/a.png"}]));
    assert_eq!(items[10], tagged(sent_call("c3", "add", "{\"a\":1}"), ""), "the tag rides on the turn's first item");
    assert_eq!(items[11]["id"], "rs_c");
    assert_eq!(items[15], sent_text(""), "an empty turn stays, as an empty message");
    assert_eq!(items.len(), 17);
    let mut want = transcript.clone();
    let Message::Assistant(t) = &mut want[4] else { unreachable!() };
    t.reasoning.as_mut().unwrap().model = String::new();
    assert_eq!(dialect::read(&items).unwrap(), want);
    // Another provider's reasoning is not this dialect's: left out of the view.
    let turn = Message::Assistant(AssistantTurn { text: "t".into(), calls: vec![], reasoning: Some(foreign) });
    assert_eq!(dialect::render(&[turn], R), vec![sent_text("t")]);
}

#[test]
fn the_apis_own_output_items_read_as_a_history() {
    // What a caller keeping `response.output` would pass: ids, statuses, phases, annotations.
    let history = vec![
        json!({"role": "user", "content": [{"type": "input_text", "text": "hi"}]}),
        rs("rs_1", &["s"], "enc"),
        json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "phase": "commentary",
               "content": [{"type": "output_text", "text": "Calling.", "annotations": []}]}),
        fc("call_1", "add", "{}"),
        json!({"type": "function_call_output", "call_id": "call_1", "output": [{"type": "input_text", "text": "3"}]}),
        json!({"role": "assistant", "content": [{"type": "output_text", "text": "Three."}]}),
    ];
    let got = dialect::read(&history).unwrap();
    let mut r = Reasoning::new("openai");
    r.items = vec![(0, rs("rs_1", &["s"], "enc"))];
    let want = vec![
        Message::User("hi".into()),
        Message::Assistant(AssistantTurn {
            text: "Calling.".into(),
            calls: vec![ToolCall { id: "call_1".into(), name: "add".into(), arguments: "{}".into(), signature: None }],
            reasoning: Some(r),
        }),
        Message::Tool(vec![ToolOutput {
            call_id: "call_1".into(),
            name: "add".into(),
            output: "3".into(),
            is_error: false,
            parts: vec![],
        }]),
        Message::Assistant(AssistantTurn { text: "Three.".into(), calls: vec![], reasoning: None }),
    ];
    assert_eq!(got, want);
    // A call without its call_id is refused as in every dialect.
    let e = dialect::read(&[json!({"type": "function_call", "name": "add", "arguments": "{}"})]).unwrap_err();
    assert_eq!(e.code(), "bad_state");
    // An object with a type but neither a role nor an id is no item.
    assert_eq!(dialect::read(&[json!({"type": "thing"})]).unwrap_err().message, "history[0] has no string role");
}

#[test]
fn a_retried_call_sends_the_same_items_and_request_params_merge_into_the_body() {
    use serde_json::Map;
    use toolnexus_wasm::driver::{drive, CallPolicy, Env};
    use toolnexus_wasm::run::Run;
    use toolnexus_wasm::tool::Toolkit;
    let p = Scripted::default();
    p.push(429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}".into());
    p.push(200, response(vec![rs("rs_1", &["s"], "enc"), msg("fine")]).to_string());
    let mut params = Map::new();
    params.insert("reasoning".into(), json!({"effort": "high", "summary": "auto"}));
    let policy = CallPolicy { retries: 2, retry_base_ms: 1.0, request_params: Some(params), ..CallPolicy::SINGLE };
    let (sleeps, ids, clock, tools, half) = (Sleeps::default(), ids(), tick(), Tools::default(), || 0.5);
    let env = Env { sleep: Some(&sleeps), random: &half, policy: &policy, ..Env::new(&p, &tools, &ids, &clock) };
    let (r, step) = Run::start(config(R), Toolkit::default(), vec![], "x").unwrap();
    let r = futures_executor::block_on(drive(r, step, &env)).unwrap();
    assert_eq!((r.text.as_str(), r.reasoning.as_str()), ("fine", "s"));
    let bodies = p.bodies();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], bodies[1], "a retry sends the same body");
    assert_eq!(bodies[0]["reasoning"], json!({"effort": "high", "summary": "auto"}));
    assert_eq!(bodies[0]["input"], json!([{"role": "user", "content": "x"}]));
}
