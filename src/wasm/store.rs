//! Conversation stores. A store is any object with async `get(id)`, `save(id, state)` and
//! `delete(id)`; `state` is the versioned `ConversationState` as plain JSON data. This file only
//! adapts a JS store to the core's `ConversationStore` seam (the rules are in
//! `crate::conversation`) and exports the revision rule to JS stores. The stores themselves
//! (`memoryStore()`, the default, and the host adapters) are plain JS in `pkg-template/api.js`:
//! thin wrappers over a `Map` or a host API, and async methods written in Rust would each add a
//! compiled future to the wasm.

use super::convert::{from_js, get, js_error, JsResult};
use crate::conversation::{self, ConversationStore};
use crate::error::{Code, Error, Result};
use crate::state::ConversationState;
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Any JS store, seen from Rust.
pub struct JsStore {
    pub store: JsValue,
    /// The run's signal (`undefined` for none): an abort settles a store call that never would.
    pub signal: JsValue,
}

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    #[wasm_bindgen(js_name = callStore)]
    fn call_store(store: &JsValue, method: &str, id: &str, state: Option<String>, signal: &JsValue) -> js_sys::Promise;
}

impl JsStore {
    /// Calls `method(id, state?)` through `callStore` (host.js). One boxed future serves the
    /// three methods: each distinct future would otherwise be compiled into the wasm again.
    fn call<'a>(&'a self, method: &'static str, id: &'a str, state: Option<&'a ConversationState>) -> LocalBoxFuture<'a, Result<JsValue>> {
        Box::pin(async move {
            let state = state.map(ConversationState::to_json);
            let mut p = call_store(&self.store, method, id, state, &self.signal);
            if !self.signal.is_undefined() {
                p = super::host::guard(&p, &self.signal);
            }
            let out = super::task::settle(&p)
                .await
                .map_err(|e| super::convert::from_thrown(&e, Code::Store, &format!("store.{method} failed")))?;
            let out: js_sys::Array = out.unchecked_into();
            if out.length() == 0 {
                return Err(Error::bad_input(format!("the conversation store has no {method}() method")));
            }
            Ok(out.get(0))
        })
    }
}

/// The JS store object behind the core's store seam.
impl ConversationStore for JsStore {
    fn get<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<Option<Value>>> {
        Box::pin(self.call("get", id, None).map(|r| match r? {
            v if v.is_undefined() || v.is_null() => Ok(None),
            v => from_js(&v, "the stored conversation").map(Some),
        }))
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a ConversationState) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(self.call("save", id, Some(state)).map(|r| r.map(drop)))
    }

    fn delete<'a>(&'a self, id: &'a str) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(self.call("delete", id, None).map(|r| r.map(drop)))
    }
}

/// `checkRevision(stored, state)`: the revision rule, for a store to apply inside its own atomic
/// read-check-write (the stores in `api.js` use it, so the rule is written once, in the core).
/// `stored` is what the store holds (`undefined` or `null` for nothing). Throws a `conflict`
/// error when `state` is not exactly the next revision of `stored`.
#[wasm_bindgen(js_name = checkRevision)]
pub fn check_revision(
    #[wasm_bindgen(unchecked_param_type = "ConversationState | undefined | null")] stored: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConversationState")] state: JsValue,
) -> JsResult<()> {
    let revision = |v: &JsValue| conversation::revision_of(get(v, "revision").as_f64());
    let stored = (!stored.is_undefined() && !stored.is_null()).then(|| revision(&stored));
    conversation::check_revision(stored, revision(&state)).map_err(js_error)
}
