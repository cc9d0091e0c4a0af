//! Suspension as data: `Request` / `Answer`, the `pending()` and
//! `authRequired()` producers, relay requests and the rules that turn an answer into a result.
//! Key names are pinned across toolnexus ports; optional keys are omitted when empty.

use crate::json;
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
    /// The `Value` its `Serialize` derive gives (the edge hands this to JS: a serde
    /// serializer per struct costs more wasm than these few fields).
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
                format!("waitFor must resolve to an Answer {{ id, ok, data? }}: {e}"),
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
            arguments: o.get("arguments").and_then(Value::as_str).unwrap_or("{}").to_string(),
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
                Some(p) => read_parts(p, &json::join(&[what, ".parts"], ""))?,
            },
        })
    }
}

/// Makes `pnd-<epoch-ms base36>-<seq>` ids. The clock is injected so the core never reads time.
pub struct IdGen {
    clock: Box<dyn Fn() -> u64>,
    seq: Cell<u64>,
}

impl IdGen {
    pub fn new(clock: Box<dyn Fn() -> u64>) -> Self {
        IdGen { clock, seq: Cell::new(0) }
    }
    pub fn next(&self) -> String {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        format!("pnd-{}-{}", base36((self.clock)()), json::num(n))
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
        })
    }

    /// This request as the suspension of the tool call `id`.
    pub fn for_call(mut self, id: &str) -> Request {
        self.call_id = Some(id.into());
        self
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
        if let Some(r) = results.iter().find(|r| r.get("id").and_then(Value::as_str) == Some(call_id)) {
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
        // A plain loop: `collect::<Result<Vec<_>>>` links a `GenericShunt` mono of its own.
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
    Ok(Value::Array(relay_values(calls)))
}

/// Relay calls as data, by a loop: each collected adapter chain is its own copy in the wasm.
fn relay_values(calls: Vec<RelayCall>) -> Vec<Value> {
    let mut out = Vec::with_capacity(calls.len());
    for c in calls {
        out.push(c.into_value());
    }
    out
}

pub fn relay_answer(request_id: &str, results: Vec<RelayResult>) -> Answer {
    let mut data = Map::new();
    let mut list = Vec::with_capacity(results.len());
    for r in results {
        list.push(r.into_value());
    }
    data.insert("results".into(), Value::Array(list));
    Answer { id: request_id.into(), ok: true, data: Some(data), reason: None }
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
    match answer {
        Some(a) if a.ok || req.rerun_on_decline => AfterWait::Retry(a),
        // No answer counts as `{ id, ok: false }` (docs/decisions.md, item 9); a tool that asked gets just that.
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
    Err(ToolResult::error(json::join(&[lead, &next.prompt], "")))
}

/// Durable halt: the surfaced request is the first suspension in call
/// order, and every relay call of the turn is merged into its `data.calls`, in call order.
pub fn merge_for_halt(suspended: &[Request]) -> Option<Request> {
    let mut first = suspended.first()?.clone();
    let mut calls: Vec<Value> = Vec::new();
    for r in suspended.iter().filter(|r| r.is_relay()) {
        calls.append(&mut relay_values(r.relay_calls()));
    }
    if !calls.is_empty() {
        first.data.get_or_insert_with(Map::new).insert("calls".into(), Value::Array(calls));
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_functions_over_suspensions() {
        let ids = IdGen::new(Box::new(|| 7));
        let relay = json!({"id": "r1", "kind": "tool_call", "prompt": "p", "data": {"calls": [{"id": "c1", "name": "click", "input": {}, "arguments": "{}"}, 5]}});
        assert!(is_relay_request(Some(&relay)));
        assert!(!is_relay_request(Some(&json!({"kind": "approval"}))) && !is_relay_request(None) && !is_relay_request(Some(&json!([]))));
        let calls = relay_calls_of(Some(&relay)).unwrap();
        assert_eq!(
            calls.as_array().map(|c| (c.len(), c[0]["name"].clone())),
            Some((1, json!("click"))),
            "entries that are not calls are skipped"
        );
        assert_eq!(relay_calls_of(Some(&json!({"kind": "approval", "data": {"calls": [{"id": "c"}]}}))).unwrap(), json!([]));
        assert_eq!(relay_calls_of(None).unwrap_err().code, crate::error::Code::BadInput);
        let answer = relay_answer_of("r1", &json!([{"id": "c1", "output": "ok"}])).unwrap();
        assert_eq!(
            (answer["id"].clone(), answer["ok"].clone(), answer["data"]["results"][0]["output"].clone()),
            (json!("r1"), json!(true), json!("ok"))
        );
        assert!(relay_answer_of("r1", &json!("no")).unwrap_err().message.starts_with("results must be ["));
        let p = pending_of(Some(&json!({"kind": "approval", "prompt": "ok?"})), &ids).unwrap();
        assert!(p["metadata"]["pending"]["id"].as_str().is_some_and(|id| id.starts_with("pnd-")), "{p}");
        assert_eq!(pending_of(None, &ids).unwrap_err().message, "pending(request) must be a Request object");
    }

    #[test]
    fn host_requests_and_answers() {
        let msg = |v: Option<Value>| Request::from_host(v.as_ref(), "request").unwrap_err().message;
        assert_eq!(msg(None), "request must be a Request object");
        assert!(msg(Some(json!([]))).starts_with("request is invalid: "));
        assert_eq!(Request::from_host(Some(&json!({"kind": "tool_call"})), "request").unwrap().kind, "tool_call");
        let e = Answer::from_wait_for(&json!("yes")).unwrap_err();
        assert_eq!(e.code, crate::error::Code::HostCallback);
        assert!(e.message.starts_with("waitFor must resolve to an Answer { id, ok, data? }: "));
        assert!(Answer::from_wait_for(&json!({"id": "r", "ok": true})).unwrap().is_some());
        assert_eq!(Answer::from_wait_for(&Value::Null).unwrap(), None, "nothing is no answer");
    }

    fn ids() -> IdGen {
        IdGen::new(Box::new(|| 1_700_000_000_000))
    }

    #[test]
    fn requests_serialise_with_pinned_keys_and_no_empty_options() {
        let mut d = Map::new();
        d.insert("k".into(), json!("v"));
        let r = Request {
            id: "r1".into(),
            kind: "input".into(),
            prompt: "p".into(),
            url: Some("u".into()),
            data: Some(d.clone()),
            expires_at: Some("2026-01-01T00:00:00Z".into()),
            rerun_on_decline: false,
            call_id: None,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"id":"r1","kind":"input","prompt":"p","url":"u","data":{"k":"v"},"expiresAt":"2026-01-01T00:00:00Z"}"#
        );
        let tagged = r.clone().for_call("c_1");
        assert_eq!(crate::json::to_text(&tagged.to_value()), serde_json::to_string(&tagged).unwrap());
        assert_eq!(Request::from_json(&tagged.to_value(), "pending").unwrap().call_id.as_deref(), Some("c_1"));
        let a = Answer { id: "r1".into(), ok: true, data: Some(d), reason: None };
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"id":"r1","ok":true,"data":{"k":"v"}}"#);
    }

    #[test]
    fn host_shapes_are_read_field_by_field_with_named_errors() {
        let r = Request::from_json(&json!({"id": "r", "kind": "input", "data": {"k": 1}}), "pending").unwrap();
        assert_eq!((r.id.as_str(), r.kind.as_str(), r.url.is_none()), ("r", "input", true));
        assert_eq!(Request::from_json(&json!({"id": 5}), "pending").unwrap_err(), "pending.id must be a string");
        assert_eq!(Request::from_json(&json!([]), "pending").unwrap_err(), "pending must be an object");
        let a = Answer::from_json(&json!({"id": "r", "ok": true}), "answer").unwrap();
        assert!(a.ok && a.data.is_none());
        assert_eq!(Answer::from_json(&json!({"ok": "yes"}), "answer").unwrap_err(), "answer.ok must be a boolean");
        assert!(!Answer::from_json(&json!({}), "answer").unwrap().ok, "a missing ok is a decline");
        assert_eq!(RelayResult::from_json(&json!({"output": "x"}), "r").unwrap_err(), "r.id is required");
        assert_eq!(relay_results_from_json(&json!([{"id": "c", "output": "o"}])).unwrap()[0].output, "o");
        let e = relay_results_from_json(&json!({"id": "c"})).unwrap_err().message;
        assert_eq!(e, "results must be [{ id, output, isError?, parts? }]: not an array");
        assert_eq!(RelayResult::from_json(&json!({"id": "c", "output": {"clicked": true}}), "r").unwrap().output, "{\"clicked\":true}");
    }

    #[test]
    fn pending_generates_ids_and_appends_the_url() {
        let g = ids();
        let r = pending_result(auth_required("https://x", None), &g);
        assert!(r.is_error);
        assert_eq!(r.output, "Authorization required to continue\nhttps://x");
        let ToolOutcome::Suspend(p) = ToolOutcome::from_result(r) else { panic!("not a suspension") };
        assert!(p.id.starts_with("pnd-") && p.id.ends_with("-1"), "{}", p.id);
        assert_eq!(base36(35), "z");
        let mut no_id = pending_result(Request::default(), &g);
        no_id.metadata.as_mut().unwrap().insert("pending".into(), json!({"kind": "input"}));
        assert!(matches!(ToolOutcome::from_result(no_id), ToolOutcome::Result(_)), "a marker without an id is a plain result");
    }

    #[test]
    fn relay_answers_match_by_id_then_shorthand() {
        let mut d = Map::new();
        d.insert("results".into(), json!([{"id": "b", "output": "B", "isError": true}]));
        d.insert("output".into(), json!("short"));
        let a = Answer { id: "r".into(), ok: true, data: Some(d), reason: None };
        assert_eq!(relay_output(&a, "b", false).unwrap(), ToolResult::error("B"));
        assert_eq!(relay_output(&a, "a", true).unwrap(), ToolResult::ok("short"));
        assert!(relay_output(&a, "a", false).is_none());
    }

    #[test]
    fn halt_merges_relay_calls_onto_the_first_suspension() {
        let g = ids();
        let call = |id: &str| ToolCall { id: id.into(), name: "click".into(), arguments: "{\"s\": 1}".into(), signature: None };
        let r1 = relay_request(&call("c1"), &Map::new(), &g);
        let r2 = relay_request(&call("c2"), &Map::new(), &g);
        let merged = merge_for_halt(&[r1.clone(), r2]).unwrap();
        assert_eq!(merged.id, r1.id);
        let calls = merged.relay_calls();
        assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
        assert_eq!(calls[0].arguments, "{\"s\": 1}", "raw arguments pass through");
    }

    #[test]
    fn hand_values_equal_the_derives() {
        let bare = Request { id: "r".into(), kind: "k".into(), prompt: "p".into(), ..Request::default() };
        let mut data = Map::new();
        data.insert("x".into(), Value::from(1));
        let full =
            Request { url: Some("u".into()), data: Some(data), expires_at: Some("e".into()), rerun_on_decline: true, ..bare.clone() };
        for r in [bare, full] {
            assert_eq!(json::to_text(&r.to_value()), serde_json::to_string(&r).unwrap());
        }
        let c = RelayCall { id: "c".into(), name: "n".into(), input: serde_json::json!({"a": [1]}), arguments: "{}".into() };
        assert_eq!(json::to_text(&c.clone().into_value()), serde_json::to_string(&c).unwrap());
        for a in [relay_answer("p", vec![]), Answer { id: "i".into(), ok: false, data: None, reason: Some("declined".into()) }] {
            assert_eq!(a.clone().into_value(), serde_json::to_value(&a).unwrap());
        }
        let r = RelayResult { id: "i".into(), output: "o".into(), is_error: true, parts: vec![] };
        assert_eq!(json::to_text(&r.clone().into_value()), serde_json::to_string(&r).unwrap());
    }
}
