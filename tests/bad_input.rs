//! Bad provider bodies and bad host input give typed errors and lose nothing.

mod common;
use common::*;
use serde_json::json;
use toolnexus_wasm::provider::Style;

fn run_with(style: Style, status: u16, body: &str) -> toolnexus_wasm::Error {
    let p = Scripted::default();
    p.push(status, body.to_string());
    run(style, vec![native("t")], &p, &Tools::default(), None, &[], "x").unwrap_err()
}

#[test]
fn broken_provider_bodies_are_typed_errors() {
    for style in [Style::OpenAi, Style::Anthropic] {
        assert_eq!(run_with(style, 200, "<html>502 Bad Gateway</html>").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "{\"choices\": [{\"message\": {\"content\": \"hal").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "[]").code(), "provider_parse");
        assert_eq!(run_with(style, 200, "{}").code(), "provider_parse");
        let e = run_with(style, 200, &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}).to_string());
        assert_eq!(e.code(), "provider_error");
        assert!(e.message.contains("Overloaded"));
    }
    assert_eq!(run_with(Style::OpenAi, 200, "{\"choices\":[{}]}").code(), "provider_parse");
    assert_eq!(run_with(Style::OpenAi, 200, "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"a\"}]}}]}").code(), "provider_parse");
    assert_eq!(run_with(Style::Anthropic, 200, "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\"}]}").code(), "provider_parse");
}

#[test]
fn http_failures_carry_the_status_and_never_the_key() {
    let e = run_with(Style::OpenAi, 429, "{\"error\":{\"message\":\"Rate limit for key sk-test-key\"}}");
    assert_eq!(e.code(), "provider_http");
    assert_eq!(e.status, Some(429));
    assert!(e.message.starts_with("LLM 429: "));
    assert!(!e.message.contains("sk-test-key"));
    let e = run_with(Style::Anthropic, 401, "invalid x-api-key sk-test-key");
    assert_eq!(e.message, "LLM 401: check apiKey: the provider did not accept it (the provider's reply is withheld: it can echo a key)");
    assert!(!e.message.contains("sk-test-key"));
}

#[test]
fn openai_empty_choices_is_an_empty_final_answer() {
    let p = Scripted::new(vec![json!({"choices": []})]);
    let r = run(Style::OpenAi, vec![], &p, &Tools::default(), None, &[], "x").unwrap();
    assert_eq!(r.text, "");
}

#[test]
fn non_object_tool_arguments_are_fed_back_as_errors() {
    let p = Scripted::new(vec![oa_calls(&[("c1", "t", "[1,2]"), ("c2", "t", "not json")]), oa_text("ok")]);
    let r = run(Style::OpenAi, vec![native("t")], &p, &Tools::default(), None, &[], "x").unwrap();
    assert_eq!(r.tool_calls[0].output, "Invalid arguments for tool t: arguments must be a JSON object, got an array");
    assert!(r.tool_calls[1].output.starts_with("Invalid arguments for tool t: arguments are not valid JSON"));
}

/// A history whose turn has a call without an id, or two calls sharing one, is refused when it
/// is read (`bad_state`), in every dialect that carries ids: results are paired with calls by id,
/// so such a history cannot be resumed or answered unambiguously (found by the `state` fuzz
/// target on Anthropic histories).
#[test]
fn histories_with_missing_or_repeated_call_ids_are_refused() {
    use toolnexus_wasm::dialect::read;
    let anthropic =
        |blocks: serde_json::Value| vec![json!({"role": "user", "content": "go"}), json!({"role": "assistant", "content": blocks})];
    let tool_use = |id: Option<&str>| {
        let mut b = json!({"type": "tool_use", "name": "t", "input": {}});
        if let Some(id) = id {
            b["id"] = json!(id);
        }
        b
    };
    let openai = |ids: &[Option<&str>]| {
        let calls: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| {
                let mut c = json!({"type": "function", "function": {"name": "t", "arguments": "{}"}});
                if let Some(id) = id {
                    c["id"] = json!(id);
                }
                c
            })
            .collect();
        vec![json!({"role": "assistant", "content": null, "tool_calls": calls})]
    };
    let gemini = |ids: &[&str]| {
        let parts: Vec<serde_json::Value> = ids.iter().map(|id| json!({"functionCall": {"id": id, "name": "t", "args": {}}})).collect();
        vec![json!({"role": "model", "parts": parts})]
    };
    let refused = [
        anthropic(json!([tool_use(None)])),
        anthropic(json!([tool_use(Some(""))])),
        anthropic(json!([tool_use(Some("a")), tool_use(Some("a"))])),
        openai(&[None]),
        openai(&[Some("a"), Some("a")]),
        gemini(&["a", "a"]),
        // A given id equal to the one the reader makes up for an id-less call of the turn.
        gemini(&["call_h0_1", ""]),
    ];
    for h in refused {
        let e = read(&h).unwrap_err();
        assert_eq!((e.code(), e.message.contains("without an id of its own")), ("bad_state", true), "{h:?}");
    }
    for h in [anthropic(json!([tool_use(Some("a")), tool_use(Some("b"))])), openai(&[Some("a"), Some("b")]), gemini(&["", ""])] {
        assert!(read(&h).is_ok(), "{h:?}");
    }
    // The same id in two different turns is each turn's own business.
    let two_turns: Vec<_> = [anthropic(json!([tool_use(Some("a"))])), anthropic(json!([tool_use(Some("a"))]))].concat();
    assert!(read(&two_turns).is_ok());
    // A resume from such a history fails before anything runs.
    let p = Scripted::default();
    let h = anthropic(json!([tool_use(Some("a")), tool_use(Some("a"))]));
    let e = run(Style::Anthropic, vec![native("t")], &p, &Tools::default(), None, &h, "x").unwrap_err();
    assert_eq!(e.code(), "bad_state");
    assert!(p.requests.borrow().is_empty());
}

/// A durable answer whose results name a call that is not waiting is `answer_mismatch`, refused
/// before anything runs; the halted state is untouched, and the right answer then resumes it.
#[test]
fn resume_results_that_match_no_outstanding_call_are_refused_and_lose_nothing() {
    use toolnexus_wasm::suspend::{relay_answer, RelayResult};
    let p = Scripted::new(vec![oa_calls(&[("c1", "click", "{}"), ("c2", "click", "{}")])]);
    let r = run(Style::OpenAi, vec![relay("click")], &p, &Tools::default(), None, &[], "go").unwrap();
    let (history, pending) = (r.messages(), r.pending.clone().unwrap());
    let result = |id: &str| RelayResult { id: id.into(), output: "ok".into(), is_error: false, parts: vec![] };
    let p2 = Scripted::new(vec![oa_text("done")]);
    let typo = relay_answer(&pending.id, vec![result("c1"), result("c2x")]);
    let e = resume(Style::OpenAi, vec![relay("click")], &p2, &Tools::default(), None, &history, pending.clone(), typo).unwrap_err();
    assert_eq!(e.code(), "answer_mismatch");
    assert_eq!(
        e.message,
        format!(
            "toolnexus: cannot resume — answer result id \"c2x\" matches no outstanding call of request \"{}\" (outstanding: c1, c2)",
            pending.id
        )
    );
    assert!(p2.requests.borrow().is_empty(), "refused before any provider call");
    // The call id given as the answer's id: refused as before.
    let by_call = relay_answer("c1", vec![result("c1")]);
    let e = resume(Style::OpenAi, vec![relay("click")], &p2, &Tools::default(), None, &history, pending.clone(), by_call).unwrap_err();
    assert_eq!(e.code(), "answer_mismatch");
    // Nothing was lost: the same halted state resumes with the right answer.
    let right = relay_answer(&pending.id, vec![result("c1"), result("c2")]);
    let out = resume(Style::OpenAi, vec![relay("click")], &p2, &Tools::default(), None, &history, pending, right).unwrap();
    assert_eq!(out.text, "done");
}

/// A tool name a provider would reject is refused with the rule, never renamed: a relay host
/// matching calls on the name it declared would otherwise miss every call.
#[test]
fn tool_names_a_provider_would_reject_are_refused() {
    let p = Scripted::default();
    let e = run(Style::OpenAi, vec![relay("look up price")], &p, &Tools::default(), None, &[], "x").unwrap_err();
    assert_eq!(e.code(), "bad_input");
    assert!(
        e.message.starts_with("tool name \"look up price\" is refused: a tool name is 1 to 64 letters, digits, _ or -"),
        "{}",
        e.message
    );
    assert!(e.message.ends_with("try \"look_up_price\""));
    assert!(p.requests.borrow().is_empty());
}

/// Every client method's options are checked as `createClient`'s are, with where a key belongs.
#[test]
fn call_options_are_checked_with_a_hint() {
    use toolnexus_wasm::ops::ClientOp;
    use toolnexus_wasm::options::check_call_options;
    let refused = |op: ClientOp, key: &str| {
        let e = check_call_options(op, &[key.to_string()]).unwrap_err();
        assert_eq!(e.code(), "bad_input");
        e.message
    };
    let cases = [
        (ClientOp::Run, "tools", "run options: unknown option \"tools\"; did you mean { toolkit: createToolkit({ tools }) }?"),
        (ClientOp::Run, "maxSteps", "run options: unknown option \"maxSteps\"; did you mean createClient({ maxTurns })?"),
        (ClientOp::Stream, "system", "stream options: unknown option \"system\"; did you mean createClient({ systemPrompt })?"),
        (ClientOp::Ask, "messages", "ask options: unknown option \"messages\"; did you mean history?"),
        (ClientOp::Run, "temperature", "run options: unknown option \"temperature\"; did you mean createClient({ requestParams: { temperature } })?"),
        (ClientOp::Run, "maxTokens", "run options: unknown option \"maxTokens\"; did you mean createClient({ requestParams: { maxTokens } })?"),
        (ClientOp::Run, "id", "run options: unknown option \"id\"; did you mean ask(prompt, { id }) (run never uses the store)?"),
        (ClientOp::Run, "toolKit", "run options: unknown option \"toolKit\"; did you mean toolkit?"),
        (ClientOp::AskWithAnswer, "state", "askWithAnswer options: unknown option \"state\"; did you mean runWithAnswer({ state, answer }) (askWithAnswer reads the conversation from the store)?"),
        (ClientOp::Translate, "model", "translate request: unknown option \"model\"; did you mean createClient({ model })?"),
        (ClientOp::Discard, "keephistory", "discard options: unknown option \"keephistory\"; did you mean keepHistory?"),
        (ClientOp::RunWithAnswer, "colour", "runWithAnswer options: unknown option \"colour\" (see ResumeOptions)"),
    ];
    for (op, key, message) in cases {
        assert_eq!(refused(op, key), message, "{key}");
    }
    // Every key a method reads today passes.
    let ok = |op: ClientOp, keys: &[&str]| check_call_options(op, &keys.iter().map(|k| k.to_string()).collect::<Vec<_>>()).is_ok();
    assert!(ok(ClientOp::Run, &["toolkit", "history", "signal"]));
    assert!(ok(ClientOp::Ask, &["toolkit", "id", "onText", "history", "signal"]));
    assert!(ok(ClientOp::Stream, &["toolkit", "id", "history", "signal"]));
    assert!(ok(ClientOp::RunWithAnswer, &["toolkit", "state", "history", "pending", "answer", "signal"]));
    assert!(ok(ClientOp::AskWithAnswer, &["toolkit", "id", "pending", "answer", "signal"]));
    assert!(ok(ClientOp::StreamWithAnswer, &["toolkit", "id", "state", "history", "pending", "answer", "signal"]));
    assert!(ok(
        ClientOp::TranslateStream,
        &["messages", "tools", "toolkit", "toolChoice", "tool_choice", "system", "maxTokens", "max_tokens", "signal"]
    ));
    assert!(ok(ClientOp::Discard, &["keepHistory"]));
}

/// A transport whose every send fails with what a host's fetch threw.
struct Failing(&'static str, std::cell::Cell<u32>);
impl toolnexus_wasm::driver::Transport for Failing {
    fn send<'a>(
        &'a self,
        _: &'a toolnexus_wasm::provider::HttpRequest,
    ) -> futures_util::future::LocalBoxFuture<'a, toolnexus_wasm::Result<toolnexus_wasm::provider::HttpResponse>> {
        self.1.set(self.1.get() + 1);
        let e = toolnexus_wasm::Error::new(toolnexus_wasm::error::Code::Transport, self.0);
        Box::pin(async move { Err(e) })
    }
}

/// A browser's opaque fetch failure (CORS, host_permissions, offline) says so and is not
/// retried; Node's `fetch failed` with its cause keeps its retries, and says how many ran.
#[test]
fn browser_fetch_failures_name_the_causes_and_are_not_retried() {
    use toolnexus_wasm::driver::{drive, CallPolicy, Env};
    let go = |text: &'static str| {
        let t = Failing(text, Default::default());
        let (ids, clock, tools) = (ids(), tick(), Tools::default());
        let policy = CallPolicy { retries: 2, ..CallPolicy::SINGLE };
        let env = Env { policy: &policy, ..Env::new(&t, &tools, &ids, &clock) };
        let (r, step) = toolnexus_wasm::run::Run::start(config(Style::OpenAi), Default::default(), vec![], "x").unwrap();
        let e = futures_executor::block_on(drive(r, step, &env)).unwrap_err();
        (e.code(), e.message, t.1.get())
    };
    for text in
        ["fetch failed: Failed to fetch", "fetch failed: NetworkError when attempting to fetch resource.", "fetch failed: Load failed"]
    {
        let (code, message, attempts) = go(text);
        assert_eq!((code, attempts), ("transport", 1), "{text}");
        assert_eq!(
            message,
            format!("{text}; in a browser this is CORS (the API refuses this origin), host_permissions (an extension's manifest must list the API's origin) or being offline; not retried")
        );
    }
    let (code, message, attempts) = go("fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)");
    assert_eq!((code, attempts), ("transport", 3));
    assert_eq!(message, "fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9) (after 3 attempts)");
}

/// The typings' `ErrorCode` union names exactly the codes the core gives (`Code::as_str`), so
/// that a user's `switch (e.code)` is checked against what can arrive. The match below stops
/// compiling when a code is added, until it is listed here, and then this test names the
/// typing to add.
#[test]
fn the_typings_error_codes_are_the_cores() {
    use toolnexus_wasm::Code::{self, *};
    let all = [
        BadInput,
        ProviderHttp,
        ProviderParse,
        ProviderError,
        Transport,
        AnswerMismatch,
        BadState,
        RelayCollision,
        HostCallback,
        Aborted,
        Store,
        ConversationHalted,
        Conflict,
        Internal,
        ResponseTooLarge,
    ];
    for c in all {
        match c {
            BadInput | ProviderHttp | ProviderParse | ProviderError | Transport | AnswerMismatch | BadState | RelayCollision
            | HostCallback | Aborted | Store | ConversationHalted | Conflict | Internal | ResponseTooLarge => {}
        }
    }
    let dts = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/wasm/types.d.ts")).unwrap();
    let union = dts.split("export type ErrorCode =").nth(1).expect("types.d.ts declares ErrorCode");
    let union = &union[..union.find(';').unwrap()];
    let mut typed: Vec<&str> = union.split('|').map(|s| s.trim().trim_matches('"')).filter(|s| !s.is_empty()).collect();
    let mut core: Vec<&str> = all.iter().map(|c: &Code| c.as_str()).collect();
    typed.sort_unstable();
    core.sort_unstable();
    assert_eq!(typed, core, "src/wasm/types.d.ts `ErrorCode` against src/error.rs `Code`");
}
