//! A response body being read (`Body`), chunk by chunk through host.js's `readChunk` (a reply
//! `mcpSend` did not read whole: an event stream, a refusal), or a legacy
//! MCP session's long-lived stream through `mcpRead`, counted per request.

use super::host::Host;
use super::{mcp_cancel, mcp_read};
use crate::edge::{await_js, read_chunk};
use crate::error::Result;
use crate::http::ByteStream;
use crate::sources::outgoing::too_large;
use futures_util::future::LocalBoxFuture;
use js_sys::Uint8Array;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A response body being read. It holds the source's host, not the operation's transport: a
/// legacy session's stream outlives the operation that opened it.
pub(super) struct Body {
    pub(super) reader: JsValue,
    /// The request's signal (none for a legacy stream, read under `host.reading`'s).
    pub(super) signal: JsValue,
    pub(super) host: Rc<Host>,
    pub(super) done: bool,
    pub(super) stream: bool,
}

impl ByteStream for Body {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            if self.done {
                return Ok(None);
            }
            let h = Rc::clone(&self.host);
            // A body is counted in host.js (`readChunk` cancels it past the cap: `false`); the
            // legacy stream here, per request, since it serves one request after another.
            let (p, signal) = match self.stream {
                true => {
                    let signal = h.reading.borrow().0.clone();
                    (mcp_read(&self.reader, &signal), signal)
                }
                false => (read_chunk(&self.reader, h.max_bytes as f64, &self.signal), self.signal.clone()),
            };
            let v = await_js(&p).await.map_err(|e| h.failed(&e, &signal))?;
            if v.is_undefined() || v.as_bool() == Some(false) {
                self.done = true;
                return if v.is_undefined() { Ok(None) } else { Err(too_large(&h.label, h.max_bytes)) };
            }
            // A reader that gave no bytes gave an empty chunk.
            let bytes = v.dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
            if self.stream {
                let mut r = h.reading.borrow_mut();
                r.1 += bytes.len();
                if r.1 > h.max_bytes {
                    return Err(too_large(&h.label, h.max_bytes));
                }
            }
            Ok(Some(bytes))
        })
    }
}

impl Drop for Body {
    /// Stops a stream the client no longer reads (the response it waited for has come).
    fn drop(&mut self) {
        if !self.done {
            mcp_cancel(&self.reader);
        }
    }
}
