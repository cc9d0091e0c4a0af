//! `McpSession`: one MCP server (its session, listing and calls) for `mcpTools`
//! (pkg-template/mcp/api.js), over the core's MCP client (`crate::sources::mcp`).

use super::host::Host;
use super::transport::Transport;
use super::{js, json_of, options_of, IDS};
use crate::edge::{js_error, JsResult};
use crate::error::{Code, Error};
use crate::json;
use crate::sources::mcp::session::Auth;
use crate::sources::mcp::{McpClient, McpOptions};
use crate::suspend::Answer;
use js_sys::{Promise, Reflect};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// One MCP server: its session, listing and calls. Made by `mcpTools` (pkg-template/mcp/api.js).
#[wasm_bindgen]
pub struct McpSession {
    /// The session shared by every operation (the tool calls of one turn run concurrently), each
    /// over a transport of its own.
    client: McpClient<Transport>,
    host: Rc<Host>,
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
