//! OpenAI chat completions, every face of it: the transcript as `messages` (`dialect.rs`, which
//! also reads `tool_calls` and `tool` messages back, for histories and replies alike), the
//! request (`request.rs`), the whole reply (`reply.rs`) and the SSE chunks (`stream.rs`).
//!
//! Quirks kept here: the system prompt is a transcript message, not a body field; `tools` and
//! `tool_choice` are omitted when no tool is declared; a streamed request asks for
//! `stream_options.include_usage` so the last chunk carries the usage; an empty `choices` is a
//! final, empty answer; servers that omit `[DONE]` still end a whole stream with a
//! `finish_reason`.

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

pub(crate) struct OpenAi;

impl Adapter for OpenAi {
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
    fn system_in_transcript(&self) -> bool {
        true
    }

    /// Straight from the transcript, with the writer the request bodies use.
    fn write_transcript(&self, a: &mut crate::json::Arr, messages: &[Message]) {
        dialect::write_messages(a, messages, None);
    }

    fn end_marker(&self) -> &'static str {
        "[DONE]"
    }
    /// Chat completions carry no reasoning state of OpenAI's own; Gemini's OpenAI-compatible
    /// endpoint sends its thought signatures on tool calls (`extra_content.google`).
    fn reasoning_provider(&self) -> &'static str {
        dialect::SIGNATURES
    }
    /// A call wins over a plain `stop` (some servers say `stop` with calls).
    fn finish(&self, stop_reason: Option<&str>, has_calls: bool) -> Finish {
        match stop_reason {
            Some("length") => Finish::Length,
            Some("content_filter") => Finish::ContentFilter,
            _ if has_calls => Finish::ToolCalls,
            None | Some("stop") => Finish::Stop,
            Some("tool_calls" | "function_call") => Finish::ToolCalls,
            Some(_) => Finish::Other,
        }
    }
}
