//! Test doubles for the driver's seams: a scripted transport that records every request, host
//! tools as closures, and a `waitFor` that measures how many waits are outstanding at once.
#![allow(dead_code)]

use futures_util::future::LocalBoxFuture;
use serde_json::{json, Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use toolnexus_wasm::driver::{drive, CallPolicy, Env, ToolExecutor, Transport, Waiter};
use toolnexus_wasm::metrics::{Metric, Observer};
use toolnexus_wasm::provider::{HttpRequest, HttpResponse, ProviderConfig, Style};
use toolnexus_wasm::run::{LoopConfig, ResumeInput, Run, RunResult};
use toolnexus_wasm::suspend::{Answer, IdGen, Request, ToolOutcome};
use toolnexus_wasm::tool::{default_relay_schema, default_schema, ToolResult, ToolSpec, Toolkit};
use toolnexus_wasm::Result;

pub fn fixture(path: &str) -> Value {
    let p = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))).unwrap()
}

#[derive(Default)]
pub struct Scripted {
    pub replies: RefCell<VecDeque<HttpResponse>>,
    pub requests: RefCell<Vec<HttpRequest>>,
}

impl Scripted {
    pub fn new(replies: Vec<Value>) -> Self {
        let s = Scripted::default();
        for r in replies {
            s.push(200, r.to_string());
        }
        s
    }
    pub fn push(&self, status: u16, body: String) {
        self.replies.borrow_mut().push_back(HttpResponse { status, body, retry_after: None });
    }
    pub fn bodies(&self) -> Vec<Value> {
        self.requests.borrow().iter().map(|r| r.json()).collect()
    }
}

impl Transport for Scripted {
    fn send<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        self.requests.borrow_mut().push(req.clone());
        let next = self.replies.borrow_mut().pop_front();
        Box::pin(async move { Ok(next.expect("the script ran out of provider replies")) })
    }
}

type ToolFn = Box<dyn Fn(&Map<String, Value>, Option<&Answer>) -> ToolResult>;

#[derive(Default)]
pub struct Tools {
    pub fns: Vec<(String, ToolFn)>,
    pub calls: RefCell<Vec<(String, Value, Option<Answer>)>>,
    /// Tools listed here finish after yielding this many times, to reorder completion.
    pub delays: Vec<(String, u32)>,
}

impl Tools {
    pub fn with(mut self, name: &str, f: impl Fn(&Map<String, Value>, Option<&Answer>) -> ToolResult + 'static) -> Self {
        self.fns.push((name.to_string(), Box::new(f)));
        self
    }
}

impl ToolExecutor for Tools {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        _id: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        Box::pin(async move {
            let delay = self.delays.iter().find(|(n, _)| n == name).map(|d| d.1).unwrap_or(0);
            for _ in 0..delay {
                YieldOnce(false).await;
            }
            self.calls.borrow_mut().push((name.to_string(), Value::Object(args.clone()), answer.cloned()));
            let f = &self.fns.iter().find(|(n, _)| n == name).expect("tool not scripted").1;
            // The closures return what a JS tool returns: `pending()` is the wire marker.
            Ok(ToolOutcome::from_result(f(args, answer)))
        })
    }
}

/// A future that is pending once, so concurrently started futures interleave.
pub struct YieldOnce(pub bool);
impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

pub struct Wait {
    pub answer: Box<dyn Fn(&Request) -> Answer>,
    pub seen: RefCell<Vec<Request>>,
    pub outstanding: Cell<usize>,
    pub max_outstanding: Cell<usize>,
}

impl Wait {
    pub fn new(answer: impl Fn(&Request) -> Answer + 'static) -> Rc<Wait> {
        Rc::new(Wait { answer: Box::new(answer), seen: RefCell::default(), outstanding: Cell::new(0), max_outstanding: Cell::new(0) })
    }
}

impl Waiter for Wait {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>> {
        Box::pin(async move {
            self.seen.borrow_mut().push(req.clone());
            self.outstanding.set(self.outstanding.get() + 1);
            self.max_outstanding.set(self.max_outstanding.get().max(self.outstanding.get()));
            YieldOnce(false).await;
            self.outstanding.set(self.outstanding.get() - 1);
            Ok(Some((self.answer)(&req)))
        })
    }
}

pub fn ok_answer(req: &Request, data: Value) -> Answer {
    Answer { id: req.id.clone(), ok: true, data: data.as_object().cloned(), reason: None }
}

pub fn config(style: Style) -> LoopConfig {
    LoopConfig {
        provider: ProviderConfig {
            base_url: "http://127.0.0.1:9/v1".into(),
            style,
            model: "test-model".into(),
            api_key: Some("sk-test-key".into()),
            headers: vec![],
        },
        system_prompt: "You are terse.".into(),
        max_turns: 10,
    }
}

/// Whole replies, one attempt (tests that retry say so: tests/retry.rs).
pub fn streaming(stream: bool) -> CallPolicy {
    CallPolicy { stream, ..CallPolicy::SINGLE }
}

pub fn native(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("the {name} tool"),
        input_schema: default_schema(),
        source: "native".into(),
        agent: None,
    }
}

pub fn relay(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("relay {name}"),
        input_schema: default_relay_schema(),
        source: "relay".into(),
        agent: None,
    }
}

pub fn ids() -> IdGen {
    let n = Cell::new(1_767_225_600_000u64);
    IdGen::new(Box::new(move || {
        n.set(n.get() + 1);
        n.get()
    }))
}

/// Collects metric events.
#[derive(Default)]
pub struct Recorder(pub RefCell<Vec<Metric>>);
impl Observer for Recorder {
    fn metric(&self, m: &Metric) {
        self.0.borrow_mut().push(m.clone());
    }
}

pub fn tick() -> impl Fn() -> f64 {
    let t = Cell::new(0.0);
    move || {
        t.set(t.get() + 1.0);
        t.get()
    }
}

/// Every result the harness returns also checks its JSON text: compact as serde_json writes it,
/// and holding the result's fields.
fn written_as_serde(r: Result<RunResult>) -> Result<RunResult> {
    if let Ok(r) = &r {
        let text = r.to_json();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        assert_eq!(v["text"], r.text.as_str());
        assert_eq!(v["messages"], Value::Array(r.messages()));
        assert_eq!(v["toolCallCount"], r.tool_call_count);
        assert_eq!(v["toolCalls"].as_array().map(Vec::len), Some(r.tool_calls.len()));
        assert_eq!(v["turns"], r.turns);
        assert_eq!(v["usage"]["totalTokens"], r.usage.total_tokens);
        assert_eq!(v.get("pending").is_some(), r.pending.is_some());
        assert_eq!(v.get("limit").and_then(Value::as_str), r.limit.as_deref());
    }
    r
}

pub fn run(
    style: Style,
    kit: Vec<ToolSpec>,
    provider: &Scripted,
    tools: &Tools,
    waiter: Option<&Wait>,
    history: &[Value],
    prompt: &str,
) -> Result<RunResult> {
    run_observed(style, kit, provider, tools, waiter, None, history, prompt)
}

#[allow(clippy::too_many_arguments)]
pub fn run_observed(
    style: Style,
    kit: Vec<ToolSpec>,
    provider: &Scripted,
    tools: &Tools,
    waiter: Option<&Wait>,
    observer: Option<&dyn Observer>,
    history: &[Value],
    prompt: &str,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let env = Env { waiter: waiter.map(|w| w as &dyn Waiter), observer, ..Env::new(provider, tools, &ids, &clock) };
    let (r, step) = Run::start(config(style), Toolkit::new(kit)?, toolnexus_wasm::dialect::read(history)?, prompt)?;
    written_as_serde(futures_executor::block_on(drive(r, step, &env)))
}

#[allow(clippy::too_many_arguments)]
pub fn resume(
    style: Style,
    kit: Vec<ToolSpec>,
    provider: &Scripted,
    tools: &Tools,
    waiter: Option<&Wait>,
    history: &[Value],
    pending: Request,
    answer: Answer,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let env = Env { waiter: waiter.map(|w| w as &dyn Waiter), ..Env::new(provider, tools, &ids, &clock) };
    let (r, step) = Run::resume(
        config(style),
        Toolkit::new(kit)?,
        ResumeInput { history: toolnexus_wasm::dialect::read(history)?, pending, answer, children: Vec::new() },
    )?;
    written_as_serde(futures_executor::block_on(drive(r, step, &env)))
}

/// OpenAI reply with tool calls `(id, name, raw arguments)`.
pub fn oa_calls(calls: &[(&str, &str, &str)]) -> Value {
    let tc: Vec<Value> =
        calls.iter().map(|(id, n, a)| json!({"id": id, "type": "function", "function": {"name": n, "arguments": a}})).collect();
    json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
           "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": tc}, "finish_reason": "tool_calls"}],
           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
}

pub fn oa_text(text: &str) -> Value {
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
           "usage": {"prompt_tokens": 20, "completion_tokens": 3, "total_tokens": 23}})
}

/// Anthropic reply with tool_use blocks `(id, name, input)`.
pub fn an_calls(calls: &[(&str, &str, Value)]) -> Value {
    let blocks: Vec<Value> = calls.iter().map(|(id, n, i)| json!({"type": "tool_use", "id": id, "name": n, "input": i})).collect();
    json!({"id": "msg_1", "type": "message", "role": "assistant", "content": blocks, "stop_reason": "tool_use",
           "usage": {"input_tokens": 10, "output_tokens": 5}})
}

pub fn an_text(text: &str) -> Value {
    json!({"id": "msg_2", "type": "message", "role": "assistant", "content": [{"type": "text", "text": text}],
           "stop_reason": "end_turn", "usage": {"input_tokens": 20, "output_tokens": 3}})
}

/// Whether every call in a rendered transcript has exactly one result.
pub fn balanced(messages: &[Value]) -> bool {
    let mut calls: Vec<String> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    for m in messages {
        if let Some(tc) = m["tool_calls"].as_array() {
            calls.extend(tc.iter().map(|c| c["id"].as_str().unwrap().to_string()));
        }
        if m["role"] == "tool" {
            results.push(m["tool_call_id"].as_str().unwrap().to_string());
        }
        for p in m["parts"].as_array().into_iter().flatten() {
            if let Some(id) = p["functionCall"]["id"].as_str() {
                calls.push(id.to_string());
            }
            if let Some(id) = p["functionResponse"]["id"].as_str() {
                results.push(id.to_string());
            }
        }
        if let Some(blocks) = m["content"].as_array() {
            for b in blocks {
                if b["type"] == "tool_use" {
                    calls.push(b["id"].as_str().unwrap().to_string());
                }
                if b["type"] == "tool_result" {
                    results.push(b["tool_use_id"].as_str().unwrap().to_string());
                }
            }
        }
    }
    calls.sort();
    results.sort();
    calls == results
}

pub fn fixture_text(path: &str) -> String {
    let p = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// A streaming provider: each reply is a list of body chunks, delivered one by one.
#[derive(Default)]
pub struct Chunked {
    pub replies: RefCell<VecDeque<(u16, Vec<Vec<u8>>)>>,
    pub requests: RefCell<Vec<HttpRequest>>,
}

impl Chunked {
    pub fn push(&self, status: u16, chunks: Vec<Vec<u8>>) {
        self.replies.borrow_mut().push_back((status, chunks));
    }
    pub fn push_split(&self, body: &str, cut: usize) {
        let b = body.as_bytes();
        self.push(200, vec![b[..cut].to_vec(), b[cut..].to_vec()]);
    }
}

struct Chunks(VecDeque<Vec<u8>>);
impl toolnexus_wasm::driver::ByteStream for Chunks {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        let c = self.0.pop_front();
        Box::pin(async move {
            YieldOnce(false).await;
            Ok(c)
        })
    }
}

impl Transport for Chunked {
    fn send<'a>(&'a self, _req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        panic!("a streaming run must open, not send")
    }
    fn open<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<toolnexus_wasm::driver::StreamResponse>> {
        self.requests.borrow_mut().push(req.clone());
        let (status, chunks) = self.replies.borrow_mut().pop_front().expect("the script ran out of streams");
        Box::pin(
            async move { Ok(toolnexus_wasm::driver::StreamResponse { status, body: Box::new(Chunks(chunks.into())), retry_after: None }) },
        )
    }
}

/// Records stream events (as JSON) and saved states.
#[derive(Default)]
pub struct Host {
    pub events: RefCell<Vec<Value>>,
    pub saves: RefCell<Vec<toolnexus_wasm::state::ConversationState>>,
}
impl toolnexus_wasm::events::EventSink for Host {
    fn event(&self, e: toolnexus_wasm::events::StreamEvent) {
        self.events.borrow_mut().push(serde_json::to_value(&e).unwrap());
    }
}
impl toolnexus_wasm::driver::Persist for Host {
    fn save(&self, state: toolnexus_wasm::state::ConversationState) -> LocalBoxFuture<'_, Result<()>> {
        self.saves.borrow_mut().push(state);
        Box::pin(async { Ok(()) })
    }
}
impl Host {
    pub fn kinds(&self) -> Vec<String> {
        self.events.borrow().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect()
    }
}

/// A run with every seam: streaming or not, events and saves recorded in `host`.
#[allow(clippy::too_many_arguments)]
pub fn run_full(
    style: Style,
    stream: bool,
    kit: Vec<ToolSpec>,
    transport: &dyn Transport,
    tools: &Tools,
    waiter: Option<&dyn Waiter>,
    host: &Host,
    history: Vec<toolnexus_wasm::message::Message>,
    prompt: &str,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let policy = streaming(stream);
    let env = Env { waiter, events: Some(host), persist: Some(host), policy: &policy, ..Env::new(transport, tools, &ids, &clock) };
    let (r, step) = Run::start(config(style), Toolkit::new(kit)?, history, prompt)?;
    written_as_serde(futures_executor::block_on(drive(r, step, &env)))
}

#[allow(clippy::too_many_arguments)]
pub fn resume_full(
    style: Style,
    stream: bool,
    kit: Vec<ToolSpec>,
    transport: &dyn Transport,
    tools: &Tools,
    host: &Host,
    history: Vec<toolnexus_wasm::message::Message>,
    pending: Request,
    answer: Answer,
) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let policy = streaming(stream);
    let env = Env { events: Some(host), persist: Some(host), policy: &policy, ..Env::new(transport, tools, &ids, &clock) };
    let (r, step) = Run::resume(config(style), Toolkit::new(kit)?, ResumeInput { history, pending, answer, children: Vec::new() })?;
    written_as_serde(futures_executor::block_on(drive(r, step, &env)))
}

pub const STYLES: [Style; 3] = [Style::OpenAi, Style::Anthropic, Style::Gemini];

/// Gemini reply with functionCall parts `(id, name, args)`; an empty id is left out, as Gemini
/// often does.
pub fn gm_calls(calls: &[(&str, &str, Value)]) -> Value {
    let parts: Vec<Value> = calls
        .iter()
        .map(|(id, n, a)| {
            if id.is_empty() {
                json!({"functionCall": {"name": n, "args": a}})
            } else {
                json!({"functionCall": {"id": id, "name": n, "args": a}})
            }
        })
        .collect();
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
           "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}, "modelVersion": "gemini-2.5-flash"})
}

pub fn gm_text(text: &str) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
           "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 3, "totalTokenCount": 23}})
}

/// A reply with these calls in the style's wire format.
pub fn calls_in(style: Style, calls: &[(&str, &str, Value)]) -> Value {
    match style {
        Style::OpenAi => {
            let raw: Vec<(String, String, String)> = calls.iter().map(|(i, n, a)| (i.to_string(), n.to_string(), a.to_string())).collect();
            let refs: Vec<(&str, &str, &str)> = raw.iter().map(|(i, n, a)| (i.as_str(), n.as_str(), a.as_str())).collect();
            oa_calls(&refs)
        }
        Style::Anthropic => an_calls(calls),
        Style::Gemini => gm_calls(calls),
        Style::Responses => rs_calls(calls),
    }
}

pub fn text_in(style: Style, t: &str) -> Value {
    match style {
        Style::OpenAi => oa_text(t),
        Style::Anthropic => an_text(t),
        Style::Gemini => gm_text(t),
        Style::Responses => rs_text(t),
    }
}

/// The transcript a request body carries: `messages`, or Gemini's `contents`.
pub fn msgs_of(body: &Value) -> Value {
    if body.get("contents").is_some() {
        body["contents"].clone()
    } else {
        body["messages"].clone()
    }
}

/// A backoff sleep that returns at once and records how long it was asked to wait.
#[derive(Default)]
pub struct Sleeps(pub RefCell<Vec<f64>>);

impl toolnexus_wasm::driver::Sleep for Sleeps {
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        self.0.borrow_mut().push(ms);
        Box::pin(async {})
    }
}

/// Responses reply with function_call items `(call_id, name, args)` (arguments serialised).
pub fn rs_calls(calls: &[(&str, &str, Value)]) -> Value {
    let output: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (id, n, a))| {
            json!({"type": "function_call", "id": format!("fc_{i}"), "call_id": id, "name": n, "arguments": a.to_string(), "status": "completed"})
        })
        .collect();
    json!({"id": "resp_1", "object": "response", "status": "completed", "error": null, "incomplete_details": null, "model": "test-model",
           "output": output, "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}})
}

pub fn rs_text(text: &str) -> Value {
    json!({"id": "resp_2", "object": "response", "status": "completed", "error": null, "incomplete_details": null, "model": "test-model",
           "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": text, "annotations": []}]}],
           "usage": {"input_tokens": 20, "output_tokens": 3, "total_tokens": 23}})
}
