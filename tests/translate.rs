//! `translate` and the streamed variant (contract §e): one provider call, OpenAI-shaped out.

mod common;
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use toolnexus_wasm::driver::Env;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::tool::Toolkit;
use toolnexus_wasm::translate::{translate, TranslateRequest};

fn request() -> Value {
    json!({
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather in Paris and Tokyo?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                {"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Tokyo\"}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "tool", "tool_call_id": "c2", "content": "rainy"},
            {"role": "user", "content": "And Oslo?"}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
        "toolChoice": "required",
        "maxTokens": 256
    })
}

fn go(
    style: Style,
    transport: &dyn toolnexus_wasm::driver::Transport,
    req: Value,
    stream: bool,
) -> (toolnexus_wasm::Result<Value>, Vec<Value>) {
    let ids = ids();
    let clock = tick();
    let tools = Tools::default();
    let env = Env::new(transport, &tools, &ids, &clock);
    let cfg = config(style);
    let req = TranslateRequest::from_json(&req, &Toolkit::default()).unwrap();
    let chunks = RefCell::new(Vec::new());
    let sink = |c: Value| chunks.borrow_mut().push(c);
    let out = futures_executor::block_on(translate(&cfg.provider, "", req, &env, if stream { Some(&sink) } else { None }));
    (out, chunks.into_inner())
}

#[test]
fn openai_upstream_is_a_near_passthrough() {
    let p = Scripted::new(vec![oa_calls(&[("c3", "get_weather", "{\"city\":\"Oslo\"}")])]);
    let (r, _) = go(Style::OpenAi, &p, request(), false);
    let r = r.unwrap();
    let body = &p.bodies()[0];
    assert_eq!(body["messages"][0], json!({"role": "system", "content": "Be brief."}), "an existing system message wins");
    assert_eq!(body["messages"][2]["tool_calls"][0]["function"]["arguments"], "{\"city\":\"Paris\"}", "object arguments accepted");
    assert_eq!((body["tool_choice"].clone(), body["max_tokens"].clone()), (json!("required"), json!(256)));
    assert_eq!(r["finishReason"], "tool_calls");
    assert_eq!(r["toolCalls"], json!([{"id": "c3", "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}]));
    assert_eq!(r["model"], "test-model");
    assert!(r["raw"]["choices"].is_array());
    let mut no_choice = request();
    no_choice.as_object_mut().unwrap().remove("toolChoice");
    let p = Scripted::new(vec![oa_text("hi")]);
    let (r, _) = go(Style::OpenAi, &p, no_choice, false);
    assert!(p.bodies()[0].get("tool_choice").is_none(), "no default auto");
    assert_eq!(r.unwrap()["finishReason"], "stop");
}

#[test]
fn anthropic_upstream_merges_results_and_maps_choices() {
    let p = Scripted::new(vec![an_calls(&[("tu", "get_weather", json!({"city": "Oslo"}))])]);
    let (r, _) = go(Style::Anthropic, &p, request(), false);
    let body = &p.bodies()[0];
    assert_eq!(body["system"], "Be brief.");
    let msgs = body["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 4, "user, assistant, one merged tool-result turn, user");
    assert_eq!(msgs[2]["content"].as_array().unwrap().len(), 2);
    assert_eq!(msgs[1]["content"][0]["input"], json!({"city": "Paris"}));
    assert_eq!((body["tool_choice"].clone(), body["max_tokens"].clone()), (json!({"type": "any"}), json!(256)));
    let r = r.unwrap();
    assert_eq!(r["toolCalls"][0]["arguments"], "{\"city\":\"Oslo\"}");
    assert_eq!(r["finishReason"], "tool_calls");
    let mut forced = request();
    forced["toolChoice"] = json!({"type": "function", "function": {"name": "get_weather"}});
    forced.as_object_mut().unwrap().remove("maxTokens");
    let p = Scripted::new(vec![an_text("ok")]);
    go(Style::Anthropic, &p, forced, false).0.unwrap();
    assert_eq!(p.bodies()[0]["tool_choice"], json!({"type": "tool", "name": "get_weather"}));
    assert_eq!(p.bodies()[0]["max_tokens"], 4096);
}

#[test]
fn gemini_upstream_gets_function_responses_and_a_tool_config() {
    let p = Scripted::new(vec![gm_text("Cloudy in Oslo.")]);
    let (r, _) = go(Style::Gemini, &p, request(), false);
    let body = &p.bodies()[0];
    assert_eq!(
        body["contents"][2]["parts"][1]["functionResponse"],
        json!({"id": "c2", "name": "get_weather", "response": {"output": "rainy"}})
    );
    assert_eq!(body["toolConfig"], json!({"functionCallingConfig": {"mode": "ANY"}}));
    assert_eq!(body["generationConfig"], json!({"maxOutputTokens": 256}));
    assert_eq!(body["systemInstruction"]["parts"][0]["text"], "Be brief.");
    let r = r.unwrap();
    assert_eq!((r["text"].clone(), r["finishReason"].clone()), (json!("Cloudy in Oslo."), json!("stop")));
}

#[test]
fn streamed_translation_yields_openai_chunks_from_every_upstream() {
    for (style, dir) in [(Style::OpenAi, "openai"), (Style::Anthropic, "anthropic"), (Style::Gemini, "gemini")] {
        let t = Chunked::default();
        t.push_split(&fixture_text(&format!("{dir}/stream_tool_calls.sse")), 50);
        let (r, chunks) = go(style, &t, request(), true);
        let r = r.unwrap();
        assert!(chunks.iter().all(|c| c["object"] == "chat.completion.chunk" && c["id"] == chunks[0]["id"]), "{dir}");
        assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
        let calls = chunks.iter().find(|c| c["choices"][0]["delta"]["tool_calls"].is_array()).expect("a tool_calls chunk");
        assert_eq!(calls["choices"][0]["delta"]["tool_calls"][1]["index"], 1);
        assert_eq!(calls["choices"][0]["delta"]["tool_calls"][1]["type"], "function");
        assert_eq!(calls["choices"][0]["delta"]["tool_calls"][1]["function"]["arguments"], r["toolCalls"][1]["arguments"]);
        let finish = &chunks[chunks.len() - 2];
        assert_eq!(finish["choices"][0]["finish_reason"], "tool_calls", "{dir}");
        assert!(chunks.last().unwrap()["usage"]["total_tokens"].as_u64().unwrap() > 0);
        let text: String = chunks.iter().filter_map(|c| c["choices"][0]["delta"]["content"].as_str()).collect();
        assert_eq!(text, r["text"].as_str().unwrap(), "{dir}");
    }
}

#[test]
fn calls_without_ids_get_ids_unique_in_the_conversation() {
    let p = Scripted::new(vec![gm_calls(&[("", "get_weather", json!({"city": "Oslo"})), ("", "get_weather", json!({"city": "Rome"}))])]);
    let (r, _) = go(Style::Gemini, &p, request(), false);
    let r = r.unwrap();
    assert_eq!(r["toolCalls"][0]["id"], "call_5_0", "5 neutral messages came in (the two results merge)");
    assert_eq!(r["toolCalls"][1]["id"], "call_5_1");
    let t = Chunked::default();
    t.push_split(&fixture_text("gemini/stream_tool_calls.sse"), 10);
    let (_, chunks) = go(Style::Gemini, &t, request(), true);
    let calls = chunks.iter().find(|c| c["choices"][0]["delta"]["tool_calls"].is_array()).unwrap();
    assert_eq!(calls["choices"][0]["delta"]["tool_calls"][0]["id"], "call_5_0");
}

#[test]
fn bad_requests_and_provider_failures_are_typed() {
    let p = Scripted::default();
    let bad = TranslateRequest::from_json(&json!({"messages": "hi"}), &Toolkit::default());
    assert_eq!(bad.err().unwrap().code(), "bad_input");
    p.push(500, "upstream broke".into());
    let (r, _) = go(Style::OpenAi, &p, request(), false);
    assert_eq!(r.unwrap_err().code(), "provider_http");
}

#[test]
fn hooks_fire_once_and_their_errors_propagate() {
    use futures_util::future::LocalBoxFuture;
    use toolnexus_wasm::hooks::{Hook, Hooks, LlmChange, ToolCtx, ToolVerdict};
    use toolnexus_wasm::tool::{ToolResult, ToolSpec};
    #[derive(Default)]
    struct Seen(RefCell<Vec<String>>, bool);
    impl Hooks for Seen {
        fn has(&self, h: Hook) -> bool {
            matches!(h, Hook::BeforeLlm | Hook::AfterLlm | Hook::BeforeTool)
        }
        fn before_llm(
            &self,
            m: Vec<Value>,
            _: &[ToolSpec],
            _: &str,
            turn: u32,
        ) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<LlmChange>>> {
            self.0.borrow_mut().push(format!("before {turn} {}", m.len()));
            Box::pin(async {
                Ok(Some(LlmChange { messages: Some(vec![json!({"role": "user", "content": "replaced"})]), tools: Some(vec![]) }))
            })
        }
        fn after_llm(&self, r: Value, _: &str, turn: u32) -> LocalBoxFuture<'_, toolnexus_wasm::Result<()>> {
            self.0.borrow_mut().push(format!("after {turn} {}", r["choices"].is_array()));
            let fail = self.1;
            Box::pin(async move {
                if fail {
                    Err(toolnexus_wasm::Error::new(toolnexus_wasm::Code::HostCallback, "nope"))
                } else {
                    Ok(())
                }
            })
        }
        fn before_tool(&self, _: ToolCtx<'_>) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<ToolVerdict>>> {
            self.0.borrow_mut().push("tool hook".into());
            Box::pin(async { Ok(None) })
        }
        fn after_tool(&self, _: ToolCtx<'_>, _: &ToolResult) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<ToolResult>>> {
            Box::pin(async { Ok(None) })
        }
        fn transform_body(&self, _: Value) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Option<Value>>> {
            Box::pin(async { Ok(None) })
        }
    }
    for fail in [false, true] {
        let hooks = Seen(RefCell::default(), fail);
        let p = Scripted::new(vec![oa_calls(&[("c9", "get_weather", "{}")])]);
        let ids = ids();
        let clock = tick();
        let tools = Tools::default();
        let env = Env { hooks: Some(&hooks), ..Env::new(&p, &tools, &ids, &clock) };
        let req = TranslateRequest::from_json(&request(), &Toolkit::default()).unwrap();
        let cfg = config(Style::OpenAi);
        let out = futures_executor::block_on(translate(&cfg.provider, &cfg.system_prompt, req, &env, None));
        assert_eq!(p.bodies()[0]["messages"].as_array().unwrap().len(), 2, "system + the replaced message");
        assert!(p.bodies()[0].get("tools").is_none(), "tools replaced by none");
        if fail {
            let e = out.unwrap_err();
            assert_eq!((e.code(), e.message.as_str()), ("host_callback", "afterLLM hook failed: nope"));
        } else {
            assert_eq!(out.unwrap()["finishReason"], "tool_calls", "nothing executes");
        }
        assert_eq!(*hooks.0.borrow(), ["before 0 6", "after 0 true"], "once each, tool hooks never");
    }
}

/// Body shaping for the shared-pipeline test: `bodyTransform` marks the body; `afterLLM` counts.
#[derive(Default)]
struct Shaping(RefCell<Vec<String>>);
impl toolnexus_wasm::hooks::Hooks for Shaping {
    fn has(&self, h: toolnexus_wasm::hooks::Hook) -> bool {
        matches!(h, toolnexus_wasm::hooks::Hook::BodyTransform | toolnexus_wasm::hooks::Hook::AfterLlm)
    }
    fn before_llm(
        &self,
        _: Vec<Value>,
        _: &[toolnexus_wasm::tool::ToolSpec],
        _: &str,
        _: u32,
    ) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<Option<toolnexus_wasm::hooks::LlmChange>>> {
        Box::pin(async { Ok(None) })
    }
    fn after_llm(&self, response: Value, model: &str, turn: u32) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<()>> {
        self.0.borrow_mut().push(format!("afterLLM {model} {turn} {}", response["usage"].is_object()));
        Box::pin(async { Ok(()) })
    }
    fn before_tool(
        &self,
        _: toolnexus_wasm::hooks::ToolCtx<'_>,
    ) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<Option<toolnexus_wasm::hooks::ToolVerdict>>> {
        Box::pin(async { Ok(None) })
    }
    fn after_tool(
        &self,
        _: toolnexus_wasm::hooks::ToolCtx<'_>,
        _: &toolnexus_wasm::tool::ToolResult,
    ) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<Option<toolnexus_wasm::tool::ToolResult>>> {
        Box::pin(async { Ok(None) })
    }
    fn transform_body(&self, mut body: Value) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Result<Option<Value>>> {
        body["user"] = json!("shaped");
        Box::pin(async { Ok(Some(body)) })
    }
}

/// A run's model call and a translation are the same call: the same requestParams and
/// bodyTransform on the body, the same retries, afterLLM once per call, one `llm` metric each
/// with the reply's tokens.
#[test]
fn translate_and_the_loop_share_one_model_call() {
    use toolnexus_wasm::driver::{drive, CallPolicy};
    use toolnexus_wasm::metrics::Metric;
    let policy = CallPolicy { retries: 1, request_params: json!({"temperature": 0.25}).as_object().cloned(), ..CallPolicy::SINGLE };
    let mut seen = Vec::new();
    for translating in [false, true] {
        let p = Scripted::default();
        p.push(503, "overloaded".into());
        p.push(200, oa_text("hello").to_string());
        let (ids, clock, tools) = (ids(), tick(), Tools::default());
        let (hooks, metrics) = (Shaping::default(), Recorder::default());
        let env = Env { hooks: Some(&hooks), observer: Some(&metrics), policy: &policy, ..Env::new(&p, &tools, &ids, &clock) };
        let text = if translating {
            let req = TranslateRequest::from_json(&json!({"messages": [{"role": "user", "content": "hi"}]}), &Toolkit::default()).unwrap();
            let out = futures_executor::block_on(translate(&config(Style::OpenAi).provider, "", req, &env, None)).unwrap();
            out["text"].clone()
        } else {
            let (run, step) = toolnexus_wasm::run::Run::start(config(Style::OpenAi), Toolkit::default(), vec![], "hi").unwrap();
            json!(futures_executor::block_on(drive(run, step, &env)).unwrap().text)
        };
        assert_eq!(text, "hello");
        let bodies = p.bodies();
        assert_eq!(bodies.len(), 2, "one retry after the 503");
        assert_eq!(
            (bodies[1]["temperature"].clone(), bodies[1]["user"].clone()),
            (json!(0.25), json!("shaped")),
            "params, then bodyTransform"
        );
        assert_eq!(*hooks.0.borrow(), ["afterLLM test-model 0 true"]);
        let llm: Vec<(&'static str, u64, u64)> = metrics
            .0
            .borrow()
            .iter()
            .filter_map(|m| match m {
                Metric::Llm { status, prompt_tokens, completion_tokens, .. } => Some((*status, *prompt_tokens, *completion_tokens)),
                _ => None,
            })
            .collect();
        assert_eq!(llm, [("ok", 20, 3)]);
        seen.push(bodies[1]["temperature"].clone());
    }
    assert_eq!(seen[0], seen[1]);
}

/// An aborted signal stops a translation before anything is sent, as it stops a run.
#[test]
fn an_aborted_translation_sends_nothing() {
    struct Aborted;
    impl toolnexus_wasm::driver::Abort for Aborted {
        fn aborted(&self) -> Option<toolnexus_wasm::Error> {
            Some(toolnexus_wasm::Error::new(toolnexus_wasm::Code::Aborted, "the run was aborted"))
        }
        fn wait(&self) -> futures_util::future::LocalBoxFuture<'_, toolnexus_wasm::Error> {
            Box::pin(async { toolnexus_wasm::Error::new(toolnexus_wasm::Code::Aborted, "the run was aborted") })
        }
    }
    let p = Scripted::new(vec![oa_text("never")]);
    let (ids, clock, tools) = (ids(), tick(), Tools::default());
    let env = Env { abort: Some(&Aborted), ..Env::new(&p, &tools, &ids, &clock) };
    let req = TranslateRequest::from_json(&json!({"messages": [{"role": "user", "content": "hi"}]}), &Toolkit::default()).unwrap();
    let e = futures_executor::block_on(translate(&config(Style::OpenAi).provider, "", req, &env, None)).unwrap_err();
    assert_eq!(e.code(), "aborted");
    assert!(p.requests.borrow().is_empty());
}

/// Gemini's thought signatures cross the OpenAI-compatible format as Gemini's own
/// OpenAI-compatible endpoint carries them: `extra_content.google.thought_signature` on a call,
/// out (whole and streamed) and back in, where they reach Gemini on the same parts.
#[test]
fn gemini_signatures_travel_as_extra_content_both_ways() {
    let signed = || {
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "c2lnLW9zbG8="},
            {"functionCall": {"name": "get_weather", "args": {"city": "Bergen"}}}
        ]}, "finishReason": "STOP"}]})
    };
    let p = Scripted::new(vec![signed()]);
    let (r, _) = go(Style::Gemini, &p, request(), false);
    let r = r.unwrap();
    assert_eq!(r["toolCalls"][0]["extra_content"], json!({"google": {"thought_signature": "c2lnLW9zbG8="}}));
    assert!(r["toolCalls"][1].get("extra_content").is_none(), "only the signed call carries one");
    assert_eq!((r["finishReason"].clone(), r["providerFinishReason"].clone()), (json!("tool_calls"), json!("STOP")));
    let t = Chunked::default();
    t.push_split(&format!("data: {}\n\n", signed()), 40);
    let (_, chunks) = go(Style::Gemini, &t, request(), true);
    let calls = chunks.iter().find_map(|c| c["choices"][0]["delta"]["tool_calls"].as_array().cloned()).unwrap();
    assert_eq!(calls[0]["extra_content"], json!({"google": {"thought_signature": "c2lnLW9zbG8="}}), "streamed too");

    // The caller sends the assistant message back as it got it: the signature reaches Gemini.
    let id = r["toolCalls"][0]["id"].as_str().unwrap().to_string();
    let mut back = request();
    let messages = back["messages"].as_array_mut().unwrap();
    messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": id, "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"},
         "extra_content": {"google": {"thought_signature": "c2lnLW9zbG8="}}}]}));
    messages.push(json!({"role": "tool", "tool_call_id": id, "content": "snow"}));
    let p =
        Scripted::new(vec![json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Snow."}]}, "finishReason": "STOP"}]})]);
    let (r, _) = go(Style::Gemini, &p, back, false);
    assert_eq!(r.unwrap()["text"], "Snow.");
    let contents = p.bodies()[0]["contents"].as_array().unwrap().clone();
    let call = contents.iter().rev().find(|c| c["role"] == "model").unwrap();
    assert_eq!(call["parts"][0]["thoughtSignature"], "c2lnLW9zbG8=");
    assert!(call.get("reasoningOrigin").is_none(), "the tag never reaches a provider");
}
