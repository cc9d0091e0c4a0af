//! Suspension as data: `Request` / `Answer`, the `pending()` and
//! `authRequired()` producers, relay requests and the rules that turn an answer into a result.
//! Key names are pinned across toolnexus ports; optional keys are omitted when empty.

use crate::json;
use crate::json::{str_at, str_in};
use crate::message::ToolCall;
use crate::part::{parts_value, read_parts, Part};
use crate::prelude::*;
use crate::tool::{output_text, ToolResult};
use core::cell::Cell;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub const RELAY_KIND: &str = "tool_call";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// The tool wants to see a refusal: an `ok: false` answer (or none) re-runs it with that
    /// answer as `ctx.answer`, and its result is the call's, instead of `declined/expired`. Set
    /// by tools whose other side must be told (an MCP server's question is answered `decline`).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub rerun_on_decline: bool,
    /// The tool call this request suspends (set by the loop): a host keys durable waits by it
    /// (a Workflow's `waitForEvent`), since a request's own id may be made afresh on a replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The agents a child's request came up through, from the root down (empty for a request
    /// of the run's own calls): `callId` is then the inner call's, and a resume follows the
    /// path's delegate calls to the child that asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<PathStep>,
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
        json::obj(vec![("agent", self.agent.as_str().into()), ("callId", self.call_id.as_str().into())])
    }

    /// A step as a state spells it; `None` unless both members are strings.
    pub fn read(v: &Value) -> Option<PathStep> {
        Some(PathStep { agent: json::str_at(v, "agent")?.into(), call_id: json::str_at(v, "callId")?.into() })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelayCall {
    pub id: String,
    pub name: String,
    pub input: Value,
    pub arguments: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelayResult {
    pub id: String,
    #[serde(default)]
    pub output: String,
    #[serde(default)]
    pub is_error: bool,
    /// Images (and text) for the model beside `output`, checked when read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

impl Answer {
    /// The `Value` its `Serialize` derive gives, by hand (the edge hands this to JS).
    pub fn into_value(self) -> Value {
        let mut fields = vec![("id", self.id.into()), ("ok", self.ok.into())];
        if let Some(d) = self.data {
            fields.push(("data", Value::Object(d)));
        }
        if let Some(r) = self.reason {
            fields.push(("reason", r.into()));
        }
        json::obj(fields)
    }

    /// What a host's `waitFor` resolved to: nothing (`null`, `undefined`) is no answer, which the
    /// core reads as a decline.
    pub fn from_wait_for(v: &Value) -> crate::error::Result<Option<Answer>> {
        if v.is_null() {
            return Ok(None);
        }
        Answer::from_json(v, "the answer from waitFor").map(Some).map_err(|e| {
            crate::error::Error::new(
                crate::error::Code::HostCallback,
                format!("waitFor must resolve to an Answer {{ id, ok, data? }} (for relay calls: relayAnswer(request.id, results)): {e}"),
            )
        })
    }

    pub fn from_json(v: &Value, what: &str) -> Result<Answer, String> {
        let o = json::object(v, what)?;
        Ok(Answer {
            id: json::str_or_empty(o, "id", what)?,
            ok: json::opt_bool(o, "ok", what)?.unwrap_or(false),
            data: json::opt_object(o, "data", what)?,
            reason: json::opt_str(o, "reason", what)?,
        })
    }
}

impl RelayCall {
    /// The `Value` its `Serialize` derive gives.
    pub fn into_value(self) -> Value {
        json::obj(vec![("id", self.id.into()), ("name", self.name.into()), ("input", self.input), ("arguments", self.arguments.into())])
    }

    /// A relay call needs an id and a name; anything else in `data.calls` is skipped.
    fn from_json(v: &Value) -> Option<RelayCall> {
        let o = v.as_object()?;
        Some(RelayCall {
            id: o.get("id")?.as_str()?.to_string(),
            name: o.get("name")?.as_str()?.to_string(),
            input: o.get("input").cloned().unwrap_or_else(|| json!({})),
            arguments: str_in(o, "arguments").unwrap_or("{}").to_string(),
        })
    }
}

impl RelayResult {
    /// The `Value` its `Serialize` derive gives.
    pub fn into_value(self) -> Value {
        let mut fields = vec![("id", self.id.into()), ("output", self.output.into()), ("isError", self.is_error.into())];
        if !self.parts.is_empty() {
            fields.push(("parts", parts_value(&self.parts, &crate::part::NEUTRAL)));
        }
        json::obj(fields)
    }

    pub fn from_json(v: &Value, what: &str) -> Result<RelayResult, String> {
        let o = json::object(v, what)?;
        Ok(RelayResult {
            id: json::opt_str(o, "id", what)?.ok_or_else(|| format!("{what}.id is required"))?,
            output: output_text(o.get("output")),
            is_error: json::opt_bool(o, "isError", what)?.unwrap_or(false),
            parts: match o.get("parts") {
                None | Some(Value::Null) => Vec::new(),
                Some(p) => read_parts(p, &format!("{what}.parts"))?,
            },
        })
    }
}

/// Makes `pnd-<epoch-ms base36>-<seq>` ids. The clock is injected so the core never reads time.
pub struct IdGen {
    clock: Box<dyn Fn() -> u64>,
    seq: Cell<u64>,
    /// The requests being answered here without a store (`IdGen::hold`).
    answering: core::cell::RefCell<Vec<String>>,
}

impl IdGen {
    pub fn new(clock: Box<dyn Fn() -> u64>) -> Self {
        IdGen { clock, seq: Cell::new(0), answering: Default::default() }
    }

    /// Holds request `id` for one resume of a state the caller holds, until the returned guard
    /// is dropped (the run ended); `None` while another resume of it holds it. The edge keeps one
    /// `IdGen` per realm, so this is the in-realm guard of docs/decisions/resume-claim.md.
    pub fn hold(&self, id: &str) -> Option<Held<'_>> {
        let mut answering = self.answering.borrow_mut();
        if answering.iter().any(|a| a == id) {
            return None;
        }
        answering.push(id.into());
        Some(Held { ids: self, id: id.into() })
    }
    pub fn next(&self) -> String {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        format!("pnd-{}-{n}", base36((self.clock)()))
    }
}

/// A request held by [`IdGen::hold`]; dropping it lets the request be answered again.
pub struct Held<'a> {
    ids: &'a IdGen,
    id: String,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.ids.answering.borrow_mut().retain(|a| *a != self.id);
    }
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8_lossy(&out).into_owned() // ASCII; see metrics::js_number
}

impl Request {
    /// The `Value` its `Serialize` derive gives (absent options left out).
    pub fn to_value(&self) -> Value {
        let mut fields =
            vec![("id", self.id.as_str().into()), ("kind", self.kind.as_str().into()), ("prompt", self.prompt.as_str().into())];
        if let Some(u) = &self.url {
            fields.push(("url", u.as_str().into()));
        }
        if let Some(d) = &self.data {
            fields.push(("data", Value::Object(d.clone())));
        }
        if let Some(e) = &self.expires_at {
            fields.push(("expiresAt", e.as_str().into()));
        }
        if self.rerun_on_decline {
            fields.push(("rerunOnDecline", true.into()));
        }
        if let Some(c) = &self.call_id {
            fields.push(("callId", c.as_str().into()));
        }
        if !self.path.is_empty() {
            let mut steps = Vec::new();
            for s in &self.path {
                steps.push(s.to_value());
            }
            fields.push(("path", Value::Array(steps)));
        }
        json::obj(fields)
    }

    /// Reads a request a host passed to an export: its JSON data, or `None` when the value is
    /// not an object.
    pub fn from_host(v: Option<&Value>, what: &str) -> crate::error::Result<Request> {
        let bad = |m: String| crate::error::Error::bad_input(m);
        let v = v.ok_or_else(|| bad(format!("{what} must be a Request object")))?;
        Request::from_json(v, what).map_err(|e| bad(format!("{what} is invalid: {e}")))
    }

    /// Reads a request a host handed over (all fields optional, as the wire allows).
    pub fn from_json(v: &Value, what: &str) -> Result<Request, String> {
        let o = json::object(v, what)?;
        Ok(Request {
            id: json::str_or_empty(o, "id", what)?,
            kind: json::str_or_empty(o, "kind", what)?,
            prompt: json::str_or_empty(o, "prompt", what)?,
            url: json::opt_str(o, "url", what)?,
            data: json::opt_object(o, "data", what)?,
            expires_at: json::opt_str(o, "expiresAt", what)?,
            rerun_on_decline: json::opt_bool(o, "rerunOnDecline", what)?.unwrap_or(false),
            call_id: json::opt_str(o, "callId", what)?,
            path: match o.get("path") {
                None | Some(Value::Null) => Vec::new(),
                Some(_) => {
                    let mut steps = Vec::new();
                    for s in json::array(o, "path", what)? {
                        steps.push(PathStep::read(s).ok_or_else(|| format!("{what}.path[] must be {{ agent, callId }} (strings)"))?);
                    }
                    steps
                }
            },
        })
    }

    /// This request as the suspension of the tool call `id`. A child's request keeps its inner
    /// call's id: its path names the delegate call.
    pub fn for_call(mut self, id: &str) -> Request {
        if self.path.is_empty() {
            self.call_id = Some(id.into());
        }
        self
    }

    /// A child's request as its parent surfaces it: the same request (kind, prompt, the inner
    /// tool's name and arguments, the inner call's id), one step longer on its way up.
    pub fn surfaced(mut self, agent: &str, call_id: &str) -> Request {
        crate::small::insert(&mut self.path, 0, PathStep { agent: agent.into(), call_id: call_id.into() });
        self
    }

    /// The call of this run that the request suspends: the first delegate call of its path, else
    /// its own call.
    pub fn own_call(&self) -> Option<&str> {
        self.path.first().map(|s| s.call_id.as_str()).or(self.call_id.as_deref())
    }

    pub fn is_relay(&self) -> bool {
        self.kind == RELAY_KIND
    }

    /// `data.calls` of a relay request; entries that are not relay calls are skipped.
    pub fn relay_calls(&self) -> Vec<RelayCall> {
        let mut out = Vec::new();
        // A plain loop: a `filter_map` + `collect` is an iterator mono of its own.
        for c in self.data.as_ref().and_then(|d| d.get("calls")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
            if let Some(c) = RelayCall::from_json(c) {
                out.push(c);
            }
        }
        out
    }
}

/// How one tool call ended, as executors and `beforeTool` report it: a result, or a suspension
/// carrying the request the host must answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolOutcome {
    Result(ToolResult),
    Suspend(Request),
}

impl ToolOutcome {
    /// Reads the wire encoding of a suspension, once, where a host's return value enters the
    /// core: a result whose `metadata.pending` is a request with an id (what `pending()` and
    /// `authRequired()` produce) is that suspension; anything else is a plain result.
    pub fn from_result(r: ToolResult) -> ToolOutcome {
        let req = r.metadata.as_ref().and_then(|m| m.get("pending")).and_then(|p| Request::from_json(p, "metadata.pending").ok());
        match req.filter(|req| !req.id.is_empty()) {
            Some(req) => ToolOutcome::Suspend(req),
            None => ToolOutcome::Result(r),
        }
    }
}

/// `pending(req)`: the wire encoding of a suspension, as a tool result a host tool returns
/// (read back by `ToolOutcome::from_result`). A missing id is generated.
pub fn pending_result(mut req: Request, ids: &IdGen) -> ToolResult {
    if req.id.is_empty() {
        req.id = ids.next();
    }
    let mut output = req.prompt.clone();
    if let Some(url) = req.url.as_ref().filter(|u| !u.is_empty()) {
        output.push('\n');
        output.push_str(url);
    }
    let mut meta = Map::new();
    meta.insert("pending".into(), req.to_value());
    ToolResult { output, is_error: true, metadata: Some(meta), parts: Vec::new() }
}

/// `authRequired(url, prompt?)`.
pub fn auth_required(url: &str, prompt: Option<&str>) -> Request {
    Request {
        kind: "authorization".into(),
        prompt: prompt.unwrap_or("Authorization required to continue").into(),
        url: Some(url.into()),
        ..Request::default()
    }
}

pub fn relay_prompt(name: &str) -> String {
    format!("relay tool call {name} to the caller for execution")
}

/// The first execution of a relay tool: a suspension carrying this one call, already stamped
/// with the provider's call id and the provider's raw arguments.
pub fn relay_request(call: &ToolCall, input: &Map<String, Value>, ids: &IdGen) -> Request {
    let rc = RelayCall {
        id: call.id.clone(),
        name: call.name.clone(),
        input: Value::Object(input.clone()),
        arguments: if call.arguments.trim().is_empty() { "{}".into() } else { call.arguments.clone() },
    };
    let mut data = Map::new();
    data.insert("calls".into(), Value::Array(vec![rc.into_value()]));
    Request { id: ids.next(), kind: RELAY_KIND.into(), prompt: relay_prompt(&call.name), data: Some(data), ..Request::default() }
}

/// The host's result for one relay call: `data.results` matched by id, else the single-call
/// shorthand `data.output` / `data.isError` when `shorthand_applies`.
pub fn relay_output(answer: &Answer, call_id: &str, shorthand_applies: bool) -> Option<ToolResult> {
    let data = answer.data.as_ref()?;
    if let Some(results) = data.get("results").and_then(Value::as_array) {
        if let Some(r) = results.iter().find(|r| str_at(r, "id") == Some(call_id)) {
            return Some(from_answer(r));
        }
    }
    if shorthand_applies && data.contains_key("output") {
        return Some(from_answer(&Value::Object(data.clone())));
    }
    None
}

/// `{ output, isError?, parts? }` of an answer as a result; parts that cannot be sent make it an
/// error result saying why.
fn from_answer(r: &Value) -> ToolResult {
    let is_error = matches!(r.get("isError"), Some(Value::Bool(true)));
    ToolResult::with_parts(output_text(r.get("output")), is_error, r.get("parts"))
}

/// `relayAnswer(requestId, results)`.
/// `relayAnswer`'s results as the host gives them: `[{ id, output, isError?, parts? }]`.
pub fn relay_results_from_json(v: &Value) -> crate::error::Result<Vec<RelayResult>> {
    let read = |v: &Value| -> Result<Vec<RelayResult>, String> {
        let Value::Array(a) = v else { return Err("not an array".to_string()) };
        let mut out = Vec::with_capacity(a.len());
        for r in a {
            out.push(RelayResult::from_json(r, "results[]")?);
        }
        Ok(out)
    };
    read(v).map_err(|e| crate::error::Error::bad_input(format!("results must be [{{ id, output, isError?, parts? }}]: {e}")))
}

/// `relayAnswer(requestId, results)` from and to JSON data: the answer to a relay request.
pub fn relay_answer_of(request_id: &str, results: &Value) -> crate::error::Result<Value> {
    Ok(relay_answer(request_id, relay_results_from_json(results)?).into_value())
}

/// `pending(request)` from and to JSON data (`None`: a value that is not an object): the tool
/// result that suspends the call, with an id generated when none is given.
pub fn pending_of(request: Option<&Value>, ids: &IdGen) -> crate::error::Result<Value> {
    Ok(pending_result(Request::from_host(request, "pending(request)")?, ids).to_value())
}

/// `isRelayRequest(request)`: false for anything that is not a relay request, unreadable included.
pub fn is_relay_request(request: Option<&Value>) -> bool {
    Request::from_host(request, "request").is_ok_and(|r| r.is_relay())
}

/// `relayCallsOf(request)`: the relay calls a request carries (`data.calls`), in call order; `[]`
/// for other requests; a value that is not a request is refused.
pub fn relay_calls_of(request: Option<&Value>) -> crate::error::Result<Value> {
    let req = Request::from_host(request, "request")?;
    let calls = if req.is_relay() { req.relay_calls() } else { Vec::new() };
    Ok(Value::Array(calls.into_iter().map(RelayCall::into_value).collect()))
}

pub fn relay_answer(request_id: &str, results: Vec<RelayResult>) -> Answer {
    let mut data = Map::new();
    data.insert("results".into(), Value::Array(results.into_iter().map(RelayResult::into_value).collect()));
    Answer { id: request_id.into(), ok: true, data: Some(data), reason: None }
}

/// Checks that `answer` answers `req`: its id echoes the request's, and (when it is `ok`) each of
/// its relay results (`data.results[].id`) names one of `open`, the request's calls still
/// waiting. Anything else is `answer_mismatch`: a typo in an id would otherwise reach the model
/// as "no result supplied" and the host would never know. `lead` starts the message (what was
/// being answered). The durable resume and the in-process `waitFor` apply the same rule.
pub fn check_answer(req: &Request, answer: &Answer, open: &[&str], lead: &str) -> crate::error::Result<()> {
    check_answer_id(req, answer, lead)?;
    check_answer_results(req, answer, open, lead)
}

fn mismatch(lead: &str, m: String) -> crate::error::Error {
    crate::error::Error::new(crate::error::Code::AnswerMismatch, format!("{lead}{m}"))
}

/// The first half of [`check_answer`]: the answer is for this request at all.
pub fn check_answer_id(req: &Request, answer: &Answer, lead: &str) -> crate::error::Result<()> {
    if answer.id != req.id {
        return Err(mismatch(lead, format!("answer id \"{}\" does not echo the pending request id \"{}\"", answer.id, req.id)));
    }
    Ok(())
}

/// The second half of [`check_answer`]: every result of an `ok` answer names a call in `open`.
pub fn check_answer_results(req: &Request, answer: &Answer, open: &[&str], lead: &str) -> crate::error::Result<()> {
    let results = answer.data.as_ref().and_then(|d| d.get("results")).and_then(Value::as_array);
    for r in results.filter(|_| answer.ok).map_or(&[][..], Vec::as_slice) {
        let id = str_at(r, "id").unwrap_or_default();
        if !open.contains(&id) {
            return Err(mismatch(
                lead,
                format!(
                    "answer result id \"{id}\" matches no outstanding call of request \"{}\" (outstanding: {})",
                    req.id,
                    crate::small::join(open, ", ")
                ),
            ));
        }
    }
    Ok(())
}

/// What a call's result becomes after `waitFor` answered.
pub enum AfterWait {
    /// `ok: true`, or any answer to a request that wants refusals: run the same tool once more
    /// with `ctx.answer`.
    Retry(Answer),
    /// `ok: false` (or no answer): `declined/expired: <prompt>`.
    Final(ToolResult),
}

pub fn after_wait(req: &Request, answer: Option<Answer>) -> AfterWait {
    // A child's request is the child's to settle, refused or not.
    let child = !req.path.is_empty();
    match answer {
        Some(a) if a.ok || req.rerun_on_decline || child => AfterWait::Retry(a),
        None if child => AfterWait::Retry(Answer { id: req.id.clone(), ..Answer::default() }),
        // No answer counts as `{ id, ok: false }` (docs/decisions/loop.md, "Waits, answers and resume"); a tool that asked gets just that.
        None if req.rerun_on_decline => AfterWait::Retry(Answer { id: req.id.clone(), ..Answer::default() }),
        _ => AfterWait::Final(declined(req)),
    }
}

/// How many answers one call may take in-process before it ends `unresolved` (a tool that keeps
/// asking would otherwise hold the run forever). A durable halt has no such limit: each round
/// is a host's `runWithAnswer`.
pub const MAX_ANSWERS: u32 = 8; // named in `ask_again`'s text

pub fn declined(req: &Request) -> ToolResult {
    ToolResult::error(format!("declined/expired: {}", req.prompt))
}

/// A re-run after the `answers`th answer to `asked` suspended again on `next`: the next request
/// to wait for, or the call's result when waiting again would not end. The same request again
/// is `unresolved` (the loop never waits twice on one request); a new one after `MAX_ANSWERS`
/// answers is `unresolved after 8 answers`.
pub fn ask_again(asked: &Request, next: Request, answers: u32) -> Result<Request, ToolResult> {
    let lead = if next.id == asked.id {
        "unresolved: "
    } else if answers >= MAX_ANSWERS {
        "unresolved after 8 answers: "
    } else {
        return Ok(next);
    };
    Err(ToolResult::error(format!("{lead}{}", next.prompt)))
}

/// Durable halt: the surfaced request is the first suspension in call
/// order, and every relay call of the turn is merged into its `data.calls`, in call order.
/// The run's own suspensions come before its children's (a child's request has a path, and its
/// relay calls are the child's, never merged with the run's): a resume answers one level.
pub fn merge_for_halt(suspended: &[Request]) -> Option<Request> {
    let mut first = suspended.iter().find(|r| r.path.is_empty()).or(suspended.first())?.clone();
    if !first.path.is_empty() {
        return Some(first);
    }
    let mut calls: Vec<Value> = Vec::new();
    for r in suspended.iter().filter(|r| r.is_relay() && r.path.is_empty()) {
        for c in r.relay_calls() {
            calls.push(c.into_value());
        }
    }
    if !calls.is_empty() {
        first.data.get_or_insert_with(Map::new).insert("calls".into(), Value::Array(calls));
    }
    Some(first)
}

#[cfg(test)]
mod tests;
