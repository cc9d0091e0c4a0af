//! The MCP entry's edge (built with the `mcp` feature, as its own wasm: `toolnexus-wasm/mcp`):
//! `McpSession` wraps the core's MCP client with a transport over the host's `fetch`. The JS
//! `mcpTools` (pkg-template/mcp/api.js) turns its declarations into ordinary tools for
//! `createToolkit`, so the loop's wasm needs nothing of MCP: a suspension an MCP call returns is
//! the same data `authRequired()` makes.
//!
//! It stands on the loop entry's seam: one host.js in the package serves both wasm modules. A
//! request goes through `callModel` (by way of `mcpSend` in mcp.js, which adds the token), with a
//! signal made as a run's (`runOptions`: the call's signal and the request's deadline as one),
//! its body is read with `readChunk`, waits are `sleep`, and every error is host.js's
//! `ToolnexusError` (`convert::js_error`, the loop's own conversions compiled in here too). What a
//! request carries, where the token may go and how a failure reads are the core's
//! (`crate::sources::mcp::outgoing`).

#[allow(dead_code)] // the loop entry's conversions: this entry uses the error and JSON ones
#[path = "convert.rs"]
mod convert;

use crate::error::{Code, Error, Result};
use crate::http::{ByteStream, WholeBody};
use crate::json;
use crate::sources::mcp::session::Auth;
use crate::sources::mcp::{McpClient, McpOptions};
use crate::sources::outgoing::{failed, outgoing, too_large};
use crate::sources::transport::{SourceRequest, SourceResponse, SourceTransport};
use crate::suspend::{Answer, IdGen};
use convert::{await_js, get, js_error, thrown_message, to_js, JsResult};
use futures_util::future::LocalBoxFuture;
use js_sys::{Array, Promise, Reflect, Uint8Array, JSON};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

// The loop entry's host-I/O helpers. host.rs and client.rs bind them for its wasm; moving those
// bindings to a file both builds compile reordered the default wasm under LTO (+9 B gzip), so
// each wasm binds what it calls.
#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    #[wasm_bindgen(js_name = endRun)]
    fn end_run(signal: &JsValue);
    #[wasm_bindgen(js_name = abortState)]
    fn abort_state(signal: &JsValue) -> u8;
    fn sleep(ms: Option<f64>, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = readChunk)]
    fn read_chunk(reader: &JsValue, max: f64, signal: &JsValue) -> Promise;
}

#[wasm_bindgen(module = "/src/wasm/mcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = mcpOptions, catch)]
    fn mcp_options(o: &JsValue, what: &str) -> std::result::Result<Array, JsValue>;
    /// `runOptions` (host.js) of `{ signal }`: a run's signal for one request or operation.
    #[wasm_bindgen(js_name = mcpSignal, catch)]
    fn mcp_signal(user: &JsValue, ms: Option<f64>) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = mcpSend)]
    #[allow(clippy::too_many_arguments)]
    fn mcp_send(
        f: &JsValue,
        token: &JsValue,
        who: &str,
        url: &str,
        head: &str,
        body: Option<String>,
        signal: &JsValue,
        max: f64,
    ) -> Promise;
    #[wasm_bindgen(js_name = mcpRead)]
    fn mcp_read(b: &JsValue, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = mcpCancel)]
    fn mcp_cancel(b: &JsValue);
    #[wasm_bindgen(js_name = mcpUuid)]
    fn mcp_uuid() -> String;
}

/// A source's options as `[JSON data, fetch, token]`, read by `mcpOptions` (mcp.js); a refusal is
/// `bad_input`.
fn options_of(o: &JsValue, what: &str) -> JsResult<(Value, JsValue, JsValue)> {
    let parts = mcp_options(o, what).map_err(|e| js_error(Error::bad_input(thrown_message(&e))))?;
    let data = crate::sources::text::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
    Ok((data, parts.get(1), parts.get(2)))
}

/// A host value as JSON data; `null` for one that is not.
fn json_of(v: &JsValue) -> Value {
    JSON::stringify(v).ok().and_then(|s| s.as_string()).and_then(|s| crate::sources::text::parse(s.as_bytes())).unwrap_or(Value::Null)
}

/// Data as a JS value (`convert::to_js`, which fails only if `JSON.parse` refused our own output).
fn js(v: &Value) -> JsValue {
    to_js(v).unwrap_or(JsValue::UNDEFINED)
}

/// What the requests of one source share: the host's `fetch` and token callback, names for
/// messages, limits, and a legacy session's reading.
struct Host {
    fetch: JsValue,
    token: JsValue,
    /// Names the source in messages: `MCP server <name>`, `HTTP tool <name>`, ...
    label: String,
    /// An MCP session's server URL; empty for the other sources (no token, no origin rule).
    url: String,
    /// `{ server, url }` as JSON text: what the token callback is asked with.
    who: String,
    timeout_ms: f64,
    /// A reply longer than this is refused (`maxBytes`).
    max_bytes: usize,
    /// A legacy session's long-lived stream is read on behalf of the request POSTed last: its
    /// signal (deadline and abort) and the bytes read for it since. Without it an unanswered
    /// legacy request waited forever.
    reading: RefCell<(JsValue, usize)>,
}

impl Host {
    fn new(fetch: JsValue, label: String, timeout_ms: f64, max_bytes: usize) -> Rc<Host> {
        let (token, url, who, reading) = (JsValue::UNDEFINED, String::new(), String::new(), RefCell::default());
        Rc::new(Host { fetch, token, label, url, who, timeout_ms, max_bytes, reading })
    }

    /// A rejection of `mcpSend` or of a read, by what the request's `signal` and the value say.
    fn failed(&self, e: &JsValue, signal: &JsValue) -> Error {
        let token = get(e, "code").as_string().as_deref() == Some("host_callback");
        failed(&self.label, abort_state(signal), token, &thrown_message(e), self.timeout_ms)
    }
}

/// One operation's transport (a listing, a call, closing): the source's host, the caller's
/// signal, and the signals made for its requests, ended with it (`endRun`), so no deadline timer
/// or listener on the caller's signal outlives the operation. Not ended with a request's body: a
/// legacy session's POST is answered on the long-lived stream, read under the POST's signal after
/// its own (empty) body is gone.
struct Transport {
    host: Rc<Host>,
    /// The caller's signal (a tool call's `ctx.signal`), `undefined` for none.
    user: JsValue,
    made: RefCell<Vec<JsValue>>,
    /// The signal of the operation's waits (A2A's polls), made once.
    waits: RefCell<Option<JsValue>>,
}

impl Transport {
    fn new(host: &Rc<Host>, user: JsValue) -> Transport {
        Transport { host: Rc::clone(host), user, made: RefCell::default(), waits: RefCell::default() }
    }

    /// The caller's signal and a deadline of `ms` as one signal, made as a run's (`runOptions`);
    /// `undefined` when there is neither.
    fn signal(&self, ms: Option<f64>) -> Result<JsValue> {
        let s = mcp_signal(&self.user, ms).map_err(|_| Error::bad_input("ctx.signal must be an AbortSignal"))?;
        if !s.is_undefined() {
            self.made.borrow_mut().push(s.clone());
        }
        Ok(s)
    }

    /// Sends `req` with HTTP method `method` (an HTTP tool's may be any).
    async fn send_as(&self, req: &SourceRequest, method: &str) -> Result<SourceResponse> {
        let h = &self.host;
        let out = outgoing(req, method, &h.url, &h.label)?;
        // A long-lived stream has no deadline and outlives the call that opened it.
        let signal = if req.stream { JsValue::UNDEFINED } else { self.signal(Some(h.timeout_ms))? };
        let token = if out.token { &h.token } else { &JsValue::UNDEFINED };
        let p = mcp_send(&h.fetch, token, &h.who, &req.url, &out.head, req.body.clone(), &signal, h.max_bytes as f64);
        let res: Array = await_js(&p).await.map_err(|e| h.failed(&e, &signal))?.unchecked_into();
        let status = res.get(0).as_f64().unwrap_or(0.0) as u16;
        match status {
            crate::ops::STATUS_NO_RESPONSE => return Err(failed(&h.label, 0, false, "fetch gave no Response", h.timeout_ms)),
            crate::ops::STATUS_TOO_LARGE => return Err(too_large(&h.label, h.max_bytes)),
            _ => {}
        }
        if !req.stream {
            *h.reading.borrow_mut() = (signal.clone(), 0);
        }
        let text = |i: u32| res.get(i).as_string();
        let reader = res.get(4);
        let body: Box<dyn ByteStream> = match reader.as_string() {
            Some(t) if t.len() > h.max_bytes => return Err(too_large(&h.label, h.max_bytes)),
            Some(t) => Box::new(WholeBody(Some(t.into_bytes()))),
            None => Box::new(Body { reader, signal, host: Rc::clone(h), done: false, stream: req.stream }),
        };
        Ok(SourceResponse { status, content_type: text(1).unwrap_or_default(), session_id: text(2), www_authenticate: text(3), body })
    }
}

impl Drop for Transport {
    fn drop(&mut self) {
        for s in self.made.get_mut().iter() {
            end_run(s);
        }
    }
}

impl SourceTransport for Transport {
    fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, Result<SourceResponse>> {
        Box::pin(self.send_as(req, req.method))
    }
    fn random(&self, n: usize) -> Option<Vec<u8>> {
        auth::random(n)
    }
    fn sha256<'a>(&'a self, data: &'a [u8]) -> LocalBoxFuture<'a, Option<Vec<u8>>> {
        auth::sha256(data)
    }
    fn grant<'a>(&'a self, grant: &'a Value) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(auth::grant(self, grant))
    }
}

/// A response body being read. It holds the source's host, not the operation's transport: a
/// legacy session's stream outlives the operation that opened it.
struct Body {
    reader: JsValue,
    /// The request's signal (none for a legacy stream, read under `host.reading`'s).
    signal: JsValue,
    host: Rc<Host>,
    done: bool,
    stream: bool,
}

impl ByteStream for Body {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            if self.done {
                return Ok(None);
            }
            let h = Rc::clone(&self.host);
            // A body is counted in host.js (`readChunk` cancels it past the cap: `false`); the
            // legacy stream here, per request, since it serves one request after another.
            let (p, signal) = match self.stream {
                true => {
                    let signal = h.reading.borrow().0.clone();
                    (mcp_read(&self.reader, &signal), signal)
                }
                false => (read_chunk(&self.reader, h.max_bytes as f64, &self.signal), self.signal.clone()),
            };
            let v = await_js(&p).await.map_err(|e| h.failed(&e, &signal))?;
            if v.is_undefined() || v.as_bool() == Some(false) {
                self.done = true;
                return if v.is_undefined() { Ok(None) } else { Err(too_large(&h.label, h.max_bytes)) };
            }
            // A reader that gave no bytes gave an empty chunk.
            let bytes = v.dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
            if self.stream {
                let mut r = h.reading.borrow_mut();
                r.1 += bytes.len();
                if r.1 > h.max_bytes {
                    return Err(too_large(&h.label, h.max_bytes));
                }
            }
            Ok(Some(bytes))
        })
    }
}

impl Drop for Body {
    /// Stops a stream the client no longer reads (the response it waited for has come).
    fn drop(&mut self) {
        if !self.done {
            mcp_cancel(&self.reader);
        }
    }
}

/// One MCP server: its session, listing and calls. Made by `mcpTools` (pkg-template/mcp/api.js).
#[wasm_bindgen]
pub struct McpSession {
    /// The session shared by every operation (the tool calls of one turn run concurrently), each
    /// over a transport of its own.
    client: McpClient<Transport>,
    host: Rc<Host>,
}

thread_local! {
    static IDS: Rc<IdGen> = Rc::new(IdGen::new(Box::new(|| js_sys::Date::now() as u64)));
}

#[wasm_bindgen]
impl McpSession {
    /// Reads the options (`{ server, url, headers?, env?, timeoutMs?, tools?, fetch?, token? }`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> JsResult<McpSession> {
        let (data, fetch, token) = options_of(&options, "mcpTools(options)")?;
        let opts = McpOptions::from_json(&data).map_err(js_error)?;
        let who = json::to_text(&json::obj(vec![("server", opts.server.as_str().into()), ("url", opts.url.as_str().into())]));
        let host = Rc::new(Host {
            fetch,
            token,
            label: format!("MCP server {}", opts.server),
            url: opts.url.clone(),
            who,
            timeout_ms: opts.timeout_ms,
            max_bytes: opts.max_bytes,
            reading: RefCell::default(),
        });
        let client = McpClient::new(opts, Transport::new(&host, JsValue::UNDEFINED));
        client.remember(crate::sources::mcp::stateless::saved_revision(&data));
        Ok(McpSession { client, host })
    }

    /// The session for one operation, over a transport with the caller's `signal`.
    fn op(&self, signal: JsValue) -> McpClient<Transport> {
        self.client.share(Transport::new(&self.host, signal))
    }

    /// `{ source, tools }`: the server entry as data and each tool's declaration, in the same
    /// order. With `tools` in the options nothing is sent; otherwise the session is opened and
    /// every page listed. A server that asks for authorization here rejects with code
    /// `transport`, `status: 401` and `authRequired`: the request a host would answer.
    pub fn list(&self) -> Promise {
        let client = self.op(JsValue::UNDEFINED);
        future_to_promise(async move {
            let tools = match &client.options.tools {
                Some(t) => t.clone(),
                None => match client.list_tools_at(js_sys::Date::now()).await.map_err(js_error)? {
                    Auth::Ok(t) => t,
                    Auth::Needed(c) => {
                        let req = client.auth_request(&c, &IDS.with(Rc::clone)).await;
                        let mut e = Error::new(Code::Transport, format!("MCP server {} requires authorization", client.options.server));
                        e.status = Some(401);
                        let err = js_error(e);
                        let _ = Reflect::set(&err, &"authRequired".into(), &js(&req.to_value()));
                        return Err(err);
                    }
                },
            };
            let server = &client.options.server;
            let decls = crate::sources::mcp::result::declarations(server, &tools);
            Ok(js(&json::obj(vec![("source", client.source(&tools)), ("tools", Value::Array(decls))])))
        })
    }

    /// Calls tool `name` (the server's own name) with `args`; resolves to a tool result (never
    /// rejects). `answer`: the host's answer when the loop re-runs a call it suspended.
    pub fn call(&self, name: String, args: JsValue, signal: JsValue, answer: JsValue) -> Promise {
        let client = self.op(signal);
        let args: Value = json_of(&args);
        let args = if args.is_object() { args } else { Value::Object(Default::default()) };
        // An answer that is not an object of the Answer shape still counts as one (as before).
        let answer = answer.is_object().then(|| Answer::from_json(&json_of(&answer), "ctx.answer").unwrap_or_default());
        future_to_promise(async move {
            let ids = IDS.with(Rc::clone);
            let r = client.call(&name, args, answer.as_ref(), &ids).await;
            Ok(js(&r.to_value()))
        })
    }

    /// Ends the session with DELETE (when the server gave one).
    pub fn close(&self) -> Promise {
        let client = self.op(JsValue::UNDEFINED);
        future_to_promise(async move {
            client.close().await.map_err(js_error)?;
            Ok(JsValue::UNDEFINED)
        })
    }
}

// The host's part of an authorization request, and `authorizationGrant`.
#[path = "mcp_auth.rs"]
mod auth;
pub use auth::authorization_grant;

// The other tool sources' runners (httpTool, builtinTools, skillTool, a2aTools).
#[path = "mcp_sources.rs"]
mod sources;
pub use sources::{A2aAgent, Builtins, HttpTool, SkillSet};
