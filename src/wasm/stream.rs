//! The event streams that `client.stream`, `client.streamWithAnswer` and `client.translateStream`
//! return. The queue and the async-iterator stepping are the `EventStream` class in `host.js`;
//! client-methods.js makes one per call, hands it to the client's `op`, whose run pushes each event into it
//! as JSON text, and ends it when the run's promise settles.

use crate::events::{EventSink, StreamEvent};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// The JS async iterable (host.js). Its methods do not throw.
    #[wasm_bindgen(typescript_type = "EventStream")]
    pub type EventStream;
    /// For Rust callers (the wasm-bindgen tests), which play api.js's part.
    #[wasm_bindgen(constructor)]
    pub fn new() -> EventStream;
    /// Queues an item as JSON text (an event, or a chunk of translateStream).
    #[wasm_bindgen(method)]
    pub fn push(this: &EventStream, text: &str);
    /// The `done` event, from its result's two texts (`RunResult::to_json_parts`).
    #[wasm_bindgen(method, js_name = push)]
    fn push_done(this: &EventStream, result: &str, messages: &str);
    /// Ends the stream: with the error of a failed run, else `undefined`.
    #[wasm_bindgen(method)]
    pub fn end(this: &EventStream, error: &JsValue);
    /// What `for await` calls: `{ value, done: false }` per event, then `{ done: true }`.
    #[wasm_bindgen(method)]
    pub fn next(this: &EventStream) -> Promise;
}

/// Where the driver's events go: a stream, or (`ask` with `onText`) only a callback, given each
/// text delta (no queue is kept).
pub enum Sink {
    Stream(EventStream),
    Text(Function),
}

impl Sink {
    /// The iterable this sink feeds (none for `ask`'s callback sink).
    pub fn iterable(&self) -> Option<&EventStream> {
        match self {
            Sink::Stream(s) => Some(s),
            Sink::Text(_) => None,
        }
    }
}

impl EventSink for Sink {
    fn event(&self, e: StreamEvent) {
        match (self, &e) {
            (Sink::Text(f), StreamEvent::Text { delta }) => {
                let _ = f.call1(&JsValue::UNDEFINED, &delta.as_str().into());
            }
            (Sink::Text(_), _) => {}
            // Its messages are parsed only when read, as a returned result's are.
            (Sink::Stream(s), StreamEvent::Done { result }) => {
                let (text, messages) = result.to_json_parts();
                s.push_done(&text, &messages);
            }
            (Sink::Stream(s), _) => s.push(&e.to_json()),
        }
    }
}
