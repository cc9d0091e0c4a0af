//! The legacy HTTP+SSE transport (protocol 2024-11-05), as a fallback: a server that refuses the
//! Streamable HTTP `initialize` POST with 400, 404 or 405 is asked for an event stream with GET on
//! the same URL; its first `endpoint` event names where to POST messages, and every response
//! comes back on that one stream. Requests on such a session take turns (one reads the stream at
//! a time, through [`Gate`]), which keeps the reading simple at the cost of parallel calls.

use crate::http::ByteStream;
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
