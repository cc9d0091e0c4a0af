//! The host's hooks (`hooks: { beforeLLM, afterLLM, beforeTool, afterTool }`) and
//! `bodyTransform`, each an async JS function, seen through the core's `Hooks` seam.

use super::convert::{from_js, get, opt_function, settle, thrown_message, to_js};
use crate::error::{Code, Error, Result};
use crate::hooks::{Hook, Hooks, LlmChange, ToolCtx, ToolVerdict};
use crate::tool::{ToolResult, ToolSpec};
use futures_util::future::LocalBoxFuture;
use js_sys::Function;
use serde_json::{json, Map, Value};
use wasm_bindgen::JsValue;

#[derive(Default)]
pub struct JsHooks {
    before_llm: Option<Function>,
    after_llm: Option<Function>,
    before_tool: Option<Function>,
    after_tool: Option<Function>,
    body_transform: Option<Function>,
}

impl JsHooks {
    pub fn decode(opts: &JsValue) -> Result<JsHooks> {
        let hooks = get(opts, "hooks");
        if !(hooks.is_undefined() || hooks.is_null() || hooks.is_object()) {
            return Err(Error::bad_input("hooks must be an object of functions"));
        }
        Ok(JsHooks {
            before_llm: opt_function(&hooks, "beforeLLM", "hooks")?,
            after_llm: opt_function(&hooks, "afterLLM", "hooks")?,
            before_tool: opt_function(&hooks, "beforeTool", "hooks")?,
            after_tool: opt_function(&hooks, "afterTool", "hooks")?,
            body_transform: opt_function(opts, "bodyTransform", "createClient options")?,
        })
    }

    pub fn any(&self) -> bool {
        [Hook::BeforeLlm, Hook::AfterLlm, Hook::BeforeTool, Hook::AfterTool, Hook::BodyTransform].iter().any(|h| self.has(*h))
    }
}

/// Calls a hook with one argument (JSON data) and returns what it resolved to.
async fn call(f: &Function, arg: Value) -> Result<JsValue> {
    settle(f.call1(&JsValue::UNDEFINED, &to_js(&arg)?)).await.map_err(|e| {
        let name = get(&e, "name").as_string().unwrap_or_default();
        if name == "AbortError" {
            Error::new(Code::Aborted, thrown_message(&e))
        } else {
            Error::new(Code::HostCallback, thrown_message(&e))
        }
    })
}

fn tool_ctx(ctx: &ToolCtx) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), json!(ctx.name));
    m.insert("args".into(), Value::Object(ctx.args.clone()));
    m.insert("id".into(), json!(ctx.id));
    m.insert("turn".into(), json!(ctx.turn));
    m
}

fn result_of(v: &JsValue) -> Result<Option<ToolResult>> {
    let r = get(v, "result");
    if r.is_undefined() {
        return Ok(None);
    }
    Ok(Some(ToolResult::from_return(from_js(&r, "a hook's result")?)))
}

impl Hooks for JsHooks {
    fn has(&self, hook: Hook) -> bool {
        match hook {
            Hook::BeforeLlm => self.before_llm.is_some(),
            Hook::AfterLlm => self.after_llm.is_some(),
            Hook::BeforeTool => self.before_tool.is_some(),
            Hook::AfterTool => self.after_tool.is_some(),
            Hook::BodyTransform => self.body_transform.is_some(),
        }
    }

    fn before_llm(&self, messages: Vec<Value>, tools: &[ToolSpec], model: &str, turn: u32) -> LocalBoxFuture<'_, Result<Option<LlmChange>>> {
        let arg = json!({"messages": messages, "tools": tools, "model": model, "turn": turn});
        Box::pin(async move {
            let Some(f) = &self.before_llm else { return Ok(None) };
            let v = call(f, arg).await?;
            if !v.is_object() {
                return Ok(None);
            }
            let messages = match from_js(&get(&v, "messages"), "beforeLLM messages")? {
                Value::Null => None,
                Value::Array(a) => Some(a),
                _ => return Err(Error::bad_input("beforeLLM must return messages as an array")),
            };
            let tools = match from_js(&get(&v, "tools"), "beforeLLM tools")? {
                Value::Null => None,
                Value::Array(list) => Some(
                    list.iter()
                        .map(|t| {
                            ToolSpec::from_json(t, "beforeLLM tools[]")
                                .map_err(|e| Error::bad_input(format!("beforeLLM tools must be [{{ name, description, inputSchema }}]: {e}")))
                                .and_then(ToolSpec::validated)
                        })
                        .collect::<Result<Vec<_>>>()?,
                ),
                _ => return Err(Error::bad_input("beforeLLM must return tools as an array")),
            };
            Ok(Some(LlmChange { messages, tools }))
        })
    }

    fn after_llm(&self, response: Value, model: &str, turn: u32) -> LocalBoxFuture<'_, Result<()>> {
        let arg = json!({"response": response, "model": model, "turn": turn});
        Box::pin(async move {
            if let Some(f) = &self.after_llm {
                call(f, arg).await?;
            }
            Ok(())
        })
    }

    fn before_tool(&self, ctx: ToolCtx<'_>) -> LocalBoxFuture<'_, Result<Option<ToolVerdict>>> {
        let arg = Value::Object(tool_ctx(&ctx));
        Box::pin(async move {
            let Some(f) = &self.before_tool else { return Ok(None) };
            let v = call(f, arg).await?;
            if !v.is_object() {
                return Ok(None);
            }
            if let Some(r) = result_of(&v)? {
                return Ok(Some(ToolVerdict::Result(crate::suspend::ToolOutcome::from_result(r))));
            }
            match from_js(&get(&v, "args"), "beforeTool args")? {
                Value::Null => Ok(None),
                Value::Object(a) => Ok(Some(ToolVerdict::Args(a))),
                _ => Err(Error::bad_input("beforeTool must return args as an object")),
            }
        })
    }

    fn after_tool(&self, ctx: ToolCtx<'_>, result: &ToolResult) -> LocalBoxFuture<'_, Result<Option<ToolResult>>> {
        let mut m = tool_ctx(&ctx);
        m.insert("result".into(), serde_json::to_value(result).unwrap_or(Value::Null));
        Box::pin(async move {
            let Some(f) = &self.after_tool else { return Ok(None) };
            let v = call(f, Value::Object(m)).await?;
            if v.is_object() { result_of(&v) } else { Ok(None) }
        })
    }

    fn transform_body(&self, body: Value) -> LocalBoxFuture<'_, Result<Option<Value>>> {
        Box::pin(async move {
            let Some(f) = &self.body_transform else { return Ok(None) };
            let v = call(f, body).await?;
            // A falsy return keeps the body (contract §b.5).
            if v.is_falsy() {
                return Ok(None);
            }
            match from_js(&v, "bodyTransform's body")? {
                b @ Value::Object(_) => Ok(Some(b)),
                _ => Err(Error::bad_input("bodyTransform must return the body object (or nothing)")),
            }
        })
    }
}
