//! `HttpTool`: `httpTool(definition)`'s runner (pkg-template/mcp/api.js makes the tool object
//! around it), over the core's `crate::sources::http`.

use super::host::Host;
use super::transport::Transport;
use super::{js, json_of, options_of};
use crate::edge::{js_error, JsResult};
use crate::error::Error;
use crate::sources::http::HttpToolDef;
use crate::sources::transport::SourceRequest;
use js_sys::Promise;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// `httpTool(definition)`'s runner (pkg-template/mcp/api.js makes the tool object around it).
#[wasm_bindgen]
pub struct HttpTool {
    def: HttpToolDef,
    host: Rc<Host>,
}

#[wasm_bindgen]
impl HttpTool {
    /// Reads the definition (`{ name, description?, method?, url, headers?, env?, query?, body?,
    /// inputSchema?, timeoutMs?, resultMode?, fetch? }`).
    #[wasm_bindgen(constructor)]
    pub fn new(definition: JsValue) -> JsResult<HttpTool> {
        let (data, fetch, _) = options_of(&definition, "httpTool(definition)")?;
        let def = HttpToolDef::from_json(&data).map_err(js_error)?;
        let host = Host::new(fetch, format!("HTTP tool {}", def.name), def.timeout_ms, def.max_bytes);
        Ok(HttpTool { def, host })
    }

    /// `{ name, description, inputSchema, source: "http" }`.
    pub fn declaration(&self) -> JsValue {
        js(&self.def.declaration())
    }

    /// The definition as data, without `env`.
    pub fn definition(&self) -> JsValue {
        js(&self.def.definition())
    }

    /// One call; resolves to a tool result (never rejects).
    pub fn call(&self, args: JsValue, signal: JsValue) -> Promise {
        let args: Value = json_of(&args);
        let call = match self.def.request(&args) {
            Ok(c) => c,
            Err(m) => return Promise::resolve(&js(&crate::tool::ToolResult::error(m).to_value())),
        };
        let (def, t) = (self.def.clone(), Transport::new(&self.host, signal));
        future_to_promise(async move {
            let req = SourceRequest { method: "GET", url: call.url, headers: call.headers, body: call.body, stream: false };
            let run = async {
                let mut res = t.send_as(&req, &call.method).await?;
                let mut text = Vec::new();
                while let Some(chunk) = res.body.next_chunk().await? {
                    text.extend_from_slice(&chunk);
                }
                Ok::<_, Error>(def.result(res.status, &String::from_utf8_lossy(&text)))
            };
            let r = run.await.unwrap_or_else(|e| crate::tool::ToolResult::error(e.message));
            Ok(js(&r.to_value()))
        })
    }
}
