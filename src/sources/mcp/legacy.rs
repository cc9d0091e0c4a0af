//! The legacy HTTP+SSE transport (protocol 2024-11-05), as a fallback: a server that refuses the
//! Streamable HTTP `initialize` POST with 400, 404 or 405 is asked for an event stream with GET on
//! the same URL; its first `endpoint` event names where to POST messages, and every response
//! comes back on that one stream. Requests on such a session take turns (one reads the stream at
//! a time, through [`Gate`]), which keeps the reading simple at the cost of parallel calls.

use crate::driver::ByteStream;
use crate::sse::{SseDecoder, SseEvent};
use futures_util::future::poll_fn;
use std::cell::{Cell, RefCell};
use std::task::{Poll, Waker};

/// The open stream of a legacy session.
pub struct Legacy {
    /// Where messages are POSTed (the `endpoint` event, resolved against the server URL).
    pub endpoint: String,
    /// Taken out while one request reads it.
    pub stream: Option<Box<dyn ByteStream>>,
    pub decoder: SseDecoder,
    /// Decoded events no reader has looked at yet.
    pub queue: Vec<SseEvent>,
}

/// `reference` (an `endpoint` event's data) against the server URL: absolute, origin-relative or
/// path-relative.
pub fn resolve(base: &str, reference: &str) -> String {
    let reference = reference.trim();
    if reference.starts_with("http://") || reference.starts_with("https://") {
        return reference.to_string();
    }
    let after_scheme = super::find(base, "://").map_or(0, |i| i + 3);
    let path_at = base.get(after_scheme..).and_then(|r| r.find('/')).map_or(base.len(), |i| after_scheme + i);
    let origin = base.get(..path_at).unwrap_or(base);
    if reference.starts_with('/') {
        return crate::json::join(&[origin, reference], "");
    }
    let path = base.get(path_at..).unwrap_or("").split(['?', '#']).next().unwrap_or("");
    let dir = path.rfind('/').map_or("/", |i| path.get(..=i).unwrap_or("/"));
    crate::json::join(&[origin, dir, reference], "")
}

/// Whether two absolute http(s) URLs share scheme, host and port, compared as written (case
/// aside): `http://h` and `http://h:80` count as different, which errs on the side of refusing.
pub fn same_origin(a: &str, b: &str) -> bool {
    resolve(a, "/").eq_ignore_ascii_case(&resolve(b, "/"))
}

/// A one-at-a-time turn for a single-threaded async world: `acquire` resolves when no other
/// holder is inside; dropping the guard lets the next one in.
#[derive(Default)]
pub struct Gate {
    busy: Cell<bool>,
    waiting: RefCell<Vec<Waker>>,
}

pub struct Turn<'a>(&'a Gate);

impl Gate {
    pub async fn acquire(&self) -> Turn<'_> {
        poll_fn(|cx| {
            if self.busy.get() {
                self.waiting.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            } else {
                self.busy.set(true);
                Poll::Ready(())
            }
        })
        .await;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.busy.set(false);
        for w in self.0.waiting.borrow_mut().drain(..) {
            w.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_resolve_against_the_server_url() {
        assert_eq!(resolve("http://h:1/mcp", "/messages?sessionId=a"), "http://h:1/messages?sessionId=a");
        assert_eq!(resolve("http://h:1/a/sse?x=1", "messages?s=1"), "http://h:1/a/messages?s=1");
        assert_eq!(resolve("http://h:1", "m"), "http://h:1/m");
        assert_eq!(resolve("http://h:1/mcp", " https://o.test/post "), "https://o.test/post");
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert!(same_origin("http://H:1/mcp", "http://h:1/messages?s=1"));
        for other in ["https://h:1/", "http://h:2/", "http://h/", "http://evil@h:1/", "http://h:1.evil/"] {
            assert!(!same_origin("http://h:1/mcp", other), "{other}");
        }
    }

    #[test]
    fn the_gate_lets_one_holder_in_at_a_time() {
        use futures_util::future::join;
        let gate = Gate::default();
        let order = RefCell::new(Vec::new());
        let one = async {
            let _t = gate.acquire().await;
            order.borrow_mut().push("one in");
            // yield once while holding the turn: `two` runs now and must wait
            let mut yielded = false;
            poll_fn(|cx| {
                if yielded {
                    return Poll::Ready(());
                }
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            })
            .await;
            order.borrow_mut().push("one out");
        };
        let two = async {
            let _t = gate.acquire().await;
            order.borrow_mut().push("two in");
        };
        futures_executor::block_on(join(one, two));
        assert_eq!(*order.borrow(), ["one in", "one out", "two in"]);
    }
}
