//! OpenAI's Responses API, every face of it: the transcript as `input` items (`dialect.rs`, which
//! also reads such items back), the request (`request.rs`), the whole reply (`reply.rs`) and the
//! SSE events (`stream.rs`).
//!
//! Quirks kept here: `POST {base}/responses` with a bearer key; stateless (`store: false`), so
//! the whole transcript goes as `input` every call and reasoning comes back encrypted
//! (`include: ["reasoning.encrypted_content"]`, not asked of the model families that refuse it);
//! the system prompt is `instructions`; a turn is several items (reasoning, message, calls), its
//! reasoning and server-run tool items kept verbatim and replayed only to the same model; the
//! stop reason is the response's `status`, with `incomplete_details.reason` after a colon; a
//! refusal is a content part of the message; a stream's events carry their own `type` and end
//! at `response.completed` / `response.incomplete`.

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

/// The provider name in a [`Reasoning`](crate::message::Reasoning) tag: Responses items are
/// OpenAI's reasoning state.
pub(crate) const PROVIDER: &str = "openai";

pub(crate) struct Responses;

impl Adapter for Responses {
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
    /// Only a terminal event makes a stream whole: no stop reason is known before it.
    fn stream_complete(&self, asm: &Assembly, _clean_end: bool) -> bool {
        asm.finished
    }
    fn end_marker(&self) -> &'static str {
        "response.completed"
    }
    fn reasoning_provider(&self) -> &'static str {
        PROVIDER
    }
    /// The stop reason is `status`, or `incomplete:<reason>` (see `reply::stop_reason`).
    fn finish(&self, stop_reason: Option<&str>, has_calls: bool) -> Finish {
        match stop_reason {
            Some("incomplete:max_output_tokens") => Finish::Length,
            Some("incomplete:content_filter") => Finish::ContentFilter,
            _ if has_calls => Finish::ToolCalls,
            None | Some("completed") => Finish::Stop,
            Some(_) => Finish::Other,
        }
    }
}
