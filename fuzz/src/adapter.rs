//! Every contact the loop targets have with the core's run API (config, start, resume, the
//! driver's seams) is in this file, so an API change costs one small edit here. The rest of the
//! fuzz crate speaks only in results, messages, requests and answers.

use futures_util::future::LocalBoxFuture;
use serde_json::{json, Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use toolnexus_wasm::driver::{drive, Env, Persist, ToolExecutor, Transport, Waiter};
use toolnexus_wasm::message::Message;
use toolnexus_wasm::provider::{HttpRequest, HttpResponse, ProviderConfig, Style};
use toolnexus_wasm::run::{LoopConfig, ResumeInput, Run, RunResult, Step};
use toolnexus_wasm::state::ConversationState;
use toolnexus_wasm::suspend::{auth_required, pending_result, Answer, IdGen, Request, ToolOutcome};
use toolnexus_wasm::tool::{default_relay_schema, default_schema, ToolResult, ToolSource, ToolSpec, Toolkit};
use toolnexus_wasm::Result;

pub const SECRET: &str = "sk-fuzz-key";

pub fn provider(style: Style) -> ProviderConfig {
    ProviderConfig {
        base_url: "http://127.0.0.1:9/v1".into(),
        style,
        model: "fuzz-model".into(),
        api_key: Some(SECRET.into()),
        headers: vec![],
    }
}

/// The machine's settings; calls follow the driver's default policy (whole replies, one attempt).
fn config(style: Style, max_turns: u32) -> LoopConfig {
    LoopConfig { provider: provider(style), system_prompt: "You are terse.".into(), max_turns }
}

/// The tools every loop run declares: `lookup` answers, `auth` suspends for authorization until it
/// is re-run with an answer (or always, when its arguments say `"again": true`), `click` is a
/// relay tool (the host executes it).
fn toolkit() -> Toolkit {
    let native = |n: &str| ToolSpec {
        name: n.into(),
        description: format!("the {n} tool"),
        input_schema: default_schema(),
        source: ToolSource::Native,
        agent: None,
    };
    let relay = ToolSpec {
        name: "click".into(),
        description: "relay click".into(),
        input_schema: default_relay_schema(),
        source: ToolSource::Relay,
        agent: None,
    };
    Toolkit::new(vec![native("lookup"), native("auth"), relay]).expect("a valid toolkit")
}

pub fn answer(id: &str, ok: bool, data: Option<Map<String, Value>>) -> Answer {
    Answer { id: id.into(), ok, data, reason: (!ok).then(|| "declined".into()) }
}

/// The first loop step after one reply: the ids the machine gave that reply's calls.
pub fn first_turn_call_ids(style: Style, resp: &HttpResponse) -> Result<Vec<String>> {
    let (mut run, _) = Run::start(config(style, 3), toolkit(), vec![], "hi")?;
    Ok(match run.on_model_response(resp)? {
        Step::RunTools(inv) => inv.into_iter().map(|i| i.call.id).collect(),
        _ => Vec::new(),
    })
}

/// How an in-process `waitFor` answers, when there is one.
#[derive(Clone, Copy, Debug)]
pub struct WaitPlan {
    /// `None`: `waitFor` settles with no answer at all (a decline by the core's rule).
    pub ok: Option<bool>,
    /// Relay requests are answered with the single-call shorthand instead of results by id.
    pub shorthand: bool,
}

/// The scripted world one run (and its resumes) happen in: model replies in order (a final text
/// once they run out), the host tools, an optional `waitFor`, and a store that records saves.
pub struct World {
    pub replies: RefCell<VecDeque<HttpResponse>>,
    pub fallback: HttpResponse,
    pub requests: Cell<usize>,
    pub saves: RefCell<Vec<ConversationState>>,
    pub wait: Option<WaitPlan>,
    tool_ids: IdGen,
}

impl World {
    pub fn new(replies: Vec<HttpResponse>, fallback: HttpResponse, wait: Option<WaitPlan>) -> Self {
        let t = Cell::new(2_000_000_000_000u64);
        World {
            replies: RefCell::new(replies.into()),
            fallback,
            requests: Cell::new(0),
            saves: RefCell::default(),
            wait,
            // Host-made request ids come from a different clock than the core's, as in a real host.
            tool_ids: IdGen::new(Box::new(move || {
                t.set(t.get() + 7);
                t.get()
            })),
        }
    }
}

impl Transport for World {
    fn send<'a>(&'a self, _req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        self.requests.set(self.requests.get() + 1);
        let next = self.replies.borrow_mut().pop_front().unwrap_or_else(|| self.fallback.clone());
        Box::pin(async move { Ok(next) })
    }
}

impl ToolExecutor for World {
    fn execute<'a>(
        &'a self,
        name: &'a str,
        _id: &'a str,
        args: &'a Map<String, Value>,
        answer: Option<&'a Answer>,
    ) -> LocalBoxFuture<'a, Result<ToolOutcome>> {
        Box::pin(async move {
            // What a JS tool returns; `pending()` is its wire marker, decoded as the edge does.
            let returned = match name {
                "auth" if answer.is_none() || args.get("again") == Some(&Value::Bool(true)) => {
                    pending_result(auth_required("https://login.example", None), &self.tool_ids)
                }
                "auth" => ToolResult::ok("authorized"),
                "lookup" => ToolResult::ok(format!("found {}", Value::Object(args.clone()))),
                other => ToolResult::error(format!("the host has no tool {other}")),
            };
            Ok(ToolOutcome::from_result(returned))
        })
    }
}

impl Waiter for World {
    fn wait(&self, req: Request) -> LocalBoxFuture<'_, Result<Option<Answer>>> {
        let plan = self.wait.unwrap_or(WaitPlan { ok: None, shorthand: false });
        Box::pin(async move {
            let data = if req.is_relay() {
                if plan.shorthand {
                    json!({"output": "clicked"})
                } else {
                    json!({"results": req.relay_calls().iter().map(|c| json!({"id": c.id, "output": "clicked"})).collect::<Vec<_>>()})
                }
            } else {
                json!({"code": 7})
            };
            Ok(plan.ok.map(|ok| answer(&req.id, ok, data.as_object().cloned())))
        })
    }
}

impl Persist for World {
    fn save(&self, state: ConversationState) -> LocalBoxFuture<'_, Result<()>> {
        self.saves.borrow_mut().push(state);
        Box::pin(async { Ok(()) })
    }
}

fn core_ids() -> IdGen {
    let t = Cell::new(1_767_225_600_000u64);
    IdGen::new(Box::new(move || {
        t.set(t.get() + 1);
        t.get()
    }))
}

fn go(world: &World, run: Result<(Run, Step)>) -> Result<RunResult> {
    let (run, step) = run?;
    let ids = core_ids();
    let clock = || 0.0;
    let env =
        Env { waiter: world.wait.is_some().then_some(world as &dyn Waiter), persist: Some(world), ..Env::new(world, world, &ids, &clock) };
    futures_executor::block_on(drive(run, step, &env))
}

pub fn start(world: &World, style: Style, max_turns: u32, history: Vec<Message>, prompt: &str) -> Result<RunResult> {
    go(world, Run::start(config(style, max_turns), toolkit(), history, prompt))
}

pub fn resume(world: &World, style: Style, max_turns: u32, history: Vec<Message>, pending: Request, answer: Answer) -> Result<RunResult> {
    go(world, Run::resume(config(style, max_turns), toolkit(), ResumeInput { history, pending, answer, children: Vec::new() }))
}

/// A resume in a world whose model only ever answers with text.
pub fn resume_to_end(style: Style, history: Vec<Message>, pending: Request, answer: Answer) -> Result<RunResult> {
    let world = World::new(vec![], final_text(style, "done"), None);
    resume(&world, style, 4, history, pending, answer)
}

/// A final text reply in the style's wire format.
pub fn final_text(style: Style, text: &str) -> HttpResponse {
    let body = match style {
        Style::OpenAi => {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                                "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3}})
        }
        Style::Anthropic => {
            json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                                   "usage": {"input_tokens": 2, "output_tokens": 1}})
        }
        Style::Gemini => {
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
                                "usageMetadata": {"promptTokenCount": 2, "candidatesTokenCount": 1, "totalTokenCount": 3}})
        }
        Style::Responses => {
            json!({"status": "completed", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}],
                   "usage": {"input_tokens": 2, "output_tokens": 1, "total_tokens": 3}})
        }
    };
    HttpResponse { status: 200, body: body.to_string(), retry_after: None }
}
