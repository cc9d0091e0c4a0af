//! The runners of the tool sources beside MCP in the MCP entry (`httpTool`, `builtinTools`,
//! `skillTool`, `a2aTools`), over the same `fetch` transport as MCP sessions (`super`).

use super::settle;
use super::{js_error, json_of, mcp_aborted, mcp_options, mcp_sleep, mcp_uuid, to_js, Fetch, JsResult, Transport, IDS};
use crate::error::Error;
use crate::json;
use crate::mcp::{McpRequest, McpTransport};
use crate::sources::builtin;
use crate::sources::http::HttpToolDef;
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
    fetch: JsValue,
}

#[wasm_bindgen]
impl HttpTool {
    /// Reads the definition (`{ name, description?, method?, url, headers?, env?, query?, body?,
    /// inputSchema?, timeoutMs?, resultMode?, fetch? }`).
    #[wasm_bindgen(constructor)]
    pub fn new(definition: JsValue) -> JsResult<HttpTool> {
        let parts =
            mcp_options(&definition, "httpTool(definition)").map_err(|e| js_error(Error::bad_input(e.as_string().unwrap_or_default())))?;
        let data: Value = crate::mcp::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
        Ok(HttpTool { def: HttpToolDef::from_json(&data).map_err(js_error)?, fetch: parts.get(1) })
    }

    /// `{ name, description, inputSchema, source: "http" }`.
    pub fn declaration(&self) -> JsValue {
        to_js(&self.def.declaration())
    }

    /// The definition as data, without `env`.
    pub fn definition(&self) -> JsValue {
        to_js(&self.def.definition())
    }

    /// One call; resolves to a tool result (never rejects).
    pub fn call(&self, args: JsValue, signal: JsValue) -> Promise {
        let args: Value = json_of(&args);
        let call = match self.def.request(&args) {
            Ok(c) => c,
            Err(m) => return Promise::resolve(&to_js(&crate::tool::ToolResult::error(m).to_value())),
        };
        let def = self.def.clone();
        let fetch = Rc::new(Fetch {
            fetch: self.fetch.clone(),
            token: JsValue::UNDEFINED,
            label: json::join(&["HTTP tool ", &def.name], ""),
            url: String::new(),
            who: String::new(),
            timeout_ms: def.timeout_ms,
            signal,
            max_bytes: def.max_bytes,
            reading: Rc::default(),
        });
        future_to_promise(async move {
            let req = McpRequest { method: "GET", url: call.url, headers: call.headers, body: call.body, stream: false };
            let run = async {
                let mut res = Transport(Rc::clone(&fetch)).send_as(&req, &call.method).await?;
                let mut text = Vec::new();
                while let Some(chunk) = res.body.next_chunk().await? {
                    text.extend_from_slice(&chunk);
                }
                Ok::<_, Error>(def.result(res.status, &String::from_utf8_lossy(&text)))
            };
            let r = run.await.unwrap_or_else(|e| crate::tool::ToolResult::error(e.message));
            Ok(to_js(&r.to_value()))
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
        let bad = |m: String| js_error(Error::bad_input(m));
        let names = builtin::select(Some(&json_of(&names))).map_err(js_error)?;
        let mut allow_private = false;
        let (fetch, max_bytes) = if options.is_object() {
            let parts = mcp_options(&options, "builtinTools(names, options)").map_err(|e| bad(e.as_string().unwrap_or_default()))?;
            let data: Value = crate::mcp::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
            let max = match data.get("maxBytes") {
                None | Some(Value::Null) => builtin::DEFAULT_MAX_BYTES,
                Some(m) => {
                    m.as_f64().filter(|m| *m >= 1.0).ok_or_else(|| bad("builtinTools options.maxBytes must be a positive number".into()))?
                        as usize
                }
            };
            allow_private = match data.get("allowPrivate") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(bad("builtinTools options.allowPrivate must be a boolean".into())),
            };
            (parts.get(1), max)
        } else {
            (JsValue::UNDEFINED, builtin::DEFAULT_MAX_BYTES)
        };
        Ok(Builtins { names, fetch, max_bytes, allow_private })
    }

    /// The declarations, in the order asked for.
    pub fn declarations(&self) -> JsValue {
        to_js(&Value::Array(self.names.iter().map(|n| builtin::declaration(n)).collect()))
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
                        let label = "webfetch".to_string();
                        let f = Rc::new(Fetch {
                            fetch,
                            token: JsValue::UNDEFINED,
                            label,
                            url: String::new(),
                            who: String::new(),
                            timeout_ms,
                            signal,
                            max_bytes: usize::MAX,
                            reading: Rc::default(),
                        });
                        let req = McpRequest { method: "GET", url, headers: Vec::new(), body: None, stream: false };
                        let run = async {
                            let mut res = Transport(f).send(&req).await?;
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
            Ok(to_js(&r.to_value()))
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
        to_js(&crate::sources::skill::Skills::declaration())
    }

    /// The catalog for the system prompt.
    pub fn prompt(&self) -> String {
        self.0.prompt()
    }

    /// Loads one skill (a tool result).
    pub fn run(&self, args: JsValue) -> JsValue {
        to_js(&self.0.run(&json_of(&args)).to_value())
    }
}

impl crate::sources::a2a::A2aHost for Transport {
    fn now(&self) -> f64 {
        js_sys::Date::now()
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let p = mcp_sleep(ms, &self.0.signal);
        Box::pin(async move {
            let _ = settle(&p).await;
        })
    }
    fn aborted(&self) -> bool {
        mcp_aborted(&self.0.signal)
    }
}

/// `a2aTools(options)`'s runner: the card's skills, and one call of a skill.
#[wasm_bindgen]
pub struct A2aAgent {
    opts: Rc<crate::sources::a2a::A2aOptions>,
    fetch: JsValue,
    skills: Rc<std::cell::RefCell<Vec<crate::sources::a2a::A2aSkill>>>,
}

#[wasm_bindgen]
impl A2aAgent {
    /// `{ card, headers?, env?, timeoutMs?, pollEvery?, fetch? }`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> JsResult<A2aAgent> {
        let parts =
            mcp_options(&options, "a2aTools(options)").map_err(|e| js_error(Error::bad_input(e.as_string().unwrap_or_default())))?;
        let data = crate::mcp::parse(parts.get(0).as_string().unwrap_or_default().as_bytes()).unwrap_or(Value::Null);
        let opts = crate::sources::a2a::A2aOptions::from_json(&data).map_err(js_error)?;
        Ok(A2aAgent { opts: Rc::new(opts), fetch: parts.get(1), skills: Rc::default() })
    }

    fn transport(&self, signal: JsValue) -> Transport {
        let label = json::join(&["A2A agent ", &self.opts.card], "");
        Transport(Rc::new(Fetch {
            fetch: self.fetch.clone(),
            token: JsValue::UNDEFINED,
            label,
            url: String::new(),
            who: String::new(),
            timeout_ms: self.opts.timeout_ms,
            signal,
            max_bytes: self.opts.max_bytes,
            reading: Rc::default(),
        }))
    }

    /// Reads the Agent Card; resolves to the skills' declarations, in card order.
    pub fn connect(&self) -> Promise {
        let (t, opts, skills) = (self.transport(JsValue::UNDEFINED), Rc::clone(&self.opts), Rc::clone(&self.skills));
        future_to_promise(async move {
            let card = crate::sources::a2a::fetch_card(&t, &opts).await.map_err(js_error)?;
            let list = opts.skills(&card).map_err(js_error)?;
            let mut decls: Vec<Value> = list.iter().map(|s| s.declaration()).collect();
            // As MCP listings: unique names of at most 64 characters, deterministically.
            let names = decls.iter().map(|d| d["name"].as_str().unwrap_or("").to_string()).collect();
            for (d, n) in decls.iter_mut().zip(crate::mcp::result::unique_names(names)) {
                d["name"] = n.into();
            }
            *skills.borrow_mut() = list;
            Ok(to_js(&Value::Array(decls)))
        })
    }

    /// Calls skill `index` (of `connect`'s list); resolves to a tool result.
    pub fn call(&self, index: usize, args: JsValue, signal: JsValue) -> Promise {
        let (t, opts, args) = (self.transport(signal), Rc::clone(&self.opts), json_of(&args));
        let skill = self.skills.borrow().get(index).cloned();
        future_to_promise(async move {
            let r = match skill {
                Some(s) => crate::sources::a2a::call(&t, &opts, &s, &args, &mcp_uuid()).await,
                None => crate::tool::ToolResult::error("A2A: unknown skill"),
            };
            Ok(to_js(&r.to_value()))
        })
    }
}
