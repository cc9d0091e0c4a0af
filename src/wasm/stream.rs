//! `EventStream`: the async iterable that `client.stream` and `client.streamWithAnswer` return.
//! The run is driven by `spawn_local`; events queue up until `next()` takes them, so a consumer
//! that is slower than the model loses nothing. The entry files give the class its
//! `Symbol.asyncIterator` (see pkg-template/iterable.js): `for await (const e of stream)`.

use super::convert::js_error;
use crate::error::Result;
use crate::events::{EventSink, StreamEvent};
use js_sys::{Function, Object, Promise, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[derive(Default)]
struct Queue {
    /// Each queued item as JSON text: it becomes a JS value only when `next()` takes it, in one
    /// `JSON.parse` with its `{ value, done }` wrapper.
    items: VecDeque<String>,
    finished: bool,
    error: Option<JsValue>,
    /// `resolve`, `reject` of the `next()` call that is waiting.
    waiting: Option<(Function, Function)>,
    closed: bool,
}

fn done_step() -> JsValue {
    let o = Object::new();
    let _ = Reflect::set(&o, &"value".into(), &JsValue::UNDEFINED);
    let _ = Reflect::set(&o, &"done".into(), &true.into());
    o.into()
}

impl Queue {
    /// Settles a waiting `next()` when there is something to hand it.
    fn deliver(&mut self) {
        let Some((resolve, reject)) = self.waiting.take() else { return };
        let _ = if let Some(text) = self.items.pop_front() {
            match js_sys::JSON::parse(&format!(r#"{{"value":{text},"done":false}}"#)) {
                Ok(step) => resolve.call1(&JsValue::UNDEFINED, &step),
                Err(_) => reject.call1(&JsValue::UNDEFINED, &js_error(crate::error::Error::internal("JSON.parse refused our own output"))),
            }
        } else if let Some(e) = self.error.take() {
            self.finished = true;
            reject.call1(&JsValue::UNDEFINED, &e)
        } else if self.finished {
            resolve.call1(&JsValue::UNDEFINED, &done_step())
        } else {
            self.waiting = Some((resolve, reject));
            return;
        };
    }
}

#[wasm_bindgen]
pub struct EventStream {
    q: Rc<RefCell<Queue>>,
}

/// Feeds the driver's events into the queue.
pub struct Sink {
    q: Rc<RefCell<Queue>>,
    on_text: Option<Function>,
}

impl Sink {
    /// A sink that only calls `onText(delta)` (for `ask`): no queue is kept.
    pub fn text_callback(on_text: Function) -> Sink {
        Sink { q: Rc::new(RefCell::new(Queue { closed: true, ..Queue::default() })), on_text: Some(on_text) }
    }
}

impl Sink {
    /// Queues any JSON data as the next item (events, and translateStream's chunks).
    pub fn push<T: serde::Serialize + ?Sized>(&self, item: &T) {
        let mut q = self.q.borrow_mut();
        if q.closed {
            return;
        }
        if let Ok(text) = serde_json::to_string(item) {
            q.items.push_back(text);
        }
        q.deliver();
    }
}

impl EventSink for Sink {
    fn event(&self, e: StreamEvent) {
        if let (Some(f), StreamEvent::Text { delta }) = (&self.on_text, &e) {
            let _ = f.call1(&JsValue::UNDEFINED, &delta.as_str().into());
        }
        self.push(&e);
    }
}

impl EventStream {
    /// Starts `run` (which reports through the sink it is given) and returns the iterable.
    pub fn start(run: impl FnOnce(Sink) -> Pin<Box<dyn Future<Output = Result<()>>>>) -> EventStream {
        let q = Rc::new(RefCell::new(Queue::default()));
        let fut = run(Sink { q: q.clone(), on_text: None });
        let done = q.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let outcome = fut.await;
            let mut q = done.borrow_mut();
            match outcome {
                Ok(()) => q.finished = true,
                Err(e) => q.error = Some(js_error(e)),
            }
            q.deliver();
        });
        EventStream { q }
    }
}

#[wasm_bindgen]
impl EventStream {
    /// The next event: `{ value: StreamEvent, done: false }`, then `{ done: true }` after `done`.
    /// A failed run rejects (a `ToolnexusError` with its `code`).
    #[wasm_bindgen(unchecked_return_type = "Promise<IteratorResult<StreamEvent, undefined>>")]
    pub fn next(&self) -> Promise {
        let q = self.q.clone();
        Promise::new(&mut |resolve, reject| {
            let mut q = q.borrow_mut();
            if q.waiting.is_some() {
                let _ = reject.call1(&JsValue::UNDEFINED, &js_sys::Error::new("EventStream.next() called again before the previous call settled").into());
                return;
            }
            q.waiting = Some((resolve, reject));
            q.deliver();
        })
    }

    /// Stops delivering events (a `break` out of `for await`). The run itself goes on to its end,
    /// saving its state as usual; abort it with the `signal` option.
    #[wasm_bindgen(js_name = "return", unchecked_return_type = "Promise<IteratorResult<StreamEvent, undefined>>")]
    pub fn close(&self) -> Promise {
        let mut q = self.q.borrow_mut();
        q.closed = true;
        q.items.clear();
        q.finished = true;
        q.error = None;
        Promise::resolve(&done_step())
    }
}
