//! The runners of the tool sources beside MCP in the MCP entry (`httpTool`, `builtinTools`,
//! `skillTool`, `a2aTools`), over the same `fetch` transport as MCP sessions (`super`).

use super::{abort_state, await_js, js, js_error, json_of, mcp_uuid, options_of, sleep, Host, JsResult, Transport, IDS};
use crate::error::Error;
use crate::sources::builtin;
use crate::sources::http::HttpToolDef;
use crate::sources::transport::{SourceRequest, SourceTransport};
use crate::suspend::{pending_result, Answer, ToolOutcome};
use futures_util::future::LocalBoxFuture;
use js_sys::Promise;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(module = "/src/wasm/mcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = mcpUrlHost)]
    fn mcp_url_host(url: &str) -> js_sys::Array;
}

/// Why webfetch refuses `url`, by its scheme and host as the URL parser reads them.
fn refused_url(url: &str, allow_private: bool) -> Option<String> {
    let p = mcp_url_host(url);
    builtin::refused(&p.get(0).as_string().unwrap_or_default(), &p.get(1).as_string().unwrap_or_default(), allow_private)
}

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

/// `builtinTools(names?, options?)`'s runner: webfetch, question and todowrite.
#[wasm_bindgen]
pub struct Builtins {
    names: Vec<&'static str>,
    fetch: JsValue,
    max_bytes: usize,
    /// Whether webfetch may fetch loopback, private and link-local addresses.
    allow_private: bool,
}

#[wasm_bindgen]
impl Builtins {
    /// `names` (default all three) and `{ fetch?, maxBytes? }` (webfetch's body cap, default 512 KiB).
    #[wasm_bindgen(constructor)]
    pub fn new(names: JsValue, options: JsValue) -> JsResult<Builtins> {
        let names = builtin::select(Some(&json_of(&names))).map_err(js_error)?;
        let (fetch, (max_bytes, allow_private)) = match options.is_object() {
            true => {
                let (data, fetch, _) = options_of(&options, "builtinTools(names, options)")?;
                (fetch, builtin::options(&data).map_err(js_error)?)
            }
            false => (JsValue::UNDEFINED, (builtin::DEFAULT_MAX_BYTES, false)),
        };
        Ok(Builtins { names, fetch, max_bytes, allow_private })
    }

    /// The declarations, in the order asked for.
    pub fn declarations(&self) -> JsValue {
        js(&Value::Array(self.names.iter().map(|n| builtin::declaration(n)).collect()))
    }

    /// One call of builtin `name`; resolves to a tool result (a suspension for a new question).
    pub fn call(&self, name: String, args: JsValue, signal: JsValue, answer: JsValue) -> Promise {
        let args = json_of(&args);
        let answer = Answer::from_json(&json_of(&answer), "ctx.answer").ok();
        let (fetch, max, allow_private) = (self.fetch.clone(), self.max_bytes, self.allow_private);
        future_to_promise(async move {
            let r = match name.as_str() {
                "question" => match builtin::question(&args, answer.as_ref()) {
                    ToolOutcome::Result(r) => r,
                    ToolOutcome::Suspend(req) => pending_result(req, &IDS.with(Rc::clone)),
                },
                "todowrite" => builtin::todowrite(&args),
                _ => match builtin::webfetch_request(&args) {
                    Err(r) => r,
                    Ok((url, ..)) if refused_url(&url, allow_private).is_some() => {
                        crate::tool::ToolResult::error(refused_url(&url, allow_private).unwrap_or_default())
                    }
                    Ok((url, format, timeout_ms)) => {
                        // Read to `max` and cut there (`truncated`), not refused.
                        let t = Transport::new(&Host::new(fetch, "webfetch".into(), timeout_ms, usize::MAX), signal);
                        let req = SourceRequest { method: "GET", url, headers: Vec::new(), body: None, stream: false };
                        let run = async {
                            let mut res = t.send(&req).await?;
                            let mut body = Vec::new();
                            let mut truncated = false;
                            while let Some(chunk) = res.body.next_chunk().await? {
                                body.extend_from_slice(&chunk);
                                if body.len() > max {
                                    body.truncate(max);
                                    truncated = true;
                                    break; // dropping the body cancels the rest
                                }
                            }
                            Ok::<_, Error>(builtin::webfetch_result(res.status, &String::from_utf8_lossy(&body), format, truncated))
                        };
                        run.await.unwrap_or_else(|e| crate::tool::ToolResult::error(e.message))
                    }
                },
            };
            Ok(js(&r.to_value()))
        })
    }
}

/// `skillTool(skills, options?)`'s runner.
#[wasm_bindgen]
pub struct SkillSet(crate::sources::skill::Skills);

#[wasm_bindgen]
impl SkillSet {
    #[wasm_bindgen(constructor)]
    pub fn new(skills: JsValue, options: JsValue) -> JsResult<SkillSet> {
        crate::sources::skill::Skills::from_json(&json_of(&skills), &json_of(&options)).map(SkillSet).map_err(js_error)
    }

    pub fn declaration(&self) -> JsValue {
        js(&crate::sources::skill::Skills::declaration())
    }

    /// The catalog for the system prompt.
    pub fn prompt(&self) -> String {
        self.0.prompt()
    }

    /// Loads one skill (a tool result).
    pub fn run(&self, args: JsValue) -> JsValue {
        js(&self.0.run(&json_of(&args)).to_value())
    }
}

impl crate::sources::a2a::A2aHost for Transport {
    fn now(&self) -> f64 {
        js_sys::Date::now()
    }
    /// A poll's wait, cut short when the call is aborted (host.js `sleep`, as a run's backoff).
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let signal = self.waits.borrow_mut().get_or_insert_with(|| self.signal(None).unwrap_or(JsValue::UNDEFINED)).clone();
        let p = sleep(Some(ms), &signal);
        Box::pin(async move {
            let _ = await_js(&p).await;
        })
    }
    fn aborted(&self) -> bool {
        abort_state(&self.user) != 0
    }
}

/// `a2aTools(options)`'s runner: the card's skills, and one call of a skill.
#[wasm_bindgen]
pub struct A2aAgent {
    opts: Rc<crate::sources::a2a::A2aOptions>,
    host: Rc<Host>,
    skills: Rc<std::cell::RefCell<Vec<crate::sources::a2a::A2aSkill>>>,
}

#[wasm_bindgen]
impl A2aAgent {
    /// `{ card, headers?, env?, timeoutMs?, pollEvery?, fetch? }`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> JsResult<A2aAgent> {
        let (data, fetch, _) = options_of(&options, "a2aTools(options)")?;
        let opts = crate::sources::a2a::A2aOptions::from_json(&data).map_err(js_error)?;
        let host = Host::new(fetch, format!("A2A agent {}", opts.card), opts.timeout_ms, opts.max_bytes);
        Ok(A2aAgent { opts: Rc::new(opts), host, skills: Rc::default() })
    }

    /// Reads the Agent Card; resolves to the skills' declarations, in card order.
    pub fn connect(&self) -> Promise {
        let (t, opts, skills) = (Transport::new(&self.host, JsValue::UNDEFINED), Rc::clone(&self.opts), Rc::clone(&self.skills));
        future_to_promise(async move {
            let card = crate::sources::a2a::fetch_card(&t, &opts).await.map_err(js_error)?;
            let list = opts.skills(&card).map_err(js_error)?;
            let decls = crate::sources::a2a::declarations(&list);
            *skills.borrow_mut() = list;
            Ok(js(&Value::Array(decls)))
        })
    }

    /// Calls skill `index` (of `connect`'s list); resolves to a tool result.
    pub fn call(&self, index: usize, args: JsValue, signal: JsValue) -> Promise {
        let (t, opts, args) = (Transport::new(&self.host, signal), Rc::clone(&self.opts), json_of(&args));
        let skill = self.skills.borrow().get(index).cloned();
        future_to_promise(async move {
            let r = match skill {
                Some(s) => crate::sources::a2a::call(&t, &opts, &s, &args, &mcp_uuid()).await,
                None => crate::tool::ToolResult::error("A2A: unknown skill"),
            };
            Ok(js(&r.to_value()))
        })
    }
}
