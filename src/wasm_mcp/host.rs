//! What the requests of one source share (`Host`): its `fetch` and token callback, the name it
//! goes by in messages, its limits, and a legacy MCP session's reading.

use crate::edge::{abort_state, get, thrown_message};
use crate::error::Error;
use crate::sources::outgoing::failed;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What the requests of one source share: the host's `fetch` and token callback, names for
/// messages, limits, and a legacy session's reading.
pub(super) struct Host {
    pub(super) fetch: JsValue,
    pub(super) token: JsValue,
    /// Names the source in messages: `MCP server <name>`, `HTTP tool <name>`, ...
    pub(super) label: String,
    /// An MCP session's server URL; empty for the other sources (no token, no origin rule).
    pub(super) url: String,
    /// `{ server, url }` as JSON text: what the token callback is asked with.
    pub(super) who: String,
    pub(super) timeout_ms: f64,
    /// A reply longer than this is refused (`maxBytes`).
    pub(super) max_bytes: usize,
    /// A legacy session's long-lived stream is read on behalf of the request POSTed last: its
    /// signal (deadline and abort) and the bytes read for it since. Without it an unanswered
    /// legacy request waited forever.
    pub(super) reading: RefCell<(JsValue, usize)>,
}

impl Host {
    pub(super) fn new(fetch: JsValue, label: String, timeout_ms: f64, max_bytes: usize) -> Rc<Host> {
        let (token, url, who, reading) = (JsValue::UNDEFINED, String::new(), String::new(), RefCell::default());
        Rc::new(Host { fetch, token, label, url, who, timeout_ms, max_bytes, reading })
    }

    /// A rejection of `mcpSend` or of a read, by what the request's `signal` and the value say.
    pub(super) fn failed(&self, e: &JsValue, signal: &JsValue) -> Error {
        let token = get(e, "code").as_string().as_deref() == Some("host_callback");
        failed(&self.label, abort_state(signal), token, &thrown_message(e), self.timeout_ms)
    }
}
