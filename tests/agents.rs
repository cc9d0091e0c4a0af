//! Agents made of agents (`source: "agent"`): a child's suspensions are the root's, a halted
//! tree goes through JSON, and a resume continues the child that asked, from its checkpoint.

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use toolnexus_wasm::driver::{drive, Env, Transport, Waiter};
use toolnexus_wasm::provider::{HttpRequest, HttpResponse, Style};
use toolnexus_wasm::run::{ResumeInput, Run, RunResult, Status};
use toolnexus_wasm::state;
use toolnexus_wasm::state::Child;
use toolnexus_wasm::suspend::{pending_result, relay_answer, Answer, RelayResult, Request};
use toolnexus_wasm::tool::AgentSpec;
use toolnexus_wasm::tool::{ToolResult, ToolSpec, Toolkit};
use toolnexus_wasm::Result;

/// Replies by agent: each request goes to the script of the agent whose system prompt it
/// carries, so concurrent children get their own replies whatever the order they call in.
#[derive(Default)]
struct Routed {
    scripts: RefCell<HashMap<String, Vec<Value>>>,
    seen: RefCell<Vec<(String, Value)>>,
}

impl Routed {
    fn script(self, agent: &str, replies: Vec<Value>) -> Self {
        self.scripts.borrow_mut().insert(agent.into(), replies);
        self
    }
    /// The bodies one agent's model was sent, in order.
    fn sent(&self, agent: &str) -> Vec<Value> {
        self.seen.borrow().iter().filter(|(a, _)| a == agent).map(|(_, b)| b.clone()).collect()
    }
}

impl Transport for Routed {
    fn send<'a>(&'a self, req: &'a HttpRequest) -> LocalBoxFuture<'a, Result<HttpResponse>> {
        let body = req.json();
        let agent = body["messages"][0]["content"].as_str().unwrap().to_string();
        self.seen.borrow_mut().push((agent.clone(), body));
        let mut scripts = self.scripts.borrow_mut();
        let queue = scripts.get_mut(&agent).unwrap_or_else(|| panic!("no script for {agent}"));
        assert!(!queue.is_empty(), "{agent} called its model more often than scripted");
        let reply = queue.remove(0);
        Box::pin(async move { Ok(HttpResponse { status: 200, body: reply.to_string(), retry_after: None }) })
    }
}

fn agent(name: &str, tools: Vec<ToolSpec>) -> ToolSpec {
    let spec = AgentSpec {
        system_prompt: name.into(),
        tools: Toolkit::new(tools).unwrap(),
        max_turns: None,
        model: None,
        style: None,
        base_url: None,
    };
    ToolSpec {
        name: name.into(),
        description: format!("the {name} agent"),
        input_schema: serde_json::json!({ "type": "object", "properties": { "prompt": { "type": "string" } }, "required": ["prompt"] }),
        source: "agent".into(),
        agent: Some(Rc::new(spec)),
    }
}

/// `publish` asks for approval first (as `needsApproval` does) and runs once it is given.
fn tools() -> Tools {
    // Its own ids, as a host's `pending()` makes them: not the loop's sequence.
    let ids = toolnexus_wasm::suspend::IdGen::new(Box::new(|| 42));
    Tools::default().with("review/publish", move |_, answer| match answer {
        None => pending_result(Request { kind: "approval".into(), prompt: "approval to run publish".into(), ..Request::default() }, &ids),
        Some(a) if a.ok => ToolResult::ok("published"),
        Some(_) => ToolResult::error("not approved"),
    })
}

fn root_kit() -> Vec<ToolSpec> {
    vec![agent("browse", vec![relay("click")]), agent("review", vec![native("publish")])]
}

fn script() -> Routed {
    Routed::default()
        .script(
            "root",
            vec![
                oa_calls(&[("d1", "browse", r#"{"prompt":"open the page"}"#), ("d2", "review", r#"{"prompt":"check it"}"#)]),
                oa_text("all done"),
            ],
        )
        .script("browse", vec![oa_calls(&[("c1", "click", r##"{"s":"#a"}"##), ("c2", "click", r##"{"s":"#b"}"##)]), oa_text("browsed")])
        .script("review", vec![oa_calls(&[("p1", "publish", "{}")]), oa_text("reviewed")])
}

fn root_config() -> toolnexus_wasm::run::LoopConfig {
    let mut cfg = config(Style::OpenAi);
    cfg.system_prompt = "root".into();
    cfg
}

fn start(p: &Routed, tools: &Tools, waiter: Option<&dyn Waiter>) -> Result<RunResult> {
    let ids = ids();
    let clock = tick();
    let env = Env { waiter, ..Env::new(p, tools, &ids, &clock) };
    let (r, step) = Run::start(root_config(), Toolkit::new(root_kit())?, vec![], "publish the page")?;
    futures_executor::block_on(drive(r, step, &env))
}

/// A fresh process: only the JSON text of the halted result survives.
fn resume_from(text: &str, answer: Answer, p: &Routed, tools: &Tools) -> Result<RunResult> {
    let halted = state::load(&serde_json::from_str(text).unwrap())?;
    let ids = ids();
    let clock = tick();
    let env = Env::new(p, tools, &ids, &clock);
    let input = ResumeInput {
        history: toolnexus_wasm::dialect::read(&halted.messages)?,
        pending: halted.pending,
        answer,
        children: halted.children,
    };
    let (r, step) = Run::resume(root_config(), Toolkit::new(root_kit())?, input)?;
    futures_executor::block_on(drive(r, step, &env))
}

/// Answers the child's relay calls (both in a durable halt; one at a time under `waitFor`).
fn clicks(req: &Request) -> Answer {
    let results = req
        .relay_calls()
        .into_iter()
        .map(|c| {
            assert_eq!(c.name, "click", "the child's own relay call, never the delegate call");
            RelayResult { output: format!("clicked {}", c.input["s"].as_str().unwrap()), id: c.id, is_error: false, parts: vec![] }
        })
        .collect();
    relay_answer(&req.id, results)
}

fn approve(req: &Request) -> Answer {
    assert_eq!(req.kind, "approval");
    Answer { id: req.id.clone(), ok: true, data: None, reason: None }
}

/// Every request a child and its own children are halted on, as its parent surfaces them.
fn requests(c: &Child) -> Vec<Request> {
    let mut out: Vec<Request> = c.state.pending.iter().map(|p| p.clone().surfaced(&c.agent, &c.call_id)).collect();
    for r in c.state.children.iter().flat_map(requests) {
        if !out.iter().any(|o| o.id == r.id) {
            out.push(r.surfaced(&c.agent, &c.call_id));
        }
    }
    out
}

fn requests_of(r: &RunResult) -> Vec<Request> {
    r.children.iter().flat_map(requests).collect()
}

/// Each child's model saw one prompt and a transcript that only grew.
fn never_restarted(p: &Routed, agent: &str) {
    let sent = p.sent(agent);
    assert_eq!(sent.len(), 2, "{agent}: two model calls in all");
    for body in &sent {
        let users = body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "user").count();
        assert_eq!(users, 1, "{agent}: one prompt, never a second start");
    }
    let first = sent[0]["messages"].as_array().unwrap();
    let second = sent[1]["messages"].as_array().unwrap();
    assert_eq!(&second[..first.len()], &first[..], "{agent}: the transcript goes on from its checkpoint");
    assert!(balanced(second));
}

#[test]
fn two_children_halt_the_root_with_their_own_suspensions_and_resume_in_either_order() {
    for order in [["browse", "review"], ["review", "browse"]] {
        let p = script();
        let tools = tools();
        let r = start(&p, &tools, None).unwrap();
        assert_eq!(r.status, Status::Pending);
        let text = r.to_json();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["schemaVersion"], 3, "a state with halted children is version 3");
        assert_eq!(v["children"].as_array().unwrap().len(), 2);

        // The root's request is the first child's own: its kind, its tool, its calls, and its path.
        let pending = r.pending.clone().unwrap();
        assert_eq!(pending.kind, "tool_call");
        assert_eq!(pending.path.iter().map(|s| (s.agent.as_str(), s.call_id.as_str())).collect::<Vec<_>>(), [("browse", "d1")]);
        assert_eq!(pending.call_id.as_deref(), Some("c1"), "the inner call's id, which durable waits are keyed by");
        let all = requests_of(&r);
        assert_eq!(all.iter().map(|r| r.kind.as_str()).collect::<Vec<_>>(), ["tool_call", "approval"], "all three suspensions");
        let by_agent = |a: &str| all.iter().find(|r| r.path[0].agent == a).unwrap().clone();

        // First answer: the other child is halted still, and asks again exactly as before.
        assert_eq!(by_agent("browse").relay_calls().len(), 2, "both relay calls in one request");
        let first = by_agent(order[0]);
        let answer = if order[0] == "browse" { clicks(&first) } else { approve(&first) };
        let mid = resume_from(&text, answer, &p, &tools).unwrap();
        assert_eq!(mid.status, Status::Pending);
        let again = mid.pending.clone().unwrap();
        let second = by_agent(order[1]);
        assert_eq!((again.id.as_str(), again.path[0].agent.as_str()), (second.id.as_str(), order[1]), "the same request");
        assert_eq!(mid.children.len(), 1);

        let answer = if order[1] == "browse" { clicks(&again) } else { approve(&again) };
        let done = resume_from(&mid.to_json(), answer, &p, &tools).unwrap();
        assert_eq!(done.status, Status::Done, "{:?}", done.text);
        assert_eq!(done.text, "all done");
        assert!(done.children.is_empty());
        let root = p.sent("root");
        assert_eq!(root.len(), 2);
        let results: Vec<&Value> = root[1]["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").collect();
        assert_eq!(results.iter().map(|m| m["content"].as_str().unwrap()).collect::<Vec<_>>(), ["browsed", "reviewed"]);

        // Every inner tool ran exactly once: publish asked once and ran once with the approval.
        let calls = tools.calls.borrow();
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert!(calls[0].2.is_none() && calls[1].2.as_ref().is_some_and(|a| a.ok));
        never_restarted(&p, "browse");
        never_restarted(&p, "review");
    }
}

#[test]
fn under_wait_for_a_childs_suspensions_reach_the_hosts_wait_with_their_path() {
    let p = script();
    let tools = tools();
    let w = Wait::new(|req| if req.kind == "approval" { approve(req) } else { clicks(req) });
    let r = start(&p, &tools, Some(&*w as &dyn Waiter)).unwrap();
    assert_eq!(r.status, Status::Done);
    assert_eq!(r.text, "all done");
    let seen = w.seen.borrow();
    let paths: Vec<(&str, &str)> = seen.iter().map(|r| (r.kind.as_str(), r.path[0].agent.as_str())).collect();
    assert_eq!(paths.len(), 3, "two relay calls, one approval: {paths:?}");
    assert!(paths.contains(&("tool_call", "browse")) && paths.contains(&("approval", "review")), "{paths:?}");
    assert_eq!(w.max_outstanding.get(), 3, "both children wait at once, each relay call apart");
    // Each agent made one call with tool calls (15 tokens) and one with its answer (23).
    assert_eq!(r.usage.total_tokens, 3 * (15 + 23), "children's usage rolls up");
    let mut agents: Vec<(&str, u64)> = r.agent_usage.0.iter().map(|(a, u)| (a.as_str(), u.total_tokens)).collect();
    agents.sort();
    assert_eq!(agents, [("browse", 38), ("review", 38)], "each agent's own usage");
    never_restarted(&p, "browse");
    never_restarted(&p, "review");
}

// ---- Random schedules at depth 3, through a checking store ----

/// A tiny deterministic generator (xorshift64*), so a failing schedule is reproduced by its seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Conversations as documents, with the revision check a real store makes.
#[derive(Default)]
struct Store(RefCell<HashMap<String, Value>>);
impl toolnexus_wasm::conversation::ConversationStore for Store {
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(async move { Ok(self.0.borrow().get(id).cloned()) })
    }
    fn save<'a>(&'a self, id: &'a str, state: &'a state::ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move {
            let stored = self.0.borrow().get(id).map(|d| d["revision"].as_u64().unwrap_or(0));
            toolnexus_wasm::conversation::check_revision(stored, state.revision)?;
            self.0.borrow_mut().insert(id.to_string(), serde_json::from_str(&state.to_json()).unwrap());
            Ok(())
        })
    }
    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.0.borrow_mut().remove(id);
            Ok(())
        })
    }
}

/// One agent of a random tree: its own relay calls, whether it has an approval tool, and the
/// agents it delegates to (all called in its first turn; its second turn answers).
struct Shape {
    name: String,
    clicks: usize,
    approval: bool,
    children: Vec<Shape>,
}

impl Shape {
    /// root → a → b always (depth 3), with a sibling of `a` and extra suspensions at random.
    fn random(rng: &mut Rng) -> Shape {
        let leaf = |name: &str, rng: &mut Rng, min_clicks| Shape {
            name: name.into(),
            clicks: min_clicks + rng.below(3),
            approval: rng.chance(50),
            children: vec![],
        };
        let b = leaf("b", rng, 1);
        let mut a = leaf("a", rng, 0);
        a.children.push(b);
        let mut root = Shape { name: "root".into(), clicks: 0, approval: false, children: vec![a] };
        if rng.chance(60) {
            let min_clicks = usize::from(rng.chance(50));
            let mut s = leaf("s", rng, min_clicks);
            // Every agent suspends at least once (its first turn has a call).
            s.clicks += usize::from(s.clicks == 0 && !s.approval);
            root.children.push(s);
        }
        root
    }

    fn kit(&self) -> Vec<ToolSpec> {
        let mut kit: Vec<ToolSpec> = self.children.iter().map(|c| agent(&c.name, c.kit())).collect();
        if self.clicks > 0 {
            kit.push(relay("click"));
        }
        if self.approval {
            kit.push(native("publish"));
        }
        kit
    }

    /// Every agent's two replies, and the path of each approval tool (`a/b/publish`).
    fn script(&self, prefix: &str, p: Routed, publishers: &mut Vec<String>) -> Routed {
        let mut calls: Vec<(String, String, String)> = Vec::new();
        for c in &self.children {
            calls.push((format!("{}_d_{}", self.name, c.name), c.name.clone(), format!(r#"{{"prompt":"do {}"}}"#, c.name)));
        }
        for i in 0..self.clicks {
            calls.push((format!("{}_c{i}", self.name), "click".into(), format!(r##"{{"s":"#{}{i}"}}"##, self.name)));
        }
        if self.approval {
            calls.push((format!("{}_p", self.name), "publish".into(), "{}".into()));
            publishers.push(format!("{prefix}publish"));
        }
        let refs: Vec<(&str, &str, &str)> = calls.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
        let mut p = p.script(&self.name, vec![oa_calls(&refs), oa_text(&format!("{} done", self.name))]);
        for c in &self.children {
            p = c.script(&format!("{prefix}{}/", c.name), p, publishers);
        }
        p
    }

    fn agents(&self) -> Vec<&str> {
        let mut out = vec![self.name.as_str()];
        for c in &self.children {
            out.extend(c.agents());
        }
        out
    }
}

/// One operation in a fresh process: only the store and the model's API outlive it.
fn operate(shape: &Shape, store: &Store, p: &Routed, tools: &Tools, input: toolnexus_wasm::session::Input<'_>) -> Result<RunResult> {
    // Request ids never repeat between processes, as a host's time-based ones do not.
    thread_local!(static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(1_767_225_600_000) });
    let ids = toolnexus_wasm::suspend::IdGen::new(Box::new(|| {
        NEXT.with(|n| {
            n.set(n.get() + 1);
            n.get()
        })
    }));
    let clock = tick();
    let env = Env::new(p, tools, &ids, &clock);
    let mut cfg = root_config();
    cfg.max_turns = 10;
    let kit = Toolkit::new(shape.kit())?;
    futures_executor::block_on(toolnexus_wasm::session::run(&cfg, toolnexus_wasm::session::Mode::Ask, kit, input, store, &env))
}

/// Approval tools that ask once and run once approved; request ids from one counter, as a
/// host's random ids never repeat.
fn approval_tools(publishers: &[String], counter: &Rc<std::cell::Cell<u64>>) -> Tools {
    let mut tools = Tools::default();
    for name in publishers {
        let counter = counter.clone();
        let ids = toolnexus_wasm::suspend::IdGen::new(Box::new(move || {
            counter.set(counter.get() + 1);
            counter.get()
        }));
        tools = tools.with(name, move |_, answer| match answer {
            None => pending_result(Request { kind: "approval".into(), prompt: "approve".into(), ..Request::default() }, &ids),
            Some(a) if a.ok => ToolResult::ok("published"),
            Some(_) => ToolResult::error("not approved"),
        });
    }
    tools
}

/// Everything the root is halted on: its own request, and each halted child's.
fn outstanding(store: &Store) -> Vec<Request> {
    let doc = store.0.borrow().get("c").cloned().unwrap();
    let (st, _) = state::load_conversation(&doc).unwrap();
    let mut all: Vec<Request> = st.pending.into_iter().collect();
    for r in st.children.iter().flat_map(requests) {
        if !all.iter().any(|o| o.id == r.id) {
            all.push(r);
        }
    }
    all
}

#[test]
fn a_thousand_random_schedules_at_depth_three_run_every_tool_once_and_lose_none() {
    for seed in 1..=1000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let shape = Shape::random(&mut rng);
        let mut publishers = Vec::new();
        let p = shape.script("", Routed::default(), &mut publishers);
        let counter = Rc::new(std::cell::Cell::new(0));
        let store = Store::default();
        let mut ran: Vec<(String, Option<bool>)> = Vec::new();
        let mut answered_clicks: Vec<String> = Vec::new();
        let mut old_answers: Vec<String> = Vec::new();
        let history = || Ok(Value::Null);
        let first = toolnexus_wasm::session::Input::Prompt { prompt: "go".into(), id: Some("c".into()), history: &history };
        let tools = approval_tools(&publishers, &counter);
        let mut r = operate(&shape, &store, &p, &tools, first).unwrap();
        ran.extend(tools.calls.borrow().iter().map(|(n, _, a)| (n.clone(), a.as_ref().map(|a| a.ok))));
        let mut steps = 0;
        while r.status == Status::Pending {
            steps += 1;
            assert!(steps < 50, "seed {seed}: the schedule ends");
            let all = outstanding(&store);
            assert!(!all.is_empty(), "seed {seed}: a pending root names what it waits on");
            for req in &all {
                for c in req.relay_calls() {
                    assert!(!answered_clicks.contains(&c.id), "seed {seed}: relay call {} asked again after its answer", c.id);
                }
            }
            // A stale delivery (an answer already used) is refused and runs nothing.
            if !old_answers.is_empty() && rng.chance(25) {
                let text = old_answers[rng.below(old_answers.len())].clone();
                let (tools, before) = (approval_tools(&publishers, &counter), p.seen.borrow().len());
                let stale = operate(
                    &shape,
                    &store,
                    &p,
                    &tools,
                    toolnexus_wasm::session::Input::resume(&text, toolnexus_wasm::session::Mode::Ask).unwrap(),
                );
                if std::env::var("SEED").is_ok_and(|s| s == seed.to_string()) {
                    eprintln!("stale {text} -> {:?}", stale.as_ref().map_err(|e| &e.message).map(|r| r.status));
                }
                assert!(stale.is_err(), "seed {seed}: a used answer is refused, got {:?}", stale.map(|r| r.status));
                assert!(tools.calls.borrow().is_empty() && p.seen.borrow().len() == before, "seed {seed}: the refusal ran nothing");
            }
            let req = &all[rng.below(all.len())];
            if std::env::var("SEED").is_ok_and(|s| s == seed.to_string()) {
                eprintln!(
                    "answer {} {:?} of {:?}",
                    req.kind,
                    req.path,
                    all.iter().map(|r| (&r.kind, &r.path, r.relay_calls().len())).collect::<Vec<_>>()
                );
            }
            let answer = if req.kind == "approval" { approve(req) } else { clicks(req) };
            answered_clicks.extend(req.relay_calls().into_iter().map(|c| c.id));
            let text = format!(r#"{{"id":"c","answer":{}}}"#, serde_json::to_string(&answer).unwrap());
            let tools = approval_tools(&publishers, &counter);
            r = operate(
                &shape,
                &store,
                &p,
                &tools,
                toolnexus_wasm::session::Input::resume(&text, toolnexus_wasm::session::Mode::Ask).unwrap(),
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {}", e.message));
            ran.extend(tools.calls.borrow().iter().map(|(n, _, a)| (n.clone(), a.as_ref().map(|a| a.ok))));
            old_answers.push(text);
        }
        assert_eq!(r.status, Status::Done, "seed {seed}: {}", r.text);
        assert_eq!(r.text, "root done");
        for name in &publishers {
            let asked = ran.iter().filter(|(n, a)| n == name && a.is_none()).count();
            let approved = ran.iter().filter(|(n, a)| n == name && *a == Some(true)).count();
            // A call another answer's resume re-runs asks again (as at the root: D-1..D-4); its
            // body runs once, with its approval.
            assert!(asked >= 1 && approved == 1, "seed {seed}: {name} ran once, approved: {ran:?}");
        }
        for agent in shape.agents() {
            let sent = p.sent(agent);
            assert_eq!(sent.len(), 2, "seed {seed}: {agent} called its model twice, never restarted");
            let first = sent[0]["messages"].as_array().unwrap();
            assert_eq!(&sent[1]["messages"].as_array().unwrap()[..first.len()], &first[..], "seed {seed}: {agent} went on");
        }
        let clicks_scripted: usize = {
            fn count(s: &Shape) -> usize {
                s.clicks + s.children.iter().map(count).sum::<usize>()
            }
            count(&shape)
        };
        assert_eq!(answered_clicks.len(), clicks_scripted, "seed {seed}: every relay call asked and answered once");
    }
}
