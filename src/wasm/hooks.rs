//! The host's hooks (`hooks: { beforeLLM, afterLLM, beforeTool, afterTool }`) and
//! `bodyTransform`, each an async JS function called with JSON data; what they return is read
//! by the core (`crate::json_hooks`), and so is what they throw.

use super::convert::{from_js, get, settle, thrown_message, to_js};
use crate::error::Result;
use crate::hooks::Hook;
use crate::json_hooks::HookHost;
use futures_util::future::LocalBoxFuture;
use js_sys::Function;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// The functions, indexed by `Hook as usize` (read by `hostOptions` in host.js).
#[derive(Default)]
pub struct JsHooks(pub [Option<Function>; 5]);

impl JsHooks {
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
            let v = settle(f.call1(&JsValue::UNDEFINED, &to_js(&arg)?))
                .await
                .map_err(|e| crate::json_hooks::thrown(get(&e, "name").as_string().as_deref(), thrown_message(&e)))?;
            // The hooks but `bodyTransform` only act on an object; anything else is ignored.
            if hook != Hook::BodyTransform && !v.is_object() {
                return Ok(Value::Null);
            }
            from_js(&v, "a hook's return value")
        })
    }
}
