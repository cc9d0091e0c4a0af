//! The MCP entry's edge (built with the `mcp` feature, as its own wasm: `toolnexus-wasm/mcp`):
//! `McpSession` wraps the core's MCP client with a transport over the host's `fetch`
//! (src/wasm/mcp.js). The JS `mcpTools` (pkg-template/mcp/api.js) turns its declarations into
//! ordinary tools for `createToolkit`, so the loop's wasm needs nothing of MCP: a suspension an
//! MCP call returns is the same data `authRequired()` makes.

use crate::driver::{ByteStream, WholeBody};
use crate::error::{Code, Error, Result};
use crate::json;
use crate::mcp::session::Auth;
use crate::mcp::{McpClient, McpOptions, McpRequest, McpResponse, McpTransport};
use crate::suspend::{Answer, IdGen};
use futures_util::future::LocalBoxFuture;
use js_sys::{Array, Promise, Reflect, Uint8Array, JSON};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(module = "/src/wasm/mcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = mcpOptions, catch)]
    fn mcp_options(o: &JsValue, what: &str) -> std::result::Result<Array, JsValue>;
    #[wasm_bindgen(js_name = mcpSend)]
    #[allow(clippy::too_many_arguments)]
    fn mcp_send(
        f: &JsValue,
        token: &JsValue,
        who: &str,
        auth: bool,
        method: &str,
        url: &str,
        headers: &str,
        body: Option<String>,
        signal: &JsValue,
        ms: f64,
    ) -> Promise;
    #[wasm_bindgen(js_name = mcpRead)]
    fn mcp_read(b: &JsValue, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = mcpCancel)]
    fn mcp_cancel(b: &JsValue);
    #[wasm_bindgen(js_name = mcpSleep)]
    fn mcp_sleep(ms: f64, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = mcpAborted)]
    fn mcp_aborted(signal: &JsValue) -> bool;
    #[wasm_bindgen(js_name = mcpUuid)]
    fn mcp_uuid() -> String;
}

type JsResult<T> = std::result::Result<T, JsValue>;

/// A `ToolnexusError` with its stable `code`, as the loop's entry makes them.
/// Awaits `p`, a native Promise from mcp.js (`Ok` its value, `Err` what it rejected with).
fn settle(p: &JsValue) -> wasm_bindgen_futures::JsFuture {
    wasm_bindgen_futures::JsFuture::from(Promise::unchecked_from_js(p.clone()))
}

fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("ToolnexusError");
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    if let Some(s) = e.status {
        let _ = Reflect::set(&err, &"status".into(), &JsValue::from(s));
    }
    err.into()
}

fn to_js(v: &Value) -> JsValue {
    JSON::parse(&json::to_text(v)).unwrap_or(JsValue::UNDEFINED)
}

/// `fetch` for one session; `signal` is the tool call's (`undefined` outside calls).
struct Fetch {
    fetch: JsValue,
    token: JsValue,
    /// Names the source in messages: `MCP server <name>` or `HTTP tool <name>`.
    label: String,
    url: String,
    /// `{ server, url }` as JSON text: what the token callback is asked with.
    who: String,
    timeout_ms: f64,
    signal: JsValue,
    /// A reply longer than this is refused (`maxBytes`).
    max_bytes: usize,
    /// A legacy session's long-lived stream is read on behalf of the request POSTed last: its
    /// signal (deadline and abort) and the bytes read for it since. Shared by the session's
    /// transports; without it an unanswered legacy request waited forever.
    reading: Rc<std::cell::RefCell<(JsValue, usize)>>,
}

impl Fetch {
    /// A rejection of mcp.js (`[kind, message]`) as an error naming the server.
    fn failed(&self, e: &JsValue) -> Error {
        let kind = Reflect::get(e, &0.into()).ok().and_then(|k| k.as_f64()).unwrap_or(0.0) as u8;
        let msg = Reflect::get(e, &1.into()).ok().and_then(|m| m.as_string()).unwrap_or_default();
        let head = json::join(&[&self.label, ": "], "");
        match kind {
            1 => Error::new(Code::Aborted, head + "aborted"),
            2 => Error::new(Code::Aborted, head + "timeout after " + &crate::metrics::js_number(self.timeout_ms) + "ms"),
            3 => Error::new(Code::HostCallback, head + "the token callback failed: " + &msg),
            _ => Error::new(Code::Transport, head + "fetch failed: " + &msg),
        }
    }

    fn too_large(&self) -> Error {
        let n = self.max_bytes.to_string();
        Error::new(Code::Transport, json::join(&[&self.label, ": the reply is larger than maxBytes (", &n, " bytes)"], ""))
    }
}

struct Body {
    reader: JsValue,
    signal: JsValue,
    fetch: Rc<Fetch>,
    done: bool,
    /// Bytes read so far (a long-lived stream counts in `fetch.reading` instead).
    read: usize,
    stream: bool,
}

impl ByteStream for Body {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            if self.done {
                return Ok(None);
            }
            let signal = if self.stream { self.fetch.reading.borrow().0.clone() } else { self.signal.clone() };
            let v = settle(&mcp_read(&self.reader, &signal)).await.map_err(|e| self.fetch.failed(&e))?;
            if v.is_undefined() || v.is_null() {
                self.done = true;
                return Ok(None);
            }
            let bytes = v.dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
            let total = if self.stream {
                let mut r = self.fetch.reading.borrow_mut();
                r.1 += bytes.len();
                r.1
            } else {
                self.read += bytes.len();
                self.read
            };
            if total > self.fetch.max_bytes {
                return Err(self.fetch.too_large());
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

struct Transport(Rc<Fetch>);

impl McpTransport for Transport {
    fn send<'a>(&'a self, req: &'a McpRequest) -> LocalBoxFuture<'a, Result<McpResponse>> {
        Box::pin(self.send_as(req, req.method))
    }
}

impl Transport {
    /// Sends `req` with HTTP method `method` (an HTTP tool's may be any).
    async fn send_as(&self, req: &McpRequest, method: &str) -> Result<McpResponse> {
        {
            let f = &self.0;
            let mut head = String::from("{");
            for (i, (k, v)) in req.headers.iter().enumerate() {
                head.push_str(if i > 0 { "," } else { "" });
                json::write_str(&mut head, k);
                head.push(':');
                json::write_str(&mut head, v);
            }
            head.push('}');
            // The bearer token goes only to the server itself
            // (and to a legacy server's message endpoint on its origin), never to a metadata document.
            let same_origin = || crate::mcp::legacy::resolve(&req.url, "/") == crate::mcp::legacy::resolve(&f.url, "/");
            let auth = !f.url.is_empty() && (req.url == f.url || (method == "POST" && same_origin()));
            // A session POSTs only to its server's origin: a legacy `endpoint` event naming another
            // one would receive the configured headers (keys, tokens), so it is refused.
            if !f.url.is_empty() && method == "POST" && !crate::mcp::legacy::same_origin(&req.url, &f.url) {
                return Err(Error::new(Code::Transport, json::join(&[&f.label, ": the endpoint is on another origin; refused"], "")));
            }
            // A long-lived stream has no deadline and outlives the call that opened it.
            let (signal, ms) = if req.stream { (JsValue::UNDEFINED, 0.0) } else { (f.signal.clone(), f.timeout_ms) };
            let p = mcp_send(&f.fetch, &f.token, &f.who, auth, method, &req.url, &head, req.body.clone(), &signal, ms);
            let out: Array = settle(&p).await.map_err(|e| f.failed(&e))?.unchecked_into();
            if !req.stream {
                *f.reading.borrow_mut() = (out.get(5), 0);
            }
            let text = |i: u32| out.get(i).as_string();
            let reader = out.get(4);
            let body: Box<dyn ByteStream> = match reader.as_string() {
                Some(t) if t.len() > f.max_bytes => return Err(f.too_large()),
                Some(t) => Box::new(WholeBody(Some(t.into_bytes()))),
                None => Box::new(Body { reader, signal: out.get(5), fetch: Rc::clone(f), done: false, read: 0, stream: req.stream }),
            };
            Ok(McpResponse {
                status: out.get(0).as_f64().unwrap_or(0.0) as u16,
                content_type: text(1).unwrap_or_default(),
                session_id: text(2),
                www_authenticate: text(3),
                body,
            })
        }
    }
}

/// One MCP server: its session, listing and calls. Made by `mcpTools` (pkg-template/mcp/api.js).
#[wasm_bindgen]
pub struct McpSession {
    /// The session shared by every call (the tool calls of one turn run concurrently).
    client: Rc<McpClient<Transport>>,
    base: Rc<Fetch>,
}

thread_local! {
    static IDS: Rc<IdGen> = Rc::new(IdGen::new(Box::new(|| js_sys::Date::now() as u64)));
}

#[wasm_bindgen]
impl McpSession {
    /// Reads the options (`{ server, url, headers?, env?, timeoutMs?, tools?, fetch?, token? }`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> JsResult<McpSession> {
        let parts =
            mcp_options(&options, "mcpTools(options)").map_err(|e| js_error(Error::bad_input(e.as_string().unwrap_or_default())))?;
        let data: Value = crate::mcp::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
        let opts = McpOptions::from_json(&data).map_err(js_error)?;
        let who = json::to_text(&json::obj(vec![("server", opts.server.as_str().into()), ("url", opts.url.as_str().into())]));
        let base = Rc::new(Fetch {
            fetch: parts.get(1),
            token: parts.get(2),
            label: json::join(&["MCP server ", &opts.server], ""),
            url: opts.url.clone(),
            who,
            timeout_ms: opts.timeout_ms,
            signal: JsValue::UNDEFINED,
            max_bytes: opts.max_bytes,
            reading: Rc::default(),
        });
        let client = Rc::new(McpClient::new(opts, Transport(Rc::clone(&base))));
        client.remember(crate::mcp::stateless::saved_revision(&data));
        Ok(McpSession { client, base })
    }

    /// A client for one call: the same session, this call's signal.
    fn with_signal(&self, signal: JsValue) -> Rc<McpClient<Transport>> {
        if signal.is_undefined() || signal.is_null() {
            return Rc::clone(&self.client);
        }
        let b = &self.base;
        let fetch = Rc::new(Fetch {
            fetch: b.fetch.clone(),
            token: b.token.clone(),
            label: b.label.clone(),
            url: b.url.clone(),
            who: b.who.clone(),
            timeout_ms: b.timeout_ms,
            signal,
            max_bytes: b.max_bytes,
            reading: Rc::clone(&b.reading),
        });
        Rc::new(self.client.share(Transport(fetch)))
    }

    /// `{ source, tools }`: the server entry as data and each tool's declaration, in the same
    /// order. With `tools` in the options nothing is sent; otherwise the session is opened and
    /// every page listed. A server that asks for authorization here rejects with code
    /// `transport`, `status: 401` and `authRequired`: the request a host would answer.
    pub fn list(&self) -> Promise {
        let client = Rc::clone(&self.client);
        future_to_promise(async move {
            let tools = match &client.options.tools {
                Some(t) => t.clone(),
                None => match client.list_tools_at(js_sys::Date::now()).await.map_err(js_error)? {
                    Auth::Ok(t) => t,
                    Auth::Needed(c) => {
                        let mut req = client.auth_request(&c).await;
                        req.id = IDS.with(|ids| ids.next());
                        let mut e = Error::new(
                            Code::Transport,
                            json::join(&["MCP server ", &client.options.server, " requires authorization"], ""),
                        );
                        e.status = Some(401);
                        let err = js_error(e);
                        let _ = Reflect::set(&err, &"authRequired".into(), &to_js(&req.to_value()));
                        return Err(err);
                    }
                },
            };
            let server = &client.options.server;
            let decls = crate::mcp::result::declarations(server, &tools);
            Ok(to_js(&json::obj(vec![("source", client.source(&tools)), ("tools", Value::Array(decls))])))
        })
    }

    /// Calls tool `name` (the server's own name) with `args`; resolves to a tool result (never
    /// rejects). `answer`: the host's answer when the loop re-runs a call it suspended.
    pub fn call(&self, name: String, args: JsValue, signal: JsValue, answer: JsValue) -> Promise {
        let client = self.with_signal(signal);
        let args: Value = json_of(&args);
        let args = if args.is_object() { args } else { Value::Object(Default::default()) };
        // An answer that is not an object of the Answer shape still counts as one (as before).
        let answer = answer.is_object().then(|| Answer::from_json(&json_of(&answer), "ctx.answer").unwrap_or_default());
        future_to_promise(async move {
            let ids = IDS.with(Rc::clone);
            let r = client.call(&name, args, answer.as_ref(), &ids).await;
            Ok(to_js(&r.to_value()))
        })
    }

    /// Ends the session with DELETE (when the server gave one).
    pub fn close(&self) -> Promise {
        let client = Rc::clone(&self.client);
        future_to_promise(async move {
            client.close().await.map_err(js_error)?;
            Ok(JsValue::UNDEFINED)
        })
    }
}

fn json_of(v: &JsValue) -> Value {
    JSON::stringify(v).ok().and_then(|s| s.as_string()).and_then(|s| crate::mcp::parse(s.as_bytes())).unwrap_or(Value::Null)
}

// The other tool sources' runners (httpTool, builtinTools, skillTool, a2aTools).
#[path = "mcp_sources.rs"]
mod sources;
pub use sources::{A2aAgent, Builtins, HttpTool, SkillSet};
