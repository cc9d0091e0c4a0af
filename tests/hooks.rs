//! The four hooks, requestParams and bodyTransform (contract §a.8, §b.5 step 3, §c.1 path B).

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use toolnexus_wasm::driver::{drive, CallPolicy, Env, Waiter};
use toolnexus_wasm::hooks::{Hook, Hooks, LlmChange, ToolCtx, ToolVerdict};
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{Run, RunResult};
use toolnexus_wasm::suspend::{pending_result, Request, ToolOutcome};
use toolnexus_wasm::tool::{ToolResult, ToolSpec, Toolkit};
use toolnexus_wasm::{Code, Error, Result};

type BeforeLlmFn = Box<dyn Fn(&[Value], u32) -> Option<LlmChange>>;
type BeforeToolFn = Box<dyn Fn(&ToolCtx) -> Option<ToolVerdict>>;
type AfterToolFn = Box<dyn Fn(&ToolCtx, &ToolResult) -> Option<ToolResult>>;
type TransformFn = Box<dyn Fn(Value) -> Option<Value>>;

#[derive(Default)]
struct Recorded {
    log: RefCell<Vec<String>>,
    before_llm: Option<BeforeLlmFn>,
    before_tool: Option<BeforeToolFn>,
    after_tool: Option<AfterToolFn>,
    transform: Option<TransformFn>,
    fail_after_llm: bool,
}

impl Hooks for Recorded {
    fn has(&self, hook: Hook) -> bool {
        match hook {
            Hook::BeforeLlm => self.before_llm.is_some(),
            Hook::AfterLlm => true,
            Hook::BeforeTool => self.before_tool.is_some(),
            Hook::AfterTool => self.after_tool.is_some(),
            Hook::BodyTransform => self.transform.is_some(),
        }
    }
    fn before_llm(
        &self,
        messages: Vec<Value>,
        _tools: &[ToolSpec],
        _model: &str,
        turn: u32,
    ) -> LocalBoxFuture<'_, Result<Option<LlmChange>>> {
        self.log.borrow_mut().push(format!("beforeLLM {turn} {}", messages.len()));
        let r = self.before_llm.as_ref().and_then(|f| f(&messages, turn));
        Box::pin(async move { Ok(r) })
    }
    fn after_llm(&self, response: Value, _model: &str, turn: u32) -> LocalBoxFuture<'_, Result<()>> {
        self.log.borrow_mut().push(format!("afterLLM {turn} {}", response.get("streamed").is_some() || response.get("choices").is_some()));
        let fail = self.fail_after_llm;
        Box::pin(async move {
            if fail {
                Err(Error::new(Code::HostCallback, "audit log down"))
            } else {
                Ok(())
            }
        })
    }
    fn before_tool(&self, ctx: ToolCtx<'_>) -> LocalBoxFuture<'_, Result<Option<ToolVerdict>>> {
        self.log.borrow_mut().push(format!("beforeTool {} {}", ctx.name, Value::Object(ctx.args.clone())));
        let r = self.before_tool.as_ref().and_then(|f| f(&ctx));
        Box::pin(async move { Ok(r) })
    }
    fn after_tool(&self, ctx: ToolCtx<'_>, result: &ToolResult) -> LocalBoxFuture<'_, Result<Option<ToolResult>>> {
        self.log.borrow_mut().push(format!("afterTool {} {}", ctx.name, result.output));
        let r = self.after_tool.as_ref().and_then(|f| f(&ctx, result));
        Box::pin(async move { Ok(r) })
    }
    fn transform_body(&self, body: Value) -> LocalBoxFuture<'_, Result<Option<Value>>> {
        let r = self.transform.as_ref().and_then(|f| f(body));
        Box::pin(async move { Ok(r) })
    }
}

fn go(
    hooks: &Recorded,
    params: Option<Value>,
    p: &Scripted,
    tools: &Tools,
    kit: Vec<ToolSpec>,
    waiter: Option<&dyn Waiter>,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let policy = CallPolicy { request_params: params.and_then(|v| v.as_object().cloned()), ..CallPolicy::SINGLE };
    let env = Env { hooks: Some(hooks), waiter, policy: &policy, ..Env::new(p, tools, &ids, &clock) };
    let cfg = config(Style::OpenAi);
    let history = toolnexus_wasm::dialect::read(&[
        json!({"role": "user", "content": "old question"}),
        json!({"role": "assistant", "content": "old answer"}),
    ])?;
    let (r, step) = Run::start(cfg, Toolkit::new(kit)?, history, "now")?;
    futures_executor::block_on(drive(r, step, &env))
}

#[test]
fn before_llm_replaces_messages_and_tools_then_params_then_body_transform() {
    let hooks = Recorded {
        before_llm: Some(Box::new(|messages, turn| {
            (turn == 0).then(|| LlmChange {
                messages: Some(messages[messages.len() - 1..].to_vec()), // drop the old history
                tools: Some(vec![ToolSpec {
                    name: "add".into(),
                    description: "renamed description".into(),
                    input_schema: json!({"type": "object"}),
                    source: "native".into(),
                    agent: None,
                }]),
            })
        })),
        transform: Some(Box::new(|mut body| {
            body["metadata"] = json!({"seen_max_tokens": body["max_tokens"].clone()});
            Some(body)
        })),
        ..Recorded::default()
    };
    let p = Scripted::new(vec![oa_calls(&[("c1", "add", "{}")]), oa_text("done")]);
    let tools = Tools::default().with("add", |_, _| ToolResult::ok("2"));
    let params = json!({"max_tokens": 77, "temperature": 0, "messages": [], "stream": true});
    go(&hooks, Some(params), &p, &tools, vec![native("add"), native("other")], None).unwrap();
    let first = &p.bodies()[0];
    assert_eq!(first["messages"], json!([{"role": "user", "content": "now"}]));
    assert_eq!(first["tools"].as_array().unwrap().len(), 1);
    assert_eq!(first["tools"][0]["function"]["description"], "renamed description");
    assert_eq!((first["max_tokens"].clone(), first["temperature"].clone(), first.get("stream")), (json!(77), json!(0), None));
    assert_eq!(first["metadata"]["seen_max_tokens"], 77, "bodyTransform runs last");
    let second = &p.bodies()[1];
    assert_eq!(second["messages"].as_array().unwrap().len(), 3, "the replacement persists for later turns");
    assert_eq!(second["tools"].as_array().unwrap().len(), 1);
    let log = hooks.log.borrow();
    assert_eq!(log.iter().filter(|l| l.starts_with("afterLLM")).count(), 2);
    assert!(log.contains(&"afterLLM 0 true".to_string()));
}

#[test]
fn before_tool_short_circuits_or_rewrites_and_after_tool_replaces() {
    let hooks = Recorded {
        before_tool: Some(Box::new(|ctx| match ctx.name {
            "deny" => Some(ToolVerdict::Result(ToolOutcome::Result(ToolResult::error("denied by policy")))),
            "add" => Some(ToolVerdict::Args(json!({"a": 40}).as_object().unwrap().clone())),
            _ => None,
        })),
        after_tool: Some(Box::new(|ctx, r| (ctx.name == "add").then(|| ToolResult::ok(format!("[{}]", r.output))))),
        ..Recorded::default()
    };
    let p = Scripted::new(vec![oa_calls(&[("c1", "add", "{\"a\":1}"), ("c2", "deny", "{}")]), oa_text("ok")]);
    let tools = Tools::default()
        .with("add", |a: &Map<String, Value>, _| ToolResult::ok((a["a"].as_i64().unwrap() + 2).to_string()))
        .with("deny", |_, _| panic!("a short-circuited tool never runs"));
    let r = go(&hooks, None, &p, &tools, vec![native("add"), native("deny")], None).unwrap();
    assert_eq!(r.tool_calls[0].output, "[42]");
    assert_eq!(r.tool_calls[0].args, json!({"a": 40}), "toolCalls records the args actually used");
    assert_eq!(r.tool_calls[1].output, "denied by policy");
    let log = hooks.log.borrow();
    assert!(!log.iter().any(|l| l.starts_with("afterTool deny")), "no afterTool after a short-circuit");
}

#[test]
fn before_tool_may_raise_a_suspension_and_after_tool_never_sees_one() {
    let g = ids();
    let hooks = Recorded {
        before_tool: Some(Box::new(move |ctx| {
            (ctx.name == "pay").then(|| {
                ToolVerdict::Result(ToolOutcome::from_result(pending_result(
                    Request { kind: "approval".into(), prompt: "Pay?".into(), ..Request::default() },
                    &g,
                )))
            })
        })),
        after_tool: Some(Box::new(|_, _| None)),
        ..Recorded::default()
    };
    let p = Scripted::new(vec![oa_calls(&[("c1", "pay", "{}")]), oa_text("paid")]);
    let tools = Tools::default().with("pay", |_, a| ToolResult::ok(format!("paid with answer {}", a.is_some())));
    let w = Wait::new(|r| ok_answer(r, json!({})));
    let r = go(&hooks, None, &p, &tools, vec![native("pay")], Some(&*w)).unwrap();
    assert_eq!(w.seen.borrow()[0].kind, "approval");
    assert_eq!(r.tool_calls[0].output, "paid with answer true", "the real tool runs once, with ctx.answer");
    let log = hooks.log.borrow();
    assert_eq!(log.iter().filter(|l| l.starts_with("afterTool")).cloned().collect::<Vec<_>>(), ["afterTool pay paid with answer true"]);
}

#[test]
fn a_failing_hook_stops_the_run() {
    let hooks = Recorded { fail_after_llm: true, ..Recorded::default() };
    let p = Scripted::new(vec![oa_text("x")]);
    let e = go(&hooks, None, &p, &Tools::default(), vec![], None).unwrap_err();
    assert_eq!(e.code(), "host_callback");
    assert_eq!(e.message, "afterLLM hook failed: audit log down");
}

/// "custom" is an ordinary source: a declared tool with it is a host tool like any other, so
/// `beforeTool` can repair its invalid arguments and it runs. Only a call to an undeclared tool
/// stays unknown, whatever `beforeTool` returns. Metrics label both with source "custom"; the
/// undeclared one's tool label is "unknown" (a model's invented names are not series).
#[test]
fn before_tool_repairs_the_arguments_of_a_tool_declared_with_source_custom() {
    let hooks = Recorded {
        before_tool: Some(Box::new(|_| Some(ToolVerdict::Args(json!({"q": "mug"}).as_object().unwrap().clone())))),
        ..Recorded::default()
    };
    let p = Scripted::new(vec![oa_calls(&[("c1", "search", "{oops"), ("c2", "ghost", "{}")]), oa_text("found")]);
    let tools = Tools::default().with("search", |a, _| ToolResult::ok(format!("results for {}", a["q"])));
    let mut custom = native("search");
    custom.source = "custom".into();
    let ids = ids();
    let clock = tick();
    let metrics = Recorder::default();
    let env = Env { hooks: Some(&hooks), observer: Some(&metrics), ..Env::new(&p, &tools, &ids, &clock) };
    let (r, step) = Run::start(config(Style::OpenAi), Toolkit::new(vec![custom]).unwrap(), vec![], "find a mug").unwrap();
    let r = futures_executor::block_on(drive(r, step, &env)).unwrap();
    assert_eq!(tools.calls.borrow().len(), 1, "the custom-source tool ran, with the repaired arguments");
    assert_eq!((r.tool_calls[0].output.as_str(), r.tool_calls[0].is_error), ("results for \"mug\"", false));
    assert_eq!(r.tool_calls[0].args, json!({"q": "mug"}));
    assert_eq!((r.tool_calls[1].output.as_str(), r.tool_calls[1].is_error), ("Unknown tool: ghost", true), "an unknown tool stays unknown");
    let sources: Vec<(String, String, bool)> = metrics
        .0
        .borrow()
        .iter()
        .filter_map(|m| match m {
            toolnexus_wasm::metrics::Metric::Tool { tool, source, is_error, .. } => Some((tool.clone(), source.clone(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(sources, [("search".to_string(), "custom".to_string(), false), ("unknown".to_string(), "custom".to_string(), true)]);
}
