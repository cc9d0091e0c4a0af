//! One MCP session over Streamable HTTP, driven through the [`SourceTransport`] seam: every request
//! is a POST of one JSON-RPC message; the reply is a JSON body or an SSE stream holding the
//! response (possibly after the server's notifications). `initialize` may hand out an
//! `Mcp-Session-Id`, sent back on every later request with the negotiated
//! `MCP-Protocol-Version`; a 404 on a request that carried it means the server dropped the
//! session, so the client initialises again and retries once. `close` ends the session with
//! DELETE. Calls may run concurrently: the session state is borrowed only between awaits.

use super::auth::{self, Challenge};
use super::legacy::{Gate, Legacy};
use super::result::{self, McpTool};
use super::stateless::{self, REVISION};
use super::{input, McpOptions, MAX_LIST_PAGES, PROTOCOL_VERSION, SUPPORTED};
use crate::error::{Code, Error, Result};
use crate::http::ByteStream;
use crate::json;
use crate::sse::SseDecoder;
use crate::suspend::{pending_result, Answer, IdGen};
use crate::tool::ToolResult;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

use crate::sources::rpc;
pub use crate::sources::transport::{SourceRequest, SourceResponse, SourceTransport};

/// What an exchange came to when it did not fail: a value, or the server's demand for
/// authorization.
#[derive(Debug, PartialEq)]
pub enum Auth<T> {
    Ok(T),
    Needed(Challenge),
}

enum Reply {
    Value(Value),
    Needed(Challenge),
    /// 404 to a request that carried a session id: the server forgot the session.
    Gone,
    /// 400, 404 or 405 to the first `initialize`: maybe a server of the legacy HTTP+SSE transport.
    Legacy(String),
}

/// What a POST is, for how its refusals read.
#[derive(Clone, Copy, PartialEq)]
enum Post {
    Plain,
    /// The first `initialize`: 400, 404 or 405 may mean the legacy transport.
    Initialize,
    /// `server/discover`: any refusal (an HTTP 4xx or a JSON-RPC error) means an older server.
    Discover,
}

#[derive(Default)]
struct State {
    session_id: Option<String>,
    /// The revision in use: [`REVISION`] (stateless) or the one `initialize` negotiated.
    protocol: Option<String>,
    next_id: u64,
    legacy: Option<Legacy>,
    /// A revision the host saved with the server entry: used without probing again.
    saved: Option<String>,
    /// The stateless revision came from `saved`, not from this session's discovery: a refusal
    /// may mean the server changed, so it is probed again once.
    trusted_saved: bool,
    /// The last listing and when it stops being fresh (the server's `ttlMs`).
    listing: Option<(Vec<McpTool>, f64)>,
}

pub struct McpClient<T> {
    /// Shared with every operation's client ([`McpClient::share`]): a call copies no options (a
    /// kept listing's schemas, `env`) and no headers.
    pub options: Rc<McpOptions>,
    pub transport: T,
    headers: Rc<[(String, String)]>,
    state: Rc<RefCell<State>>,
    /// A legacy session's turn on its one stream.
    gate: Rc<Gate>,
    /// One `initialize` at a time: concurrent first calls share the session it opens.
    opening: Rc<Gate>,
}

impl<T: SourceTransport> McpClient<T> {
    pub fn new(options: McpOptions, transport: T) -> Self {
        let headers = options.expanded_headers().into();
        let options = Rc::new(options);
        McpClient { options, transport, headers, state: Rc::default(), gate: Rc::default(), opening: Rc::default() }
    }

    /// The same session over another transport (the edge gives each call its own abort signal).
    pub fn share<U: SourceTransport>(&self, transport: U) -> McpClient<U> {
        let (options, headers) = (Rc::clone(&self.options), Rc::clone(&self.headers));
        let (gate, opening) = (Rc::clone(&self.gate), Rc::clone(&self.opening));
        McpClient { options, transport, headers, state: Rc::clone(&self.state), gate, opening }
    }

    pub fn is_connected(&self) -> bool {
        self.state.borrow().protocol.is_some()
    }

    pub fn session_id(&self) -> Option<String> {
        self.state.borrow().session_id.clone()
    }

    /// The revision in use, once chosen (else the saved one, if any).
    pub fn protocol(&self) -> Option<String> {
        let s = self.state.borrow();
        s.protocol.clone().or_else(|| s.saved.clone())
    }

    /// Starts from a revision saved with the server entry ([`stateless::saved_revision`]).
    pub fn remember(&self, revision: Option<String>) {
        self.state.borrow_mut().saved = revision;
    }

    /// The server entry as data: [`McpOptions::source`] with the revision in use as `protocol`.
    pub fn source(&self, tools: &[McpTool]) -> Value {
        let mut v = self.options.source(tools);
        if let (Some(p), Value::Object(o)) = (self.protocol(), &mut v) {
            o.insert("protocol".into(), p.into());
        }
        v
    }

    fn stateless(&self) -> bool {
        self.state.borrow().protocol.as_deref() == Some(REVISION)
    }

    fn err(&self, what: &str) -> Error {
        Error::new(Code::Transport, self.named(what))
    }

    /// `what` as a message names it: `MCP server <name>: <what>`.
    fn named(&self, what: &str) -> String {
        format!("MCP server {}: {what}", self.options.server)
    }

    fn request(&self, method: &'static str, body: Option<String>) -> SourceRequest {
        let s = self.state.borrow();
        let mut headers = Vec::with_capacity(self.headers.len() + 4);
        if body.is_some() {
            headers.push(("content-type".into(), "application/json".into()));
            headers.push(("accept".into(), "application/json, text/event-stream".into()));
        }
        if let Some(id) = &s.session_id {
            headers.push(("mcp-session-id".into(), id.clone()));
        }
        if let Some(v) = &s.protocol {
            headers.push(("mcp-protocol-version".into(), v.clone()));
        }
        headers.extend(self.headers.iter().cloned());
        let url = s.legacy.as_ref().map_or_else(|| self.options.url.clone(), |l| l.endpoint.clone());
        SourceRequest { method, url, headers, body, stream: false }
    }

    /// POSTs one message with `extra` headers; `id` is the request's (none for a notification).
    async fn post(&self, body: String, id: Option<u64>, what: &str, kind: Post, extra: Vec<(String, String)>) -> Result<Reply> {
        let (initialize, discover) = (kind == Post::Initialize, kind == Post::Discover);
        let legacy = self.state.borrow().legacy.is_some();
        // A legacy session's responses share one stream: one request at a time reads it.
        let _turn = if legacy { Some(self.gate.acquire().await) } else { None };
        let mut req = self.request("POST", Some(body));
        req.headers.extend(extra);
        let had_session = req.headers.iter().any(|(k, _)| k == "mcp-session-id");
        let mut res = self.transport.send(&req).await?;
        if let Some(c) = challenge(&res) {
            return Ok(Reply::Needed(c));
        }
        if res.status == 404 && had_session {
            return Ok(Reply::Gone);
        }
        if !(200..300).contains(&res.status) {
            let text = read_all(res.body.as_mut()).await.unwrap_or_default();
            let status = res.status.to_string();
            let body = crate::sources::text::cap(String::from_utf8_lossy(&text).trim());
            let message = format!("{what}: HTTP {status}: {body}");
            if (initialize && !legacy && matches!(res.status, 400 | 404 | 405)) || (discover && res.status < 500) {
                return Ok(Reply::Legacy(message));
            }
            // A saved stateless revision the server no longer takes: probe again (once).
            let stale = self.stateless() && self.state.borrow().trusted_saved;
            if stale && matches!(res.status, 400 | 404 | 405) {
                return Ok(Reply::Gone);
            }
            return Err(self.err(&message));
        }
        if legacy {
            drop(res); // a legacy POST is only accepted (202); the answer comes on the stream
            let Some(id) = id else { return Ok(Reply::Value(Value::Null)) };
            return self.legacy_response(id, what).await.map(Reply::Value);
        }
        if initialize {
            self.state.borrow_mut().session_id = res.session_id.clone().filter(|s| !s.is_empty());
        }
        let Some(id) = id else { return Ok(Reply::Value(Value::Null)) };
        let named = || self.named(what);
        let found = if res.content_type.starts_with("text/event-stream") {
            self.read_sse(res.body.as_mut(), id, &named).await?
        } else {
            let text = read_all(res.body.as_mut()).await?;
            let mut msg = crate::sources::text::parse(&text).ok_or_else(|| self.err(&format!("{what}: the reply is not JSON")))?;
            rpc::response_to(&mut msg, id, &named)
        };
        match found {
            Some(Err(e)) if discover => Ok(Reply::Legacy(e.message)),
            Some(r) => r.map(Reply::Value),
            None if discover => Ok(Reply::Legacy(format!("no response to {what}"))),
            None => Err(self.err(&format!("no response to {what}"))),
        }
    }

    /// Forgets the session (ids keep counting, so a late reply can never match a new request).
    fn reset(&self) {
        let mut s = self.state.borrow_mut();
        s.session_id = None;
        s.protocol = None;
        s.legacy = None; // dropping the stream cancels it
        s.trusted_saved = false;
    }

    fn next_id(&self) -> u64 {
        let mut s = self.state.borrow_mut();
        let id = s.next_id;
        s.next_id += 1;
        id
    }

    /// `initialize`, then `notifications/initialized`.
    pub async fn connect(&self) -> Result<Auth<()>> {
        self.reset();
        let id = self.next_id();
        let client = json::obj(vec![("name", "toolnexus-wasm".into()), ("version", env!("CARGO_PKG_VERSION").into())]);
        let params = json::obj(vec![
            ("protocolVersion", PROTOCOL_VERSION.into()),
            ("capabilities", Value::Object(Map::new())),
            ("clientInfo", client),
        ]);
        let body = rpc::request(id, "initialize", &params);
        let result = match self.post(body.clone(), Some(id), "initialize", Post::Initialize, Vec::new()).await? {
            Reply::Value(v) => v,
            Reply::Needed(c) => return Ok(Auth::Needed(c)),
            Reply::Gone => return Err(self.err("initialize: HTTP 404")),
            Reply::Legacy(refusal) => {
                if let Auth::Needed(c) = self.legacy_open(&refusal).await? {
                    return Ok(Auth::Needed(c));
                }
                match self.post(body, Some(id), "initialize", Post::Initialize, Vec::new()).await? {
                    Reply::Value(v) => v,
                    Reply::Needed(c) => return Ok(Auth::Needed(c)),
                    _ => return Err(self.err("initialize: the legacy server refused it")),
                }
            }
        };
        let version = result.get("protocolVersion").and_then(Value::as_str).unwrap_or("");
        if !SUPPORTED.contains(&version) {
            return Err(self.err(&format!("unsupported protocol version \"{version}\"")));
        }
        self.state.borrow_mut().protocol = Some(version.to_string());
        let note = rpc::notification("notifications/initialized");
        match self.post(note, None, "notifications/initialized", Post::Plain, Vec::new()).await? {
            Reply::Needed(c) => Ok(Auth::Needed(c)),
            _ => Ok(Auth::Ok(())),
        }
    }

    /// `server/discover`: whether the server speaks the stateless revision. An older server
    /// refuses it in one of several ways (HTTP 400 for an unknown version or a missing session,
    /// -32601): each means "initialize instead".
    pub async fn discover(&self) -> Result<Auth<bool>> {
        let id = self.next_id();
        let body = stateless::request(id, "server/discover", &Value::Object(Map::new()));
        let mut extra = stateless::headers("server/discover", &Value::Null);
        extra.push(("mcp-protocol-version".into(), REVISION.into()));
        Ok(match self.post(body, Some(id), "server/discover", Post::Discover, extra).await? {
            Reply::Value(v) => Auth::Ok(stateless::offers_revision(&v)),
            Reply::Needed(c) => Auth::Needed(c),
            Reply::Gone | Reply::Legacy(_) => Auth::Ok(false),
        })
    }

    /// Chooses the revision: a saved one as it is, else the stateless one when discovery offers
    /// it, else `initialize` (which falls back to the legacy transport by itself).
    async fn open(&self) -> Result<Auth<()>> {
        let saved = self.state.borrow_mut().saved.take();
        let stateless = match saved.as_deref() {
            Some(REVISION) => {
                self.state.borrow_mut().trusted_saved = true;
                true
            }
            Some(_) => false,
            None => match self.discover().await? {
                Auth::Ok(offered) => offered,
                Auth::Needed(c) => {
                    self.state.borrow_mut().saved = saved;
                    return Ok(Auth::Needed(c));
                }
            },
        };
        if !stateless {
            return self.connect().await;
        }
        let mut s = self.state.borrow_mut();
        s.protocol = Some(REVISION.into());
        s.session_id = None;
        Ok(Auth::Ok(()))
    }

    /// One request, choosing the revision (and connecting, for a session revision) first when
    /// needed, and once more when the server dropped the session.
    pub async fn rpc(&self, method: &str, params: Value) -> Result<Auth<Value>> {
        for attempt in 0..2 {
            if !self.is_connected() {
                let _turn = self.opening.acquire().await;
                // Another call may have opened the session while this one waited.
                if !self.is_connected() {
                    if let Auth::Needed(c) = self.open().await? {
                        return Ok(Auth::Needed(c));
                    }
                }
            }
            let id = self.next_id();
            let (body, extra) = if self.stateless() {
                (stateless::request(id, method, &params), stateless::headers(method, &params))
            } else {
                (rpc::request(id, method, &params), Vec::new())
            };
            match self.post(body, Some(id), method, Post::Plain, extra).await? {
                Reply::Value(v) => return Ok(Auth::Ok(v)),
                Reply::Needed(c) => return Ok(Auth::Needed(c)),
                Reply::Gone if attempt == 0 => {
                    let mut s = self.state.borrow_mut();
                    // A lost session is opened again without probing; a stale saved revision is probed.
                    let old = s.protocol.take().filter(|p| p != REVISION);
                    s.saved = old;
                    s.trusted_saved = false;
                }
                Reply::Gone | Reply::Legacy(_) => {}
            }
        }
        Err(self.err(&format!("{method}: the session was lost twice (HTTP 404)")))
    }

    /// Opens the legacy transport's event stream (GET on the server URL) and waits for its
    /// `endpoint` event. `refusal` is what the Streamable HTTP attempt got, for the error when
    /// this fails too.
    async fn legacy_open(&self, refusal: &str) -> Result<Auth<()>> {
        let mut headers = vec![("accept".to_string(), "text/event-stream".to_string())];
        headers.extend(self.headers.iter().cloned());
        let req = SourceRequest { method: "GET", url: self.options.url.clone(), headers, body: None, stream: true };
        let mut res = self.transport.send(&req).await?;
        if let Some(c) = challenge(&res) {
            return Ok(Auth::Needed(c));
        }
        if !(200..300).contains(&res.status) || !res.content_type.starts_with("text/event-stream") {
            let status = res.status.to_string();
            return Err(self.err(&format!("{refusal} (and no legacy HTTP+SSE stream: GET HTTP {status})")));
        }
        let mut decoder = SseDecoder::new();
        let mut queue = Vec::new();
        let endpoint = loop {
            let Some(chunk) = res.body.next_chunk().await? else {
                return Err(self.err("the legacy SSE stream ended before its endpoint event"));
            };
            queue.extend(decoder.push(&chunk));
            if let Some(at) = queue.iter().position(|e| e.event.as_deref() == Some("endpoint")) {
                let ev = queue.remove(at);
                queue.drain(..at);
                break crate::sources::text::resolve(&self.options.url, &ev.data);
            }
        };
        self.state.borrow_mut().legacy = Some(Legacy { endpoint, stream: Some(res.body), decoder, queue });
        Ok(Auth::Ok(()))
    }

    /// Reads the legacy stream until the response to `id`; the caller holds the turn.
    async fn legacy_response(&self, id: u64, what: &str) -> Result<Value> {
        let named = || self.named(what);
        loop {
            let next = {
                let mut s = self.state.borrow_mut();
                let l = s.legacy.as_mut().ok_or_else(|| self.err("the legacy session is closed"))?;
                if l.queue.is_empty() {
                    None
                } else {
                    Some(l.queue.remove(0))
                }
            };
            if let Some(ev) = next {
                if ev.event.as_deref().map_or(true, |e| e == "message") {
                    let msg = crate::sources::text::parse(ev.data.as_bytes());
                    if let Some(r) = msg.and_then(|mut m| rpc::response_to(&mut m, id, &named)) {
                        return r;
                    }
                }
                continue;
            }
            let stream = self.state.borrow_mut().legacy.as_mut().and_then(|l| l.stream.take());
            let Some(mut stream) = stream else { return Err(self.err("the legacy session is closed")) };
            let chunk = stream.next_chunk().await;
            let mut s = self.state.borrow_mut();
            match (chunk, s.legacy.as_mut()) {
                (Ok(Some(bytes)), Some(l)) => {
                    let events = l.decoder.push(&bytes);
                    l.queue.extend(events);
                    l.stream = Some(stream);
                }
                (Err(e), _) => {
                    s.legacy = None;
                    s.protocol = None;
                    return Err(e);
                }
                _ => {
                    s.legacy = None;
                    s.protocol = None;
                    return Err(self.err(&format!("{what}: the legacy SSE stream ended")));
                }
            }
        }
    }

    /// Reads SSE events until the response to `id` arrives; the rest of the stream is dropped.
    /// A request the server makes meanwhile is answered at once: `ping` with an empty result,
    /// anything else (this client declares no capabilities) with "method not found", so the
    /// server never waits on it.
    async fn read_sse(&self, body: &mut dyn ByteStream, id: u64, what: &dyn Fn() -> String) -> Result<Option<Result<Value>>> {
        let mut decoder = SseDecoder::new();
        while let Some(chunk) = body.next_chunk().await? {
            for ev in decoder.push(&chunk) {
                if ev.event.as_deref().is_some_and(|e| e != "message") {
                    continue;
                }
                let Some(mut msg) = crate::sources::text::parse(ev.data.as_bytes()) else { continue };
                if let Some(r) = rpc::response_to(&mut msg, id, what) {
                    return Ok(Some(r));
                }
                if let (Some(method), Some(req_id)) = (msg.get("method").and_then(Value::as_str), msg.get("id")) {
                    let reply = rpc::reply_to_server(req_id, method);
                    // Best effort: a failed reply must not fail the call it arrived in.
                    let _ = self.transport.send(&self.request("POST", Some(reply))).await;
                }
            }
        }
        Ok(None)
    }

    /// The listing, reused while the server's `ttlMs` says it is fresh (`now`: the host's clock,
    /// in ms). A listing without a positive `ttlMs` is not kept.
    pub async fn list_tools_at(&self, now: f64) -> Result<Auth<Vec<McpTool>>> {
        if let Some((tools, until)) = &self.state.borrow().listing {
            if now < *until {
                return Ok(Auth::Ok(tools.clone()));
            }
        }
        let (tools, ttl) = match self.list_pages().await? {
            Auth::Ok(t) => t,
            Auth::Needed(c) => return Ok(Auth::Needed(c)),
        };
        self.state.borrow_mut().listing = (ttl > 0.0).then(|| (tools.clone(), now + ttl));
        Ok(Auth::Ok(tools))
    }

    /// Every page of `tools/list`, never from the cache.
    pub async fn list_tools(&self) -> Result<Auth<Vec<McpTool>>> {
        Ok(match self.list_pages().await? {
            Auth::Ok((tools, _)) => Auth::Ok(tools),
            Auth::Needed(c) => Auth::Needed(c),
        })
    }

    /// Every page, and the shortest `ttlMs` among them (0: not cacheable).
    async fn list_pages(&self) -> Result<Auth<(Vec<McpTool>, f64)>> {
        let mut ttl = f64::INFINITY;
        let mut tools = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_LIST_PAGES {
            let params = match &cursor {
                Some(c) => json::obj(vec![("cursor", c.as_str().into())]),
                None => Value::Object(Map::new()),
            };
            let page = match self.rpc("tools/list", params).await? {
                Auth::Ok(v) => v,
                Auth::Needed(c) => return Ok(Auth::Needed(c)),
            };
            for t in page.get("tools").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
                tools.extend(McpTool::from_listing(t));
            }
            ttl = ttl.min(stateless::ttl_ms(&page));
            match page.get("nextCursor").and_then(Value::as_str) {
                None => return Ok(Auth::Ok((tools, ttl))),
                Some(next) if seen.iter().any(|s| s == next) => {
                    return Err(self.err(&format!("tools/list returned a cursor twice: {next}")));
                }
                Some(next) => {
                    seen.push(next.to_string());
                    cursor = Some(next.to_string());
                }
            }
        }
        Err(self.err("tools/list has more than 1000 pages"))
    }

    /// `tools/call` as the tool result the model sees. A server's questions (`input_required`)
    /// suspend the call ([`input`]); the host's answer is sent with the retry, which may ask
    /// again. A demand for authorization suspends the call, unless it is the retry after the host
    /// answered one: then the server refused what the host obtained, and the model is told so
    /// instead of asking again. An answer carrying the browser's callback URL is checked first
    /// and its code handed to the host ([`auth::flow::answered`]); a refused one ends the call.
    pub async fn call(&self, name: &str, args: Value, answer: Option<&Answer>, ids: &IdGen) -> ToolResult {
        let mut fields = vec![("name", name.into()), ("arguments", args)];
        let server = self.options.server.as_str();
        if let Some(end) = auth::discover::hand_over(&self.transport, server, answer).await {
            return end;
        }
        let retry = answer.and_then(input::retry_params);
        let answered = answer.is_some() && retry.is_none();
        match retry {
            Some(Err(why)) => return result::failed(server, format!("MCP server {server}: {why}")),
            Some(Ok(more)) => fields.extend(more),
            None => {}
        }
        match self.rpc("tools/call", json::obj(fields)).await {
            Ok(Auth::Ok(v)) if stateless::is_input_required(&v) => pending_result(input::suspension(server, &v, ids), ids),
            Ok(Auth::Ok(v)) => result::call_result(server, &v),
            Ok(Auth::Needed(_)) if answered => {
                result::failed(server, format!("MCP server {server} refused the authorization it asked for"))
            }
            Ok(Auth::Needed(c)) => pending_result(self.auth_request(&c, ids).await, ids),
            Err(e) => result::failed(server, e.message),
        }
    }

    /// The suspension for a challenge, its id from `ids`: what discovery found, and a ready
    /// authorization URL when the host configured a client ([`auth::discover`]).
    pub async fn auth_request(&self, c: &Challenge, ids: &IdGen) -> crate::suspend::Request {
        auth::discover::authorization(&self.transport, &self.options, c, ids).await
    }

    /// Ends the session (DELETE with its id). A server that does not allow it (405), already
    /// forgot it (404) or refuses the credentials (401, 403) leaves it to expire there: nothing
    /// the host could do about it.
    pub async fn close(&self) -> Result<()> {
        let mut req = self.request("DELETE", None);
        req.url = self.options.url.clone();
        let had = self.state.borrow().session_id.is_some();
        self.reset();
        if !had {
            return Ok(());
        }
        let res = self.transport.send(&req).await?;
        if (200..300).contains(&res.status) || matches!(res.status, 401 | 403 | 404 | 405) {
            return Ok(());
        }
        Err(self.err(&format!("DELETE: HTTP {}", res.status)))
    }
}

/// A 401 (or a 403 naming a bearer challenge, as a server asking for more scope does).
fn challenge(res: &SourceResponse) -> Option<Challenge> {
    let header = res.www_authenticate.as_deref().unwrap_or("");
    match res.status {
        401 => Some(auth::parse_challenge(header)),
        403 if crate::small::find(&header.to_ascii_lowercase(), "bearer").is_some() => Some(auth::parse_challenge(header)),
        _ => None,
    }
}

async fn read_all(body: &mut dyn ByteStream) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(chunk) = body.next_chunk().await? {
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}
