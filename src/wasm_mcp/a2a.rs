//! `A2aAgent`: `a2aTools(options)`'s runner (the card's skills, and one call of a skill), over
//! the core's `crate::sources::a2a`, whose polls wait on this entry's transport.

use super::host::Host;
use super::transport::Transport;
use super::{js, json_of, mcp_uuid, options_of};
use crate::edge::{abort_state, await_js, js_error, sleep, JsResult};
use futures_util::future::LocalBoxFuture;
use js_sys::Promise;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

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
