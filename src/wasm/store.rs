//! Conversation stores. A store is any object with async `get(id)`, `save(id, state)` and
//! `delete(id)`; `state` is the versioned `ConversationState` as plain JSON data. This file only
//! adapts a JS store to the core's `ConversationStore` seam (the rules are in
//! `crate::conversation`) and exports the revision rule to JS stores. The default,
//! `memoryStore()`, lives here; the host adapters `chromeStorageStore()` and `kvStore()` are
//! plain JS in `pkg-template/stores.js` (thin wrappers over host APIs, and async methods written
//! in Rust would each add a compiled future to the wasm).

use super::convert::{from_js, get, js_error, settle, to_js, JsResult};
use crate::conversation::{self, ConversationStore};
use crate::error::{Code, Error, Result};
use crate::state::ConversationState;
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;
use js_sys::{Function, JSON};
use serde_json::Value;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Any JS store, seen from Rust.
pub struct JsStore {
    pub store: JsValue,
}

impl JsStore {
    /// Calls `method(id, state?)`. One boxed future serves the three methods: each distinct
    /// future would otherwise be compiled into the wasm again.
    fn call<'a>(&'a self, method: &'static str, id: &'a str, state: Option<&'a ConversationState>) -> LocalBoxFuture<'a, Result<JsValue>> {
        Box::pin(async move {
            let f = get(&self.store, method)
                .dyn_into::<Function>()
                .map_err(|_| Error::bad_input(format!("the conversation store has no {method}() method")))?;
            let call = match state {
                Some(s) => f.call2(&self.store, &id.into(), &to_js(s)?),
                None => f.call1(&self.store, &id.into()),
            };
            settle(call).await.map_err(|e| super::convert::from_thrown(&e, Code::Store, &format!("store.{method} failed")))
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
/// read-check-write (the stores in `stores.js` use it, so the rule is written once, in the core).
/// `stored` is what the store holds (`undefined` or `null` for nothing). Throws a `conflict`
/// error when `state` is not exactly the next revision of `stored`.
#[wasm_bindgen(js_name = checkRevision)]
pub fn check_revision(
    #[wasm_bindgen(unchecked_param_type = "ConversationState | undefined | null")] stored: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConversationState")] state: JsValue,
) -> JsResult<()> {
    // A missing or unreadable revision counts as 0, as in documents written before revisions.
    let revision = |v: &JsValue| get(v, "revision").as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).map_or(0, |n| n as u64);
    let stored = (!stored.is_undefined() && !stored.is_null()).then(|| revision(&stored));
    conversation::check_revision(stored, revision(&state)).map_err(js_error)
}

/// The default store: conversations in this JS realm's memory, copied on get and save so a
/// caller can never change a stored state by mutating an object.
#[wasm_bindgen]
#[derive(Default)]
pub struct MemoryStore {
    docs: RefCell<Vec<(String, String)>>,
}

#[wasm_bindgen]
impl MemoryStore {
    #[wasm_bindgen(unchecked_return_type = "Promise<ConversationState | undefined>")]
    pub fn get(&self, id: String) -> js_sys::Promise {
        let doc = self.docs.borrow().iter().find(|(k, _)| *k == id).map(|(_, v)| v.clone());
        let v = doc.and_then(|t| JSON::parse(&t).ok()).unwrap_or(JsValue::UNDEFINED);
        js_sys::Promise::resolve(&v)
    }

    /// Saves, refusing a state that is not exactly one revision past the stored one (`conflict`).
    pub fn save(&self, id: String, #[wasm_bindgen(unchecked_param_type = "ConversationState")] state: JsValue) -> js_sys::Promise {
        let Some(text) = JSON::stringify(&state).ok().and_then(|s| s.as_string()) else {
            return js_sys::Promise::reject(&js_error(Error::bad_input("a conversation state must be JSON data")));
        };
        let revision_of = |t: &str| serde_json::from_str::<Value>(t).ok().and_then(|v| v.get("revision").and_then(Value::as_u64));
        let mut docs = self.docs.borrow_mut();
        let stored = docs.iter().find(|(k, _)| *k == id).map(|(_, t)| revision_of(t).unwrap_or(0));
        if let Err(e) = conversation::check_revision(stored, revision_of(&text).unwrap_or(0)) {
            return js_sys::Promise::reject(&js_error(e));
        }
        docs.retain(|(k, _)| *k != id);
        docs.push((id, text));
        js_sys::Promise::resolve(&JsValue::UNDEFINED)
    }

    pub fn delete(&self, id: String) -> js_sys::Promise {
        self.docs.borrow_mut().retain(|(k, _)| *k != id);
        js_sys::Promise::resolve(&JsValue::UNDEFINED)
    }
}

/// `memoryStore()`: a fresh in-memory store.
#[wasm_bindgen(js_name = memoryStore)]
pub fn memory_store() -> MemoryStore {
    MemoryStore::default()
}

