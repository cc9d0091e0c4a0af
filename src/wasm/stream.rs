//! The event streams that `client.stream`, `client.streamWithAnswer` and `client.translateStream`
//! return. The queue and the async-iterator stepping are the `EventStream` class in `host.js`;
//! the run is driven by `task::spawn` and pushes each event into it as JSON text.

use super::convert::js_error;
use crate::error::Result;
use crate::events::{EventSink, StreamEvent};
use js_sys::{Function, Promise};
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// The JS async iterable (host.js). Its methods do not throw.
    #[wasm_bindgen(typescript_type = "EventStream")]
    pub type EventStream;
    #[wasm_bindgen(constructor)]
    fn new() -> EventStream;
    #[wasm_bindgen(method)]
    fn push(this: &EventStream, text: &str);
    /// The `done` event, from its result's two texts (`RunResult::to_json_parts`).
    #[wasm_bindgen(method, js_name = push)]
    fn push_done(this: &EventStream, result: &str, messages: &str);
    #[wasm_bindgen(method)]
    fn end(this: &EventStream, error: &JsValue);
    /// What `for await` calls: `{ value, done: false }` per event, then `{ done: true }`.
    #[wasm_bindgen(method)]
    pub fn next(this: &EventStream) -> Promise;
}

/// Feeds the driver's events into a stream, or (`ask` with `onText`) only into a callback.
pub struct Sink {
    stream: Option<EventStream>,
    on_text: Option<Function>,
}

impl Sink {
    /// A sink that only calls `onText(delta)` (for `ask`): no queue is kept.
    pub fn text_callback(on_text: Function) -> Sink {
        Sink { stream: None, on_text: Some(on_text) }
    }

    /// The iterable this sink feeds (none for `ask`'s callback sink).
    pub fn iterable(&self) -> Option<&EventStream> {
        self.stream.as_ref()
    }

    /// Queues any JSON data as the next item (events, and translateStream's chunks).
    pub fn push(&self, item: &serde_json::Value) {
        self.push_text(&crate::json::to_text(item));
    }

    fn push_text(&self, text: &str) {
        if let Some(s) = &self.stream {
            s.push(text);
        }
    }
}

impl EventSink for Sink {
    fn event(&self, e: StreamEvent) {
        if let (Some(f), StreamEvent::Text { delta }) = (&self.on_text, &e) {
            let _ = f.call1(&JsValue::UNDEFINED, &delta.as_str().into());
        }
        match (&self.stream, &e) {
            // Its messages are parsed only when read, as a returned result's are.
            (Some(s), StreamEvent::Done { result }) => {
                let (text, messages) = result.to_json_parts();
                s.push_done(&text, &messages);
            }
            _ => self.push_text(&e.to_json()),
        }
    }
}

impl EventStream {
    /// Starts `run` (which reports through the sink it is given) and returns the iterable.
    pub fn start(run: impl FnOnce(Sink) -> Pin<Box<dyn Future<Output = Result<()>>>>) -> EventStream {
        let stream = EventStream::new();
        let fut = run(Sink { stream: Some(stream.clone().unchecked_into()), on_text: None });
        let end: EventStream = stream.clone().unchecked_into();
        super::task::spawn(async move { end.end(&fut.await.err().map_or(JsValue::UNDEFINED, js_error)) });
        stream
    }
}
