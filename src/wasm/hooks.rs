//! The host's hooks (`hooks: { beforeLLM, afterLLM, beforeTool, afterTool }`) and
//! `bodyTransform`, each an async JS function called with JSON data; what they return is read
//! by the core (`crate::json_hooks`).

use super::convert::{from_js, get, opt_function, settle, thrown_message, to_js};
use crate::error::{Code, Error, Result};
use crate::hooks::Hook;
use crate::json_hooks::HookHost;
use futures_util::future::LocalBoxFuture;
use js_sys::Function;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// The functions, indexed by `Hook as usize`.
#[derive(Default)]
pub struct JsHooks([Option<Function>; 5]);

impl JsHooks {
    pub fn decode(opts: &JsValue) -> Result<JsHooks> {
        let hooks = get(opts, "hooks");
        if !(hooks.is_undefined() || hooks.is_null() || hooks.is_object()) {
            return Err(Error::bad_input("hooks must be an object of functions"));
        }
        let f = |name| opt_function(&hooks, name, "hooks");
        Ok(JsHooks([
            f("beforeLLM")?,
            f("afterLLM")?,
            f("beforeTool")?,
            f("afterTool")?,
            opt_function(opts, "bodyTransform", "createClient options")?,
        ]))
    }

    pub fn any(&self) -> bool {
        self.0.iter().any(Option::is_some)
    }
}

impl HookHost for JsHooks {
    fn has(&self, hook: Hook) -> bool {
        self.0[hook as usize].is_some()
    }

    fn call(&self, hook: Hook, arg: Value) -> LocalBoxFuture<'_, Result<Value>> {
        Box::pin(async move {
            let Some(f) = &self.0[hook as usize] else { return Ok(Value::Null) };
            let v = settle(f.call1(&JsValue::UNDEFINED, &to_js(&arg)?)).await.map_err(|e| {
                let code = if get(&e, "name").as_string().as_deref() == Some("AbortError") { Code::Aborted } else { Code::HostCallback };
                Error::new(code, thrown_message(&e))
            })?;
            // The hooks but `bodyTransform` only act on an object; anything else is ignored.
            if hook != Hook::BodyTransform && !v.is_object() {
                return Ok(Value::Null);
            }
            from_js(&v, "a hook's return value")
        })
    }
}
