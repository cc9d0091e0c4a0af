//! Anthropic messages, every face of it: the transcript as content blocks (`dialect.rs`, which
//! also reads `tool_use` / `tool_result` blocks back), the request (`request.rs`), the whole
//! reply (`reply.rs`) and the SSE events (`stream.rs`).
//!
//! Quirks kept here: system messages are hoisted to the body's `system` field; `max_tokens` is
//! required (4096 unless set); the schema is named `input_schema`; only a forced or
//! `required`/`none` choice is sent; results carry `is_error`; streamed tool input arrives as
//! JSON fragments and is normalised as the whole reply serialises `input`; usage in
//! `message_delta` is cumulative; a stream is whole only at `message_stop`. Thinking,
//! redacted thinking and server tool blocks are reasoning items kept verbatim at their place
//! among the calls and sent back first (before the text) only to the model that made them; a
//! refusal with no answer is withheld (`provider_error`).

use crate::prelude::*;
pub(crate) mod dialect;
mod reply;
mod request;
mod stream;

use super::adapter::{Adapter, Assembly, Delta};
use super::call::{Finish, ModelReply, ModelRequest, ProviderConfig};
use crate::error::Result;
use crate::message::Message;
use serde_json::Value;

pub(crate) struct Anthropic;

impl Adapter for Anthropic {
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
    /// No stop reason makes a stream whole without `message_stop`.
    fn stream_complete(&self, asm: &Assembly, _clean_end: bool) -> bool {
        asm.finished
    }
    fn end_marker(&self) -> &'static str {
        "message_stop"
    }
    fn reasoning_provider(&self) -> &'static str {
        "anthropic"
    }
    fn finish(&self, stop_reason: Option<&str>, has_calls: bool) -> Finish {
        match stop_reason {
            Some("max_tokens" | "model_context_window_exceeded") => Finish::Length,
            Some("refusal") => Finish::Refusal,
            _ if has_calls => Finish::ToolCalls,
            None | Some("end_turn" | "stop_sequence") => Finish::Stop,
            Some("tool_use") => Finish::ToolCalls,
            Some(_) => Finish::Other,
        }
    }
    fn streamed_arguments(&self, raw: String) -> String {
        stream::arguments(raw)
    }
}
