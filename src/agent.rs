//! Agents made of agents, as data: an agent tool's declaration ([`AgentSpec`]), the checkpoint
//! a parent keeps of a child that is halted ([`Child`]), the step a suspension's path takes
//! through its delegate calls ([`PathStep`]), and the usage each agent spent. The child's run is
//! the driver's (`driver/agent.rs`); nothing here does I/O. docs/decisions/agents.md says why the
//! child starts from a fresh transcript and how its suspensions reach the root.

use crate::error::{Error, Result};
use crate::json::Obj;
use crate::message::{Message, Usage};
use crate::prelude::*;
use crate::provider::Style;
use crate::state::ConversationState;
use crate::suspend::Request;
use crate::tool::Toolkit;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The schema version of a document with halted children. A version 2 reader would ignore
/// `children` and run a halted child again from its start, so such a document must be refused
/// there; one without children means the same in both and stays version 2, so a release from
/// before agents keeps reading every state that does not use them.
pub const CHILDREN_VERSION: u32 = 3;

/// The version a document with `children` is written as.
pub fn schema_version(base: u32, children: &[Child]) -> u32 {
    if children.is_empty() {
        base
    } else {
        base.max(CHILDREN_VERSION)
    }
}

/// The `source` of an agent tool's declaration.
pub const SOURCE_AGENT: &str = "agent";

/// How deep agent tools may nest in one declaration at most (a root's child is depth 1):
/// `agentTool`'s `maxDepth` (default 8) is the user's limit below this one. A declaration is
/// plain data, so the only way to a cycle is an object that holds itself: this cap refuses it.
pub const MAX_DEPTH: usize = 32;

/// What runs when an agent tool is called: a loop of its own over its own tools, with the
/// parent's provider settings unless it names others.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub system_prompt: String,
    pub tools: Toolkit,
    /// The parent's `maxTurns` when not given.
    pub max_turns: Option<u32>,
    pub model: Option<String>,
    pub style: Option<Style>,
    pub base_url: Option<String>,
}

/// The child's prompt from the call's arguments: `prompt` when it is the only member and a
/// string, else the arguments as JSON text (a child with a schema of its own reads them whole).
pub fn prompt_of(args: &Map<String, Value>) -> Message {
    match args.get("prompt") {
        Some(Value::String(p)) if args.len() == 1 => Message::User(p.clone()),
        _ => Message::User(crate::json::to_text(&Value::Object(args.clone()))),
    }
}

/// One step of a suspension's way up: the agent that suspended below, and the delegate call of
/// its parent that runs it. A root's request lists them from the root down; resume follows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PathStep {
    pub agent: String,
    pub call_id: String,
}

impl PathStep {
    pub fn to_value(&self) -> Value {
        crate::json::obj(vec![("agent", self.agent.as_str().into()), ("callId", self.call_id.as_str().into())])
    }

    pub fn from_json(v: &Value, what: &str) -> core::result::Result<PathStep, String> {
        let o = crate::json::object(v, what)?;
        let need = |k: &str| crate::json::opt_str(o, k, what)?.ok_or_else(|| format!("{what}.{k} is required"));
        Ok(PathStep { agent: need("agent")?, call_id: need("callId")? })
    }
}

/// A child's request as its parent surfaces it: the same request (kind, prompt, the inner tool's
/// name and arguments, the inner call's id), one step longer on its way up.
pub fn surface(mut req: Request, agent: &str, call_id: &str) -> Request {
    req.path.insert(0, PathStep { agent: agent.into(), call_id: call_id.into() });
    req
}

/// The parent's copy of a child that is halted (or saved while it ran): the child's own
/// conversation state (its transcript in its dialect, the request it waits on, its own halted
/// children), keyed by the parent's delegate call. Stored as that state's own document, so one
/// reader and one writer serve a root and its children at every depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Child {
    pub call_id: String,
    pub agent: String,
    pub state: ConversationState,
}

impl Child {
    /// The request this child waits on, as its parent surfaces it.
    pub fn request(&self) -> Option<Request> {
        Some(surface(self.state.pending.clone()?, &self.agent, &self.call_id))
    }

    /// Every request this child and its own children are halted on, as its parent surfaces
    /// them: the ones a host may answer, in any order.
    pub fn requests(&self) -> Vec<Request> {
        let mut out: Vec<Request> = self.request().into_iter().collect();
        for c in &self.state.children {
            for r in c.requests() {
                if !out.iter().any(|o| o.id == r.id) {
                    out.push(surface(r, &self.agent, &self.call_id));
                }
            }
        }
        out
    }
}

/// `children` of a state, when there are any: `[{ callId, agent, state }]`.
pub fn write_children(o: &mut Obj, children: &[Child]) {
    if !children.is_empty() {
        o.arr("children", |a| {
            for c in children {
                a.obj(|o| {
                    o.str("callId", &c.call_id).str("agent", &c.agent).obj("state", |o| c.state.write_fields(o));
                });
            }
        });
    }
}

/// `children` of a state (absent: none). Each child's state is read as a state is; JSON's own
/// nesting limit bounds how deep they go.
pub fn read_children(o: &Map<String, Value>, what: &str) -> core::result::Result<Vec<Child>, String> {
    let mut out = Vec::new();
    if matches!(o.get("children"), None | Some(Value::Null)) {
        return Ok(out);
    }
    for c in crate::json::array(o, "children", what)? {
        let o = crate::json::object(c, "state.children[]")?;
        let need = |k: &str| crate::json::opt_str(o, k, "state.children[]")?.ok_or_else(|| format!("state.children[].{k} is required"));
        let state = ConversationState::from_json(o.get("state").unwrap_or(&Value::Null))?;
        out.push(Child { call_id: need("callId")?, agent: need("agent")?, state });
    }
    Ok(out)
}

/// The usage of each agent below a run, by path (`research`, `research/browse`): each agent's
/// own model calls, its children's under their own paths. The run's `usage` is the sum of its
/// own and all of these.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentUsage(pub Vec<(String, Usage)>);

impl AgentUsage {
    /// Adds `usage` to `path`'s entry (an agent called twice is one entry).
    pub fn add(&mut self, path: &str, usage: Usage) {
        match self.0.iter_mut().find(|(p, _)| p == path) {
            Some((_, u)) => u.add(usage),
            None => self.0.push((path.into(), usage)),
        }
    }

    /// Rolls a child segment's usage in under `agent`: its descendants' entries under
    /// `agent/…`, and what is left of its total (its own model calls) under `agent`.
    pub fn roll_in(&mut self, agent: &str, total: Usage, below: &AgentUsage) {
        let mut own = total;
        for (path, u) in &below.0 {
            own = own.minus(u);
            self.add(&format!("{agent}/{path}"), *u);
        }
        self.add(agent, own);
    }

    pub fn write(&self, o: &mut Obj) {
        if !self.0.is_empty() {
            o.obj("agentUsage", |o| {
                for (path, u) in &self.0 {
                    o.value(path, &u.to_json());
                }
            });
        }
    }
}

/// Reads an agent declaration's `agent` member: `{ systemPrompt, tools, maxTurns?, model?,
/// style?, baseUrl? }`, its tools read by `tool` (the declaration reader, one level deeper).
/// `agentTool()` checked the options and named the fix for each; what is read here is its output.
pub fn spec_from_json(
    v: Option<&Value>,
    name: &str,
    depth: usize,
    tool: &dyn Fn(&Value, &str, usize) -> Result<crate::tool::ToolSpec>,
) -> Result<AgentSpec> {
    let bad = |m: &str| Error::bad_input(format!("agent tool {name}: {m}"));
    if depth >= MAX_DEPTH {
        return Err(bad("agent tools nest too deep (does an agent list itself among its tools?)"));
    }
    let Some(Value::Object(o)) = v else { return Err(bad("make it with agentTool()")) };
    let s = |k: &str| o.get(k).and_then(Value::as_str).map(String::from);
    let mut tools = Vec::new();
    for (i, t) in o.get("tools").and_then(Value::as_array).into_iter().flatten().enumerate() {
        tools.push(tool(t, &format!("{name}.tools[{i}]"), depth + 1)?);
    }
    Ok(AgentSpec {
        system_prompt: s("systemPrompt").unwrap_or_default(),
        tools: Toolkit::new(tools)?,
        max_turns: o.get("maxTurns").and_then(Value::as_u64).map(|n| n as u32).filter(|n| *n > 0),
        model: s("model"),
        style: s("style").map(|st| Style::parse(&st)).transpose()?,
        base_url: s("baseUrl"),
    })
}
