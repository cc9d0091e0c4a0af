//! One operation's transport (`Transport`): the source's host, the caller's signal and the
//! signals made for its requests; the one `SourceTransport` every source of this entry runs over.

use super::body::Body;
use super::host::Host;
use super::{auth, mcp_send, mcp_signal};
use crate::edge::{await_js, end_run};
use crate::error::{Error, Result};
use crate::http::{ByteStream, WholeBody};
use crate::sources::outgoing::{failed, outgoing, too_large};
use crate::sources::transport::{SourceRequest, SourceResponse, SourceTransport};
use futures_util::future::LocalBoxFuture;
use js_sys::{Array, Uint8Array};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One operation's transport (a listing, a call, closing): the source's host, the caller's
/// signal, and the signals made for its requests, ended with it (`endRun`), so no deadline timer
/// or listener on the caller's signal outlives the operation. Not ended with a request's body: a
/// legacy session's POST is answered on the long-lived stream, read under the POST's signal after
/// its own (empty) body is gone.
pub(super) struct Transport {
    pub(super) host: Rc<Host>,
    /// The caller's signal (a tool call's `ctx.signal`), `undefined` for none.
    pub(super) user: JsValue,
    pub(super) made: RefCell<Vec<JsValue>>,
    /// The signal of the operation's waits (A2A's polls), made once.
    pub(super) waits: RefCell<Option<JsValue>>,
}

impl Transport {
    pub(super) fn new(host: &Rc<Host>, user: JsValue) -> Transport {
        Transport { host: Rc::clone(host), user, made: RefCell::default(), waits: RefCell::default() }
    }

    /// The caller's signal and a deadline of `ms` as one signal, made as a run's (`runOptions`);
    /// `undefined` when there is neither.
    pub(super) fn signal(&self, ms: Option<f64>) -> Result<JsValue> {
        let s = mcp_signal(&self.user, ms).map_err(|_| Error::bad_input("ctx.signal must be an AbortSignal"))?;
        if !s.is_undefined() {
            self.made.borrow_mut().push(s.clone());
        }
        Ok(s)
    }

    /// Sends `req` with HTTP method `method` (an HTTP tool's may be any).
    pub(super) async fn send_as(&self, req: &SourceRequest, method: &str) -> Result<SourceResponse> {
        let h = &self.host;
        let out = outgoing(req, method, &h.url, &h.label)?;
        // A long-lived stream has no deadline and outlives the call that opened it.
        let signal = if req.stream { JsValue::UNDEFINED } else { self.signal(Some(h.timeout_ms))? };
        let token = if out.token { &h.token } else { &JsValue::UNDEFINED };
        // A long-lived stream is read as it comes; any other successful reply whole, in JS.
        let p = mcp_send(&h.fetch, token, &h.who, &req.url, &out.head, req.body.clone(), &signal, h.max_bytes as f64, !req.stream);
        let res: Array = await_js(&p).await.map_err(|e| h.failed(&e, &signal))?.unchecked_into();
        let status = res.get(0).as_f64().unwrap_or(0.0) as u16;
        match status {
            crate::ops::STATUS_NO_RESPONSE => return Err(failed(&h.label, 0, false, "fetch gave no Response", h.timeout_ms)),
            crate::ops::STATUS_TOO_LARGE => return Err(too_large(&h.label, h.max_bytes)),
            _ => {}
        }
        if !req.stream {
            *h.reading.borrow_mut() = (signal.clone(), 0);
        }
        let text = |i: u32| res.get(i).as_string();
        let reader = res.get(4);
        let body: Box<dyn ByteStream> = match reader.dyn_ref::<Uint8Array>() {
            Some(bytes) => Box::new(WholeBody(Some(bytes.to_vec()))),
            None => match reader.as_string() {
                Some(t) if t.len() > h.max_bytes => return Err(too_large(&h.label, h.max_bytes)),
                Some(t) => Box::new(WholeBody(Some(t.into_bytes()))),
                None => Box::new(Body { reader, signal, host: Rc::clone(h), done: false, stream: req.stream }),
            },
        };
        Ok(SourceResponse { status, content_type: text(1).unwrap_or_default(), session_id: text(2), www_authenticate: text(3), body })
    }
}

impl Drop for Transport {
    fn drop(&mut self) {
        for s in self.made.get_mut().iter() {
            end_run(s);
        }
    }
}

impl SourceTransport for Transport {
    fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, Result<SourceResponse>> {
        Box::pin(self.send_as(req, req.method))
    }
    fn random(&self, n: usize) -> Option<Vec<u8>> {
        auth::random(n)
    }
    fn sha256<'a>(&'a self, data: &'a [u8]) -> LocalBoxFuture<'a, Option<Vec<u8>>> {
        auth::sha256(data)
    }
    fn grant<'a>(&'a self, grant: &'a Value) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async move { auth::grant(&self.host, self.signal(Some(self.host.timeout_ms))?, grant).await })
    }
}
