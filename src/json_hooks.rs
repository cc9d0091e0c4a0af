//! The hooks of a host that calls them with JSON data and gets JSON data back (the wasm edge's
//! JS functions): the argument each hook is given and the reading of what it returns live here,
//! once, so a host adapter only calls a function.

use crate::error::{Code, Error, Result};
use crate::hooks::{Hook, Hooks, LlmChange, ToolCtx, ToolVerdict};
use crate::json::obj;
use crate::prelude::*;
use crate::suspend::ToolOutcome;
use crate::tool::{ToolResult, ToolSpec};
use futures_util::future::LocalBoxFuture;
use serde_json::{Map, Value};

/// What a hook threw, by its `name` and message: an `AbortError` aborts the run, anything else is
/// a failed host callback.
pub fn thrown(name: Option<&str>, message: String) -> Error {
    Error::new(if name == Some("AbortError") { Code::Aborted } else { Code::HostCallback }, message)
}

/// Calls the host's hook functions.
pub trait HookHost {
    fn has(&self, hook: Hook) -> bool;
    /// Calls `hook` (which is set) with `arg`; what it resolved to (`null` for nothing).
    fn call(&self, hook: Hook, arg: Value) -> LocalBoxFuture<'_, Result<Value>>;
}

/// A borrowed host serves as well (the wasm edge keeps its hook functions with the client's
/// other host functions, and sees them through this seam per run).
impl<H: HookHost + ?Sized> HookHost for &H {
    fn has(&self, hook: Hook) -> bool {
        (**self).has(hook)
    }
    fn call(&self, hook: Hook, arg: Value) -> LocalBoxFuture<'_, Result<Value>> {
        (**self).call(hook, arg)
    }
}

/// A `HookHost` seen through the driver's `Hooks` seam.
pub struct JsonHooks<H>(pub H);

impl<H: HookHost> JsonHooks<H> {
    /// The call of `hook` with `arg`, when it is set. A plain function handing back the host's
    /// boxed future: each hook's future then polls that box alone, with no helper future of
    /// its own inside.
    fn call(&self, hook: Hook, arg: Value) -> Option<LocalBoxFuture<'_, Result<Value>>> {
        self.0.has(hook).then(|| self.0.call(hook, arg))
    }
}

/// A hook's return value, when it returned an object.
fn object(v: Value) -> Option<Map<String, Value>> {
    match v {
        Value::Object(o) => Some(o),
        _ => None,
    }
}

fn tool_ctx(ctx: &ToolCtx) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), ctx.name.into());
    m.insert("args".into(), Value::Object(ctx.args.clone()));
    m.insert("id".into(), ctx.id.into());
    m.insert("turn".into(), ctx.turn.into());
    m
}

/// A key's value, taken out of the object (cheaper than `remove`, which shifts the keys after it).
fn take(o: &mut Map<String, Value>, key: &str) -> Option<Value> {
    o.get_mut(key).map(Value::take)
}

fn is_falsy(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

fn tools_of(list: &[Value]) -> Result<Vec<ToolSpec>> {
    let mut tools = Vec::with_capacity(list.len());
    for t in list {
        let spec = ToolSpec::from_json(t, "beforeLLM tools[]")
            .map_err(|e| Error::bad_input(format!("beforeLLM tools must be [{{ name, description, inputSchema }}]: {e}")))?;
        tools.push(spec.validated()?);
    }
    Ok(tools)
}

impl<H: HookHost> Hooks for JsonHooks<H> {
    fn has(&self, hook: Hook) -> bool {
        self.0.has(hook)
    }

    fn before_llm(
        &self,
        messages: Vec<Value>,
        tools: &[ToolSpec],
        model: &str,
        turn: u32,
    ) -> LocalBoxFuture<'_, Result<Option<LlmChange>>> {
        let mut list = Vec::with_capacity(tools.len());
        for t in tools {
            list.push(t.to_value());
        }
        let tools = Value::Array(list);
        let arg = obj(vec![("messages", Value::Array(messages)), ("tools", tools), ("model", model.into()), ("turn", turn.into())]);
        Box::pin(async move {
            let Some(call) = self.call(Hook::BeforeLlm, arg) else { return Ok(None) };
            let Some(mut o) = object(call.await?) else { return Ok(None) };
            let messages = match take(&mut o, "messages") {
                None | Some(Value::Null) => None,
                Some(Value::Array(a)) => Some(a),
                _ => return Err(Error::bad_input("beforeLLM must return messages as an array")),
            };
            let tools = match take(&mut o, "tools") {
                None | Some(Value::Null) => None,
                Some(Value::Array(list)) => Some(tools_of(&list)?),
                _ => return Err(Error::bad_input("beforeLLM must return tools as an array")),
            };
            Ok(Some(LlmChange { messages, tools }))
        })
    }

    fn after_llm(&self, response: Value, model: &str, turn: u32) -> LocalBoxFuture<'_, Result<()>> {
        let arg = obj(vec![("response", response), ("model", model.into()), ("turn", turn.into())]);
        Box::pin(async move {
            match self.call(Hook::AfterLlm, arg) {
                Some(call) => call.await.map(drop),
                None => Ok(()),
            }
        })
    }

    fn before_tool(&self, ctx: ToolCtx<'_>) -> LocalBoxFuture<'_, Result<Option<ToolVerdict>>> {
        let arg = Value::Object(tool_ctx(&ctx));
        Box::pin(async move {
            let Some(call) = self.call(Hook::BeforeTool, arg) else { return Ok(None) };
            let Some(mut o) = object(call.await?) else { return Ok(None) };
            if let Some(r) = take(&mut o, "result") {
                return Ok(Some(ToolVerdict::Result(ToolOutcome::from_result(ToolResult::from_return(r)))));
            }
            match take(&mut o, "args") {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Object(a)) => Ok(Some(ToolVerdict::Args(a))),
                _ => Err(Error::bad_input("beforeTool must return args as an object")),
            }
        })
    }

    fn after_tool(&self, ctx: ToolCtx<'_>, result: &ToolResult) -> LocalBoxFuture<'_, Result<Option<ToolResult>>> {
        let mut m = tool_ctx(&ctx);
        m.insert("result".into(), result.to_value());
        Box::pin(async move {
            let Some(call) = self.call(Hook::AfterTool, Value::Object(m)) else { return Ok(None) };
            Ok(object(call.await?).and_then(|mut o| take(&mut o, "result")).map(ToolResult::from_return))
        })
    }

    fn transform_body(&self, body: Value) -> LocalBoxFuture<'_, Result<Option<Value>>> {
        Box::pin(async move {
            let Some(call) = self.call(Hook::BodyTransform, body) else { return Ok(None) };
            // A falsy return keeps the body.
            match call.await? {
                v if is_falsy(&v) => Ok(None),
                b @ Value::Object(_) => Ok(Some(b)),
                _ => Err(Error::bad_input("bodyTransform must return the body object (or nothing)")),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::RefCell;
    use futures_executor::block_on;
    use serde_json::json;

    #[test]
    fn a_hook_that_throws_an_abort_aborts_the_run() {
        assert_eq!(thrown(Some("AbortError"), "stop".into()), Error::new(Code::Aborted, "stop"));
        for name in [None, Some("TimeoutError"), Some("TypeError")] {
            assert_eq!(thrown(name, "boom".into()), Error::new(Code::HostCallback, "boom"), "{name:?}");
        }
    }

    /// Answers every hook with one value and records the arguments.
    struct Host(Value, RefCell<Vec<Value>>);

    impl HookHost for Host {
        fn has(&self, _: Hook) -> bool {
            true
        }
        fn call(&self, _: Hook, arg: Value) -> LocalBoxFuture<'_, Result<Value>> {
            self.1.borrow_mut().push(arg);
            let v = self.0.clone();
            Box::pin(async move { Ok(v) })
        }
    }

    fn hooks(v: Value) -> JsonHooks<Host> {
        JsonHooks(Host(v, RefCell::default()))
    }

    fn args() -> Map<String, Value> {
        json!({"q": 1}).as_object().unwrap().clone()
    }

    #[test]
    fn before_llm_reads_messages_and_tools_and_refuses_other_shapes() {
        let h = hooks(
            json!({"messages": [{"role": "user", "content": "x"}], "tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}),
        );
        let c = block_on(h.before_llm(vec![], &[], "m", 2)).unwrap().unwrap();
        assert_eq!(c.messages.unwrap().len(), 1);
        assert_eq!(c.tools.unwrap()[0].name, "t");
        assert_eq!(h.0 .1.borrow()[0], json!({"messages": [], "tools": [], "model": "m", "turn": 2}));
        assert!(block_on(hooks(json!("x")).before_llm(vec![], &[], "m", 1)).unwrap().is_none());
        let e = block_on(hooks(json!({"messages": 1})).before_llm(vec![], &[], "m", 1)).err().unwrap();
        assert_eq!(e.message, "beforeLLM must return messages as an array");
        let e = block_on(hooks(json!({"tools": [{}]})).before_llm(vec![], &[], "m", 1)).err().unwrap();
        assert!(e.message.starts_with("beforeLLM tools must be"));
    }

    #[test]
    fn before_tool_short_circuits_or_rewrites_args() {
        let ctx = |a| ToolCtx { name: "t", id: "c1", args: a, turn: 1 };
        let a = args();
        let v = block_on(hooks(json!({"result": "done"})).before_tool(ctx(&a))).unwrap();
        assert!(matches!(v, Some(ToolVerdict::Result(_))));
        let v = block_on(hooks(json!({"args": {"q": 2}})).before_tool(ctx(&a))).unwrap();
        assert!(matches!(v, Some(ToolVerdict::Args(m)) if m["q"] == 2));
        assert!(block_on(hooks(json!({})).before_tool(ctx(&a))).unwrap().is_none());
        let e = block_on(hooks(json!({"args": [1]})).before_tool(ctx(&a))).err().unwrap();
        assert_eq!(e.message, "beforeTool must return args as an object");
    }

    #[test]
    fn after_tool_replaces_the_result_and_body_transform_keeps_on_falsy() {
        let a = args();
        let h = hooks(json!({"result": "new"}));
        let r = block_on(h.after_tool(ToolCtx { name: "t", id: "c1", args: &a, turn: 1 }, &ToolResult::error("old".to_string()))).unwrap();
        assert!(r.is_some());
        assert_eq!(h.0 .1.borrow()[0]["name"], "t");
        for falsy in [json!(null), json!(false), json!(0), json!("")] {
            assert!(block_on(hooks(falsy).transform_body(json!({}))).unwrap().is_none());
        }
        assert_eq!(block_on(hooks(json!({"a": 1})).transform_body(json!({}))).unwrap(), Some(json!({"a": 1})));
        assert!(block_on(hooks(json!([1])).transform_body(json!({}))).is_err());
    }
}
