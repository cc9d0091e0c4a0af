//! Conversation stores. A store is any object with async `get(id)`, `save(id, state)` and
//! `delete(id)`; `state` is the versioned `ConversationState` as plain JSON data. The default,
//! `memoryStore()`, lives here; the host adapters `chromeStorageStore()` and `kvStore()` are
//! plain JS in `pkg-template/stores.js` (thin wrappers over host APIs, and async methods written
//! in Rust would each add a compiled future to the wasm).

use super::convert::{from_js, get, js_error, settle, to_js};
use crate::driver::Persist;
use crate::error::{Code, Error, Result};
use crate::state::ConversationState;
use futures_util::future::LocalBoxFuture;
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
    async fn call(&self, method: &str, args: &[JsValue]) -> Result<JsValue> {
        let f = get(&self.store, method)
            .dyn_into::<Function>()
            .map_err(|_| Error::bad_input(format!("the conversation store has no {method}() method")))?;
        let call = match args {
            [a] => f.call1(&self.store, a),
            [a, b] => f.call2(&self.store, a, b),
            _ => f.call0(&self.store),
        };
        settle(call).await.map_err(|e| super::convert::from_thrown(&e, Code::Store, &format!("store.{method} failed")))
    }

    /// The stored document, or `None` when the id is unknown.
    pub async fn get(&self, id: &str) -> Result<Option<Value>> {
        let v = self.call("get", &[id.into()]).await?;
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        Ok(Some(from_js(&v, "the stored conversation")?))
    }

    pub async fn save(&self, id: &str, state: &ConversationState) -> Result<()> {
        self.call("save", &[id.into(), to_js(state)?]).await.map(|_| ())
    }

    pub async fn delete(&self, id: &str) -> Result<()> {
        self.call("delete", &[id.into()]).await.map(|_| ())
    }
}

/// Persists one conversation id through a store.
pub struct Saver<'a> {
    pub store: &'a JsStore,
    pub id: String,
    /// The last revision this run saved (or loaded): each save is one more.
    pub revision: std::cell::Cell<u64>,
}

impl Persist for Saver<'_> {
    fn save(&self, mut state: ConversationState) -> LocalBoxFuture<'_, Result<()>> {
        state.revision = self.revision.get() + 1;
        Box::pin(async move {
            self.store.save(&self.id, &state).await?;
            self.revision.set(state.revision);
            Ok(())
        })
    }
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
        if let Err(e) = crate::state::check_revision(stored, revision_of(&text).unwrap_or(0)) {
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

