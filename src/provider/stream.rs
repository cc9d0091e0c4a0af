//! Streamed replies: bytes in, text deltas out as they arrive, and at the end the same
//! [`ModelReply`] a non-streamed call gives, so the loop does not know whether a turn was
//! streamed. This file is the provider-neutral part (SSE framing, completeness, the final
//! reply); each provider folder's `stream.rs` handles its own events. A stream that ends before
//! it is whole is an error, never a silent partial answer.

use super::adapter::{Adapter, Assembly};
use super::call::{ModelReply, ProviderConfig};
use super::dispatch::adapter;
use crate::error::{Error, Result};
use crate::message::{AssistantTurn, ToolCall};
use crate::sse::SseDecoder;

pub struct StreamAssembler {
    adapter: &'static dyn Adapter,
    sse: SseDecoder,
    asm: Assembly,
    /// The error of an event whose chunk still had deltas to deliver: returned by the next
    /// `push` or by `finish`, so nothing after it counts.
    failed: Option<Error>,
}

impl StreamAssembler {
    pub fn new(cfg: &ProviderConfig) -> Self {
        StreamAssembler { adapter: adapter(cfg.style), sse: SseDecoder::new(), asm: Assembly::new(cfg.api_key.clone()), failed: None }
    }

    /// Feeds response bytes; returns the text deltas they completed. When an event fails, the
    /// deltas of the events before it in the same chunk are still returned, and the error comes
    /// from the next call (or `finish`): what a consumer sees does not depend on how the bytes
    /// were cut into chunks.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<String>> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let mut deltas = Vec::new();
        for ev in self.sse.push(chunk) {
            if self.asm.finished {
                continue; // nothing after the terminal marker counts
            }
            if let Err(e) = self.adapter.on_event(ev.data.trim(), &mut self.asm, &mut deltas) {
                if deltas.is_empty() {
                    return Err(e);
                }
                self.failed = Some(e);
                break;
            }
        }
        Ok(deltas)
    }

    /// The error of an event whose chunk's earlier deltas `push` returned, if any: a caller that
    /// has delivered those deltas fails now instead of waiting for more bytes.
    pub fn failed(&self) -> Result<()> {
        self.failed.clone().map_or(Ok(()), Err)
    }

    /// The whole reply. Errors when the stream stopped before its end, or with the error of an
    /// event `push` has not reported yet.
    pub fn finish(self) -> Result<ModelReply> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if !self.adapter.stream_complete(&self.asm, self.sse.is_clean_end()) {
            let marker = self.adapter.end_marker();
            return Err(Error::parse(format!("the provider stream ended before {marker}: truncated reply")));
        }
        let asm = self.asm;
        let mut turn = AssistantTurn { text: asm.text, calls: Vec::new() };
        for p in asm.parts.into_iter().filter(|p| p.is_tool) {
            let arguments = self.adapter.streamed_arguments(p.arguments);
            turn.calls.push(ToolCall { id: p.id, name: p.name, arguments });
        }
        Ok(ModelReply { turn, stop_reason: asm.stop_reason, usage: asm.usage })
    }
}
