//! A2A outbound: a remote agent's Agent Card lists skills; each becomes a tool (source "a2a",
//! named `<agent>_<skill>`, one `task` argument) whose call sends the task with `SendMessage`
//! (JSON-RPC, returning at once) and polls `GetTask` until the task reaches a terminal state, as
//! the reference does. The wire is A2A 1.0 (protojson: `ROLE_USER`, parts as `{ text }`,
//! `TASK_STATE_*`, a `{ task }` or `{ message }` result); replies in the 0.3 shapes (`kind`,
//! lower-case states, a bare task) are read too. The polling loop's clock and timer are the
//! host's ([`A2aHost`]).

use crate::error::{Code, Error, Result};
use crate::json;
use crate::sources::options::expand_env;
use crate::sources::transport::{SourceRequest, SourceTransport};
use crate::tool::{sanitize_name, ToolResult};
use futures_util::future::LocalBoxFuture;
use serde_json::{Map, Value};

pub const DEFAULT_TIMEOUT_MS: f64 = 300_000.0;
pub const DEFAULT_POLL_MS: f64 = 1_000.0;

/// What the poll loop needs beyond HTTP: time and waiting.
pub trait A2aHost: SourceTransport {
    fn now(&self) -> f64;
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()>;
    /// Whether the call was aborted (checked between polls).
    fn aborted(&self) -> bool;
}

#[derive(Clone, Debug, PartialEq)]
pub struct A2aOptions {
    /// The Agent Card's URL.
    pub card: String,
    pub headers: Vec<(String, String)>,
    pub env: Map<String, Value>,
    pub timeout_ms: f64,
    pub poll_ms: f64,
    /// The largest reply read (`maxBytes`).
    pub max_bytes: usize,
}

/// One skill of the card, with where and how to reach the agent.
#[derive(Clone, Debug, PartialEq)]
pub struct A2aSkill {
    pub agent: String,
    pub id: String,
    pub description: String,
    pub endpoint: String,
    /// The card's JSON-RPC protocol version, sent as `A2A-Version`.
    pub version: Option<String>,
}

impl A2aOptions {
    pub fn from_json(v: &Value) -> Result<A2aOptions> {
        let what = "a2aTools(options)";
        let bad = Error::bad_input;
        let o = json::object(v, what).map_err(bad)?;
        let card = json::opt_str(o, "card", what).map_err(bad)?.unwrap_or_default();
        if !(card.starts_with("http://") || card.starts_with("https://")) {
            return Err(bad(format!("{what}.card must be the http(s) URL of an Agent Card")));
        }
        let mut headers = Vec::new();
        for (k, v) in json::opt_object(o, "headers", what).map_err(bad)?.unwrap_or_default() {
            let v = v.as_str().ok_or_else(|| bad(format!("{what}.headers.{k} must be a string")))?.to_string();
            headers.push((k, v));
        }
        let env = json::opt_object(o, "env", what).map_err(bad)?.unwrap_or_default();
        crate::sources::options::check_headers(&headers, &env, what)?;
        let num = |key: &str, default: f64| crate::sources::options::millis(o.get(key), what, key, default);
        Ok(A2aOptions {
            card,
            headers,
            env,
            timeout_ms: num("timeoutMs", DEFAULT_TIMEOUT_MS)?,
            poll_ms: num("pollEvery", DEFAULT_POLL_MS)?,
            max_bytes: crate::sources::options::max_bytes(o.get("maxBytes"), what)?,
        })
    }

    fn headers(&self) -> Vec<(String, String)> {
        self.headers.iter().map(|(k, v)| (k.clone(), expand_env(v, &self.env))).collect()
    }

    /// The skills of a card: the endpoint is the card's `url`, else its JSON-RPC interface,
    /// else the card URL's origin. An endpoint that is not http(s), or on another origin than
    /// the card while headers are configured, is refused: the card is the agent's word, and the
    /// headers (keys, tokens) were given for the card's origin.
    pub fn skills(&self, card: &Value) -> Result<Vec<A2aSkill>> {
        let agent = card.get("name").and_then(Value::as_str).unwrap_or("agent").to_string();
        let rpc = card.get("supportedInterfaces").and_then(Value::as_array).and_then(|l| {
            l.iter().find(|i| i.get("protocolBinding").and_then(Value::as_str).is_some_and(|b| b.eq_ignore_ascii_case("JSONRPC")))
        });
        let endpoint = card
            .get("url")
            .and_then(Value::as_str)
            .or_else(|| rpc.and_then(|i| i.get("url")).and_then(Value::as_str))
            .map(str::to_string)
            .unwrap_or_else(|| crate::sources::text::resolve(&self.card, "/"));
        let refuse = |why: &str| Error::new(Code::Transport, format!("A2A card {}: the endpoint {why}", self.card));
        if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
            return Err(refuse("is not an http(s) URL"));
        }
        if !self.headers.is_empty() && !crate::sources::text::same_origin(&endpoint, &self.card) {
            return Err(refuse("is on another origin; refused, since the configured headers would go there"));
        }
        let version = rpc.and_then(|i| i.get("protocolVersion")).and_then(Value::as_str).filter(|v| !v.is_empty()).map(str::to_string);
        let mut out = Vec::new();
        for s in card.get("skills").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
            let id = s.get("id").or_else(|| s.get("name")).and_then(Value::as_str).unwrap_or("").to_string();
            let description =
                s.get("description").or_else(|| s.get("name")).and_then(Value::as_str).map_or_else(|| id.clone(), str::to_string);
            out.push(A2aSkill { agent: agent.clone(), id, description, endpoint: endpoint.clone(), version: version.clone() });
        }
        Ok(out)
    }
}

impl A2aSkill {
    pub fn declaration(&self) -> Value {
        let task = json::obj(vec![("type", "string".into()), ("description", "What to ask the agent to do, in plain language.".into())]);
        let schema = json::obj(vec![
            ("type", "object".into()),
            ("properties", json::obj(vec![("task", task)])),
            ("required", Value::Array(vec!["task".into()])),
            ("additionalProperties", false.into()),
        ]);
        let mut name = sanitize_name(&self.agent);
        name.push('_');
        name.push_str(&sanitize_name(&self.id));
        json::obj(vec![
            ("name", name.into()),
            ("description", self.description.as_str().into()),
            ("inputSchema", schema),
            ("source", "a2a".into()),
        ])
    }
}

/// The skills' declarations, in card order, named as MCP listings are: unique and at most 64
/// characters, the same names for the same card.
pub fn declarations(skills: &[A2aSkill]) -> Vec<Value> {
    let mut decls: Vec<Value> = skills.iter().map(A2aSkill::declaration).collect();
    let names = decls.iter().map(|d| d["name"].as_str().unwrap_or("").to_string()).collect();
    for (d, n) in decls.iter_mut().zip(crate::sources::text::unique_names(names)) {
        d["name"] = n.into();
    }
    decls
}

/// GETs the card.
pub async fn fetch_card<H: A2aHost>(host: &H, opts: &A2aOptions) -> Result<Value> {
    let mut headers = vec![("accept".to_string(), "application/json".to_string())];
    headers.extend(opts.headers());
    let req = SourceRequest { method: "GET", url: opts.card.clone(), headers, body: None, stream: false };
    let (status, text) = whole(host, &req).await?;
    if !(200..300).contains(&status) {
        return Err(Error::new(Code::Transport, format!("A2A card {}: HTTP {status}: {}", opts.card, crate::sources::text::cap(&text))));
    }
    crate::sources::text::parse(text.as_bytes())
        .filter(Value::is_object)
        .ok_or_else(|| Error::new(Code::Transport, format!("A2A card {} is not JSON", opts.card)))
}

async fn whole<H: SourceTransport>(host: &H, req: &SourceRequest) -> Result<(u16, String)> {
    let mut res = host.send(req).await?;
    let mut bytes = Vec::new();
    while let Some(c) = res.body.next_chunk().await? {
        bytes.extend_from_slice(&c);
    }
    Ok((res.status, String::from_utf8_lossy(&bytes).into_owned()))
}

async fn rpc<H: A2aHost>(host: &H, opts: &A2aOptions, skill: &A2aSkill, id: u64, method: &str, params: Value) -> Result<Value> {
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(v) = &skill.version {
        headers.push(("A2A-Version".into(), v.clone()));
    }
    headers.extend(opts.headers());
    let req = SourceRequest {
        method: "POST",
        url: skill.endpoint.clone(),
        headers,
        body: Some(crate::sources::rpc::request(id, method, &params)),
        stream: false,
    };
    let (status, text) = whole(host, &req).await?;
    if !(200..300).contains(&status) {
        return Err(Error::new(Code::Transport, format!("HTTP {status}: {text}")));
    }
    let msg = crate::sources::text::parse(text.as_bytes()).unwrap_or(Value::Null);
    if let Some(e) = msg.get("error") {
        let m = e.get("message").and_then(Value::as_str).map(str::to_string);
        return Err(Error::new(
            Code::Transport,
            m.unwrap_or_else(|| format!("JSON-RPC error {}", e.get("code").map(json::to_text).unwrap_or_default())),
        ));
    }
    Ok(msg.get("result").cloned().unwrap_or(Value::Null))
}

/// A state in 0.3 spelling (`completed`, `input-required`) whatever the wire used.
pub fn state_of(task: &Value) -> String {
    let s = task.get("status").and_then(|s| s.get("state")).and_then(Value::as_str).unwrap_or("submitted");
    s.strip_prefix("TASK_STATE_").unwrap_or(s).to_ascii_lowercase().replace('_', "-")
}

fn terminal(state: &str) -> bool {
    matches!(state, "completed" | "failed" | "canceled" | "rejected")
}

fn texts(parts: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    for p in parts.and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
        let kind_ok = p.get("kind").and_then(Value::as_str).map_or(true, |k| k == "text");
        if let (true, Some(t)) = (kind_ok, p.get("text").and_then(Value::as_str)) {
            out.push(t.to_string());
        }
    }
    out
}

fn joined(v: Vec<String>) -> String {
    v.join("\n")
}

/// The answer of a completed task: its artifacts' text, else the last agent message's.
pub fn output_of(task: &Value) -> String {
    let mut parts = Vec::new();
    for a in task.get("artifacts").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
        parts.extend(texts(a.get("parts")));
    }
    if !parts.is_empty() {
        return joined(parts);
    }
    for m in task.get("history").and_then(Value::as_array).map_or(&[][..], Vec::as_slice).iter().rev() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        if role == "agent" || role == "ROLE_AGENT" {
            let t = joined(texts(m.get("parts")));
            if !t.is_empty() {
                return t;
            }
        }
    }
    String::new()
}

/// One call: send the task, poll until it ends, the result the model sees.
pub async fn call<H: A2aHost>(host: &H, opts: &A2aOptions, skill: &A2aSkill, args: &Value, message_id: &str) -> ToolResult {
    let start = host.now();
    let text = args.get("task").filter(|t| !t.is_null()).map(crate::sources::text::js_string).unwrap_or_default();
    let (mut task_id, mut state, mut polls) = (String::new(), "submitted".to_string(), 0u64);
    let result = |out: String, err: bool, task_id: &str, state: &str, polls: u64| {
        let mut meta = Map::new();
        meta.insert("agent".into(), skill.agent.as_str().into());
        meta.insert("taskId".into(), task_id.into());
        meta.insert("state".into(), state.into());
        meta.insert("polls".into(), polls.into());
        meta.insert("ms".into(), (host.now() - start).into());
        ToolResult { output: out, is_error: err, metadata: Some(meta), parts: Vec::new() }
    };
    let part = json::obj(vec![("text", text.into())]);
    let message = json::obj(vec![("messageId", message_id.into()), ("role", "ROLE_USER".into()), ("parts", Value::Array(vec![part]))]);
    // `returnImmediately` (1.0) and `blocking: false` (0.3): answer with the task at once.
    let config = json::obj(vec![("returnImmediately", true.into()), ("blocking", false.into())]);
    let params = json::obj(vec![("message", message), ("configuration", config)]);
    let canceled = |task_id: &str, polls| result(format!("A2A task {task_id} canceled"), true, task_id, "canceled", polls);
    let mut task = match rpc(host, opts, skill, 1, "SendMessage", params).await {
        Ok(r) => r,
        Err(_) if host.aborted() => return canceled(&task_id, polls),
        Err(e) => return result(e.message, true, &task_id, &state, polls),
    };
    // 1.0 wraps the task (or a direct message); 0.3 returns it bare.
    if let Some(m) = task.get("message").filter(|_| task.get("task").is_none()) {
        return result(joined(texts(m.get("parts"))), false, "", "completed", 0);
    }
    if let Some(t) = task.get("task").cloned() {
        task = t;
    }
    // Without its id the task cannot be polled: `GetTask` with "" could answer with another
    // task's result, taken as this one's.
    match task.get("id").and_then(Value::as_str).filter(|id| !id.is_empty()) {
        Some(id) => task_id = id.to_string(),
        None => return result("A2A: the SendMessage reply holds no task id".into(), true, "", &state, polls),
    }
    state = state_of(&task);
    let mut id = 2;
    while !terminal(&state) {
        if host.aborted() {
            return canceled(&task_id, polls);
        }
        if host.now() - start >= opts.timeout_ms {
            let ms = crate::metrics::js_number(opts.timeout_ms);
            let out = format!("A2A task {task_id} timed out after {ms}ms (state={state})");
            return result(out, true, &task_id, &state, polls);
        }
        host.sleep(opts.poll_ms).await;
        if host.aborted() {
            return canceled(&task_id, polls);
        }
        let params = json::obj(vec![("id", task_id.as_str().into())]);
        task = match rpc(host, opts, skill, id, "GetTask", params).await {
            Ok(t) => t.get("task").cloned().unwrap_or(t),
            Err(_) if host.aborted() => return canceled(&task_id, polls),
            Err(e) => return result(e.message, true, &task_id, &state, polls),
        };
        id += 1;
        polls += 1;
        if task.get("id").and_then(Value::as_str) != Some(task_id.as_str()) {
            let out = format!("A2A task {task_id}: GetTask answered with another task (or none)");
            return result(out, true, &task_id, &state, polls);
        }
        state = state_of(&task);
    }
    if state == "completed" {
        return result(output_of(&task), false, &task_id, &state, polls);
    }
    let detail = joined(texts(task.get("status").and_then(|s| s.get("message")).and_then(|m| m.get("parts"))));
    let mut out = format!("A2A task {task_id} {state}");
    if !detail.is_empty() {
        out.push_str(": ");
        out.push_str(&detail);
    }
    result(out, true, &task_id, &state, polls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::WholeBody;
    use crate::sources::transport::SourceResponse;
    use serde_json::json;
    use std::cell::{Cell, RefCell};

    /// The headers and JSON body of one request.
    type Sent = (Vec<(String, String)>, Value);

    /// Answers each POST with the next scripted JSON-RPC result; time moves only when it sleeps.
    struct Agent {
        results: RefCell<Vec<Value>>,
        sent: RefCell<Vec<Sent>>,
        clock: Cell<f64>,
    }

    impl SourceTransport for Agent {
        fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, Result<SourceResponse>> {
            let body: Value = serde_json::from_str(req.body.as_deref().unwrap_or("null")).unwrap();
            let id = body["id"].clone();
            self.sent.borrow_mut().push((req.headers.clone(), body));
            let result = self.results.borrow_mut().remove(0);
            let text = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
            Box::pin(async move {
                Ok(SourceResponse {
                    status: 200,
                    content_type: "application/json".into(),
                    session_id: None,
                    www_authenticate: None,
                    body: Box::new(WholeBody(Some(text.into_bytes()))),
                })
            })
        }
    }

    impl A2aHost for Agent {
        fn now(&self) -> f64 {
            self.clock.get()
        }
        fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
            self.clock.set(self.clock.get() + ms);
            Box::pin(async {})
        }
        fn aborted(&self) -> bool {
            false
        }
    }

    fn agent(results: Vec<Value>) -> Agent {
        Agent { results: RefCell::new(results), sent: RefCell::default(), clock: Cell::new(0.0) }
    }

    fn skill() -> A2aSkill {
        A2aSkill {
            agent: "a".into(),
            id: "s".into(),
            description: String::new(),
            endpoint: "http://h/rpc".into(),
            version: Some("1.0".into()),
        }
    }

    #[test]
    fn skills_are_declared_with_unique_names() {
        let opts = A2aOptions::from_json(&json!({"card": "http://h/card"})).unwrap();
        let card = json!({"name": "a", "url": "http://h/rpc", "skills": [{"id": "s"}, {"id": "s"}, {"id": "x".repeat(100)}]});
        let names: Vec<Value> = declarations(&opts.skills(&card).unwrap()).into_iter().map(|d| d["name"].clone()).collect();
        assert_eq!(names[..2], [json!("a_s"), json!("a_s_2")]);
        assert!(names[2].as_str().unwrap().len() <= 64);
    }

    #[test]
    fn a_task_is_sent_then_polled_until_it_ends() {
        let opts = A2aOptions::from_json(&json!({"card": "http://h/card", "pollEvery": 100, "timeoutMs": 1000})).unwrap();
        let host = agent(vec![
            json!({"task": {"id": "t1", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
            json!({"id": "t1", "status": {"state": "TASK_STATE_WORKING"}}),
            json!({"id": "t1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"parts": [{"text": "done it"}]}]}),
        ]);
        let r = futures_executor::block_on(call(&host, &opts, &skill(), &json!({"task": "do it"}), "m1"));
        assert_eq!((r.output.as_str(), r.is_error), ("done it", false));
        let meta = r.metadata.unwrap();
        assert_eq!(
            (meta["taskId"].as_str(), meta["state"].as_str(), meta["polls"].as_u64(), meta["ms"].as_f64()),
            (Some("t1"), Some("completed"), Some(2), Some(200.0))
        );
        let sent = host.sent.borrow();
        assert_eq!(sent[0].1["method"], "SendMessage");
        assert_eq!(
            sent[0].1["params"],
            json!({"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "do it"}]}, "configuration": {"returnImmediately": true, "blocking": false}})
        );
        assert!(sent[0].0.contains(&("A2A-Version".to_string(), "1.0".to_string())));
        assert_eq!((sent[1].1["method"].as_str(), &sent[1].1["params"]), (Some("GetTask"), &json!({"id": "t1"})));
    }

    #[test]
    fn failures_timeouts_and_direct_messages() {
        let opts = A2aOptions::from_json(&json!({"card": "http://h/card", "pollEvery": 400, "timeoutMs": 1000})).unwrap();
        let failed = agent(vec![
            json!({"id": "t2", "status": {"state": "failed", "message": {"role": "agent", "parts": [{"kind": "text", "text": "no"}]}}}),
        ]);
        let r = futures_executor::block_on(call(&failed, &opts, &skill(), &json!({"task": "x"}), "m"));
        assert_eq!((r.output.as_str(), r.is_error), ("A2A task t2 failed: no", true));
        let stuck = agent(vec![json!({"task": {"id": "t3", "status": {"state": "TASK_STATE_WORKING"}}}); 4]);
        let r = futures_executor::block_on(call(&stuck, &opts, &skill(), &json!({"task": "x"}), "m"));
        assert_eq!((r.output.as_str(), r.is_error), ("A2A task t3 timed out after 1000ms (state=working)", true));
        let direct = agent(vec![json!({"message": {"role": "ROLE_AGENT", "parts": [{"text": "hi"}]}})]);
        let r = futures_executor::block_on(call(&direct, &opts, &skill(), &json!({"task": "x"}), "m"));
        assert_eq!((r.output.as_str(), r.is_error), ("hi", false));
    }

    #[test]
    fn a_reply_without_the_task_id_is_refused() {
        let opts = A2aOptions::from_json(&json!({"card": "http://h/card", "pollEvery": 100, "timeoutMs": 1000})).unwrap();
        for reply in [json!({}), json!(null), json!({"task": {"status": {"state": "TASK_STATE_WORKING"}}}), json!({"id": ""})] {
            let host = agent(vec![
                reply,
                json!({"id": "other", "status": {"state": "completed"}, "artifacts": [{"parts": [{"text": "not yours"}]}]}),
            ]);
            let r = futures_executor::block_on(call(&host, &opts, &skill(), &json!({"task": "x"}), "m"));
            assert_eq!((r.output.as_str(), r.is_error), ("A2A: the SendMessage reply holds no task id", true));
            assert_eq!(host.sent.borrow().len(), 1, "no GetTask for \"\"");
        }
        let host = agent(vec![
            json!({"id": "t1", "status": {"state": "working"}}),
            json!({"id": "t9", "status": {"state": "completed"}, "artifacts": [{"parts": [{"text": "not yours"}]}]}),
        ]);
        let r = futures_executor::block_on(call(&host, &opts, &skill(), &json!({"task": "x"}), "m"));
        assert_eq!((r.output.as_str(), r.is_error), ("A2A task t1: GetTask answered with another task (or none)", true));
    }

    #[test]
    fn cards_give_one_tool_per_skill_and_tasks_read_in_both_spellings() {
        let o = A2aOptions::from_json(&json!({"card": "http://h:1/.well-known/agent-card.json", "pollEvery": 50})).unwrap();
        let card = json!({"name": "Travel Agent", "skills": [{"id": "book.flight", "name": "Book", "description": "Books flights"}, {"name": "plain"}],
                          "supportedInterfaces": [{"url": "http://h:1/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]});
        let skills = o.skills(&card).unwrap();
        assert_eq!((skills[0].endpoint.as_str(), skills[0].version.as_deref()), ("http://h:1/rpc", Some("1.0")));
        assert_eq!(skills[0].declaration()["name"], "Travel_Agent_book_flight");
        assert_eq!(skills[1].declaration()["description"], "plain");
        assert_eq!(o.skills(&json!({"name": "a", "skills": [{"id": "s"}]})).unwrap()[0].endpoint, "http://h:1/");
        // another origin: allowed bare, refused with headers; not http(s): refused
        let far = json!({"name": "a", "url": "https://elsewhere.test/rpc", "skills": [{"id": "s"}]});
        assert!(o.skills(&far).is_ok());
        let keyed = A2aOptions::from_json(&json!({"card": "http://h:1/card", "headers": {"x-key": "k"}})).unwrap();
        assert!(keyed.skills(&far).unwrap_err().message.contains("is on another origin"));
        assert!(keyed.skills(&json!({"url": "http://h:1/rpc", "skills": []})).is_ok());
        assert!(o.skills(&json!({"url": "javascript:alert(1)", "skills": []})).is_err());
        assert_eq!(state_of(&json!({"status": {"state": "TASK_STATE_INPUT_REQUIRED"}})), "input-required");
        assert_eq!(state_of(&json!({"status": {"state": "completed"}})), "completed");
        let t = json!({"artifacts": [{"parts": [{"text": "one"}, {"kind": "data", "data": {}}, {"kind": "text", "text": "two"}]}]});
        assert_eq!(output_of(&t), "one\ntwo");
        let h = json!({"history": [{"role": "ROLE_AGENT", "parts": [{"text": "first"}]}, {"role": "agent", "parts": [{"text": "last"}]}, {"role": "user", "parts": [{"text": "q"}]}]});
        assert_eq!(output_of(&h), "last");
        let o = A2aOptions::from_json(&json!({"card": "http://h/c", "timeoutMs": 500.5, "pollEvery": 0.5})).unwrap();
        assert_eq!((o.timeout_ms, o.poll_ms), (501.0, 1.0), "whole milliseconds, never no deadline");
        assert!(A2aOptions::from_json(&json!({"card": "http://h/c", "timeoutMs": 0})).is_err());
        assert_eq!(
            A2aOptions::from_json(&json!({"card": "x"})).unwrap_err().message,
            "a2aTools(options).card must be the http(s) URL of an Agent Card"
        );
    }
}
