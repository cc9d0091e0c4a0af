//! Gemini generateContent, every face of it: the transcript as `contents` (`dialect.rs`, which
//! also reads a Gemini history back), the request (`request.rs`, with the tool schemas cut down
//! in `schema.rs`), the whole reply (`reply.rs`), the finish reasons (`finish.rs`) and the SSE
//! events (`stream.rs`).
//!
//! Quirks kept here: `{base}/v1beta/models/{model}:generateContent`
//! (`:streamGenerateContent?alt=sse` when streaming) with `x-goog-api-key`; the system prompt is
//! `systemInstruction`; one `functionDeclarations` tool; the OpenAPI schema subset; thought parts
//! are readable reasoning, never answer text, and go back verbatim with every `thoughtSignature`
//! (on the text part, on each call) to the model that made them, while a Gemini 3 model gets
//! the documented skip-validator signature on an unsigned turn's first call; a candidate that
//! ends empty for any reason but `STOP` / `MAX_TOKENS` (safety, a malformed call, one not yet
//! known), or a blocked prompt, is `provider_error`; an empty model turn is never sent; calls may come without ids (the loop then assigns `call_<turn>_<i>`,
//! which travel in `functionCall.id` / `functionResponse.id`); a stream has no end marker, only
//! the `finishReason` of its last event.

use crate::prelude::*;
pub(crate) mod dialect;
mod finish;
mod reply;
mod request;
mod schema;
mod stream;

pub use finish::gemini_finish_reason;
pub use schema::gemini_schema;

use super::adapter::{Adapter, Assembly, Delta};
use super::call::{Finish, ModelReply, ModelRequest, ProviderConfig};
use crate::error::Result;
use crate::message::Message;
use serde_json::Value;

pub(crate) struct Gemini;

impl Adapter for Gemini {
    fn build(&self, cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String) {
        request::build(cfg, req)
    }
    fn parse(&self, reply: &Value) -> Result<ModelReply> {
        reply::parse(reply)
    }
    fn render(&self, messages: &[Message]) -> Vec<Value> {
        dialect::render(messages, None)
    }
    fn on_event(&self, data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()> {
        stream::on_event(data, asm, deltas)
    }
    /// The model is a URL path segment here: one that could leave it (`/`, `\\`, `?`, `#`, `..`,
    /// control characters) is refused. The request builder percent-encodes it too, but a server
    /// may decode `%2F`.
    fn check_model(&self, model: &str) -> Result<()> {
        let outside = |b: u8| b < 0x20 || matches!(b, b'/' | b'\\' | b'?' | b'#' | 0x7f);
        if model.bytes().any(outside) || crate::small::contains(model, "..") {
            return Err(crate::error::Error::bad_input("createClient options.model must be one URL path segment"));
        }
        Ok(())
    }

    fn end_marker(&self) -> &'static str {
        "a finishReason"
    }
    fn reasoning_provider(&self) -> &'static str {
        "gemini"
    }
    fn finish(&self, stop_reason: Option<&str>, has_calls: bool) -> Finish {
        finish::finish(stop_reason, has_calls)
    }
}
