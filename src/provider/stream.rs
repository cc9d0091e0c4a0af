//! Streamed replies: bytes in, text deltas out as they arrive, and at the end the same
//! [`ModelReply`] a non-streamed call gives, so the loop does not know whether a turn was
//! streamed. This file is the provider-neutral part (SSE framing, completeness, the final
//! reply); each provider folder's `stream.rs` handles its own events. A stream that ends before
//! it is whole is an error, never a silent partial answer.

use super::adapter::{Adapter, Assembly, Delta};
use super::call::{ModelReply, ProviderConfig};
use super::dispatch::adapter;
use crate::error::{Error, Result};
use crate::message::{AssistantTurn, ToolCall};
use crate::prelude::*;
use crate::sse::SseDecoder;

pub struct StreamAssembler {
    adapter: &'static dyn Adapter,
    model: String,
    sse: SseDecoder,
    asm: Assembly,
}

impl StreamAssembler {
    pub fn new(cfg: &ProviderConfig) -> Self {
        StreamAssembler {
            adapter: adapter(cfg.style),
            model: cfg.model.clone(),
            sse: SseDecoder::new(),
            asm: Assembly::new(cfg.api_key.clone()),
        }
    }

    /// Feeds response bytes; the text deltas they completed go to `deltas`. When an event fails,
    /// the deltas of the events before it are in `deltas` all the same (the caller delivers them,
    /// then stops on the error): what a consumer sees does not depend on how the bytes were cut
    /// into chunks.
    pub fn push(&mut self, chunk: &[u8], deltas: &mut Vec<Delta>) -> Result<()> {
        for ev in self.sse.push(chunk) {
            if self.asm.finished {
                continue; // nothing after the terminal marker counts
            }
            self.adapter.on_event(ev.data.trim(), &mut self.asm, deltas)?;
        }
        Ok(())
    }

    /// The whole reply. Errors when the stream stopped before its end.
    pub fn finish(self) -> Result<ModelReply> {
        if !self.adapter.stream_complete(&self.asm, self.sse.is_clean_end()) {
            let marker = self.adapter.end_marker();
            return Err(Error::parse(format!("the provider stream ended before {marker}: truncated reply")));
        }
        let asm = self.asm;
        let mut turn = AssistantTurn { text: asm.text, calls: Vec::new(), reasoning: Some(asm.reasoning) };
        for p in asm.parts.into_iter().filter(|p| p.is_tool) {
            let arguments = self.adapter.streamed_arguments(p.arguments);
            turn.calls.push(ToolCall { id: p.id, name: p.name, arguments, signature: p.signature });
        }
        let reply = ModelReply {
            turn,
            stop_reason: asm.stop_reason,
            usage: asm.usage,
            reasoning_text: asm.reasoning_text,
            refusal: asm.refusal,
            ..ModelReply::default()
        };
        Ok(super::finished(self.adapter, &self.model, reply))
    }
}
