//! Three behaviours of the real APIs, replayed through the loop (`run` with whole replies,
//! `stream` with SSE cut in chunks) from recordings (SOURCES.md): a reasoning item that came
//! without the artifact the provider validates stays in the state but never goes back by its id
//! alone; a call kind the dialect does not know is carried or a typed error, never an empty
//! success; a stream that states its usage more than once is counted once, in the result and in
//! the `llm` metric. See docs/decisions/wire-replies.md.

use crate::common::*;
use crate::manifest::*;
use crate::requests::{transcript, validated};
use serde_json::Value;
use toolnexus_wasm::driver::{drive, Env};
use toolnexus_wasm::metrics::Metric;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{Run, RunResult, Status};
use toolnexus_wasm::tool::{ToolResult, Toolkit};

/// Every value of `v` (objects and arrays walked) of type `ty`.
fn of_type<'a>(v: &'a Value, ty: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) => {
            if o.get("type").and_then(Value::as_str) == Some(ty) {
                out.push(v);
            }
            o.values().for_each(|c| of_type(c, ty, out));
        }
        Value::Array(a) => a.iter().for_each(|c| of_type(c, ty, out)),
        _ => {}
    }
}

fn count(v: &Value, ty: &str) -> usize {
    let mut out = Vec::new();
    of_type(v, ty, &mut out);
    out.len()
}

/// A stream run of one recorded reply (chunked by `seed`), then a second turn on the stored
/// history answered by `next`: the result, and the second request's body.
fn stream_then_next_turn(style: Style, file: &str, next: &str, seed: u64) -> (RunResult, Value) {
    let t = Chunked::default();
    t.push(200, chunks(&read_bytes(file), seed, 9));
    let host = Host::default();
    let r = run_full(style, true, vec![], &t, &Tools::default(), None, &host, vec![], "Count the r's.").unwrap();
    let stored: Value = serde_json::from_str(&r.to_json()).unwrap();
    let p = Scripted::default();
    p.push(200, entry(next).text());
    run(style, vec![], &p, &Tools::default(), None, stored["messages"].as_array().unwrap(), "And in raspberry?").unwrap();
    (r, p.bodies().remove(0))
}

/// GitHub Copilot's Responses gateway sends reasoning with `encrypted_content: null` (it ignores
/// `include`). The state keeps the item; the next request (`store: false`) leaves it out, where
/// it went back by id before and OpenAI answered 404.
#[test]
fn responses_reasoning_without_encrypted_content_stays_in_the_state_and_out_of_the_request() {
    for seed in SEEDS {
        let (r, body) = stream_then_next_turn(Style::Responses, "responses/reasoning_unencrypted_stream.sse", "responses/text.json", seed);
        let e = entry("responses/reasoning_unencrypted_stream.sse");
        assert_eq!((r.status, r.text.as_str()), (Status::Done, e.turn_text()));
        assert!(!r.reasoning.is_empty(), "the summary is the run's readable reasoning");
        let state = Value::Array(r.messages());
        assert_eq!(count(&state, "reasoning"), 1, "the state keeps the reasoning item: {state}");
        assert_eq!(body["store"], false);
        let input = Value::Array(transcript("responses", &body));
        assert_eq!(count(&input, "reasoning"), 0, "an item without encrypted_content went back by its id: {input}");
        assert!(!input.to_string().contains("capture-id-8"), "{input}");
        // The answer itself still goes back.
        assert!(input.to_string().contains("strawberry"), "{input}");
    }
}

/// The same reply shape inside a tool loop, whole and halted/resumed alike: OpenAI's own
/// recording of a reasoning item and a call, as a gateway that ignores `include` gives it (the
/// item's `encrypted_content` taken out here, in the test). The follow-up carries the call and
/// its output and no reasoning item; the state keeps the item.
/// A tool loop over a recorded reply whose reasoning pieces of type `kind` had their `artifact`
/// taken out (as a gateway that strips it gives them), followed by the recorded final text:
/// the result (the state keeps the piece), the follow-up request as the provider validates it,
/// and the recorded call.
fn loop_without(style: Style, fixture: &str, kind: &str, artifact: &str, prompt: &str) -> (Value, Value, String) {
    let dir = fixture.split('/').next().unwrap();
    let (list, call_type) = if style == Style::Responses { ("output", "function_call") } else { ("content", "tool_use") };
    let mut reply = read_json(fixture);
    for it in reply[list].as_array_mut().unwrap() {
        if it["type"] == kind {
            it.as_object_mut().unwrap().remove(artifact);
        }
    }
    let call = reply[list].as_array().unwrap().iter().find(|it| it["type"] == call_type).unwrap().clone();
    let name = call["name"].as_str().unwrap().to_string();
    let p = Scripted::default();
    p.push(200, reply.to_string());
    p.push(200, entry(&format!("{dir}/text.json")).text());
    let tools = Tools::default().with(&name, |_, _| ToolResult::ok("done"));
    let r = run(style, vec![native(&name)], &p, &tools, None, &[], prompt).unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(count(&Value::Array(r.messages()), kind), 1, "the state keeps the {kind} piece");
    let follow = &p.bodies()[1];
    (validated(dir, &transcript(dir, follow)), call, follow.to_string())
}

/// The same reply shape inside a tool loop, whole and halted/resumed alike: OpenAI's own
/// recording of a reasoning item and a call, as a gateway that ignores `include` gives it (the
/// item's `encrypted_content` taken out here, in the test). The follow-up carries the call and
/// its output and no reasoning item; the state keeps the item.
#[test]
fn responses_tool_loop_without_encrypted_content_sends_the_call_not_the_item() {
    let (got, call, follow) = loop_without(Style::Responses, "responses/reasoning_tool.json", "reasoning", "encrypted_content", "Weather?");
    let id = &call["call_id"];
    assert_eq!(got, serde_json::json!({"items": [{"function_call": id, "name": call["name"]}, {"function_call_output": id}]}), "{follow}");
}

/// Anthropic checks a thinking block by its signature and refuses one without
/// (`thinking.signature: Field required`): a block that came without (a gateway that strips
/// it; the recording's signature taken out here) stays in the state and out of the request;
/// the signed recording still sends it back (tests/wire/loops.rs).
#[test]
fn anthropic_thinking_without_signature_stays_in_the_state_and_out_of_the_request() {
    let (got, call, follow) = loop_without(Style::Anthropic, "anthropic/thinking_tool.json", "thinking", "signature", "Use the tool.");
    assert_eq!(got["reasoning"], serde_json::json!([]), "an unsigned thinking block went back: {follow}");
    assert_eq!(got["calls"], serde_json::json!([{"id": call["id"], "name": call["name"]}]));
    assert_eq!(got["results"], serde_json::json!([call["id"]]));
}

/// A free-form (`custom`) tool call, whole and streamed, is a call: the tool of that name runs
/// with `{ input }` and the call goes back as a `custom_tool_call` answered by a
/// `custom_tool_call_output` (the generic replay in loops.rs checks the pairing; this checks
/// what the tool got and what the model is sent).
#[test]
fn responses_custom_tool_call_runs_the_tool_with_its_input() {
    for (file, stream) in [("responses/custom_tool_call.json", false), ("responses/custom_tool_call_stream.sse", true)] {
        let got = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = got.clone();
        let tools = Tools::default().with("write_sql", move |args, _| {
            seen.borrow_mut().push(Value::Object(args.clone()));
            ToolResult::ok("3 rows")
        });
        let (r, follow) = if stream {
            let t = Chunked::default();
            t.push(200, chunks(&read_bytes(file), 2, 9));
            t.push(200, chunks(&read_bytes("responses/text_stream.sse"), 3, 64));
            let r = run_full(Style::Responses, true, vec![native("write_sql")], &t, &tools, None, &Host::default(), vec![], "SQL?");
            let follow = t.requests.borrow()[1].json();
            (r, follow)
        } else {
            let p = Scripted::default();
            p.push(200, read_json(file).to_string());
            p.push(200, entry("responses/text.json").text());
            let r = run(Style::Responses, vec![native("write_sql")], &p, &tools, None, &[], "SQL?");
            (r, p.bodies()[1].clone())
        };
        let r = r.unwrap();
        assert_eq!((r.status, r.tool_call_count), (Status::Done, 1), "{file}");
        assert_eq!(*got.borrow(), vec![serde_json::json!({"input": "SELECT * FROM users WHERE age > 25"})], "{file}");
        let input = Value::Array(transcript("responses", &follow));
        let mut outs = Vec::new();
        of_type(&input, "custom_tool_call_output", &mut outs);
        assert_eq!(outs.len(), 1, "{file}: {input}");
        assert_eq!((&outs[0]["call_id"], &outs[0]["output"]), (&Value::from("call_custom_sql_001"), &Value::from("3 rows")));
        assert_eq!(count(&input, "function_call"), 0, "{file}: the custom call went as a function call: {input}");
    }
}

/// Calls only the client can answer (a local shell, a patch, an MCP approval) end the run with
/// the typed error naming the kind, whole and streamed: before, the run ended `done` with no
/// text.
#[test]
fn client_only_calls_end_the_run_with_an_error_naming_the_kind() {
    for file in ["responses/local_shell_call.json", "responses/apply_patch_call.json", "responses/mcp_approval_request.json"] {
        let p = Scripted::default();
        p.push(200, read_json(file).to_string());
        let err = run(Style::Responses, vec![], &p, &Tools::default(), None, &[], "Go.").unwrap_err();
        let kind = entry(file).unsupported().unwrap().to_string();
        assert_eq!(err.code(), "provider_parse", "{file}");
        assert!(err.message.contains(&kind), "{file}: {}", err.message);
    }
    let t = Chunked::default();
    t.push(200, chunks(&read_bytes("responses/local_shell_call_stream.sse"), 1, 9));
    let err = run_full(Style::Responses, true, vec![], &t, &Tools::default(), None, &Host::default(), vec![], "Go.").unwrap_err();
    assert!(err.message.contains("local_shell_call"), "{}", err.message);
}

/// A stream and its `llm` metric, with an observer.
fn streamed_with_metrics(style: Style, file: &str) -> (RunResult, Vec<Metric>) {
    let t = Chunked::default();
    t.push(200, chunks(&read_bytes(file), 4, 9));
    let recorder = Recorder::default();
    let (ids, clock, policy, tools) = (ids(), tick(), streaming(true), Tools::default());
    let env = Env { observer: Some(&recorder), policy: &policy, ..Env::new(&t, &tools, &ids, &clock) };
    let (r, step) = Run::start(config(style), Toolkit::new(vec![]).unwrap(), vec![], "Say OK.").unwrap();
    let r = futures_executor::block_on(drive(r, step, &env)).unwrap();
    (r, recorder.0.into_inner())
}

/// Groq states a stream's usage on the finish chunk (`usage` and `x_groq.usage`) and again in
/// the usage-only chunk; Anthropic's `message_delta` restates `message_start`'s. Counted once.
#[test]
fn usage_stated_more_than_once_in_a_stream_is_counted_once() {
    for (style, file) in [(Style::OpenAi, "openai/groq_usage_twice.sse"), (Style::Anthropic, "anthropic/usage_twice_stream.sse")] {
        let u = &entry(file).expect["usage"];
        let (p, c) = (u["prompt"].as_u64().unwrap(), u["completion"].as_u64().unwrap());
        let (r, metrics) = streamed_with_metrics(style, file);
        assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens), (p, c, p + c), "{file}");
        let llm: Vec<(u64, u64)> = metrics
            .iter()
            .filter_map(|m| match m {
                Metric::Llm { prompt_tokens, completion_tokens, .. } => Some((*prompt_tokens, *completion_tokens)),
                _ => None,
            })
            .collect();
        assert_eq!(llm, vec![(p, c)], "{file}: the llm metric");
    }
}
