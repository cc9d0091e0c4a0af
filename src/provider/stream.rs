//! Streamed replies (contract §f.1 and §f.2 SSE, with Part 1 rule 14): bytes in, text deltas out
//! as they arrive, and at the end the same [`ModelReply`] a non-streamed call gives, so the loop
//! does not know whether a turn was streamed. A stream that ends before its terminal marker is
//! an error, never a silent partial answer.

use super::{u64_at, ModelReply, ProviderConfig, Style};
use crate::error::{redact, Code, Error, Result};
use crate::message::{AssistantTurn, ToolCall, Usage};
use crate::sse::{SseDecoder, SseEvent};
use serde_json::Value;

pub struct StreamAssembler {
    style: Style,
    secret: Option<String>,
    sse: SseDecoder,
    text: String,
    /// OpenAI: calls by `index` in first-seen order; Anthropic: content blocks in start order.
    parts: Vec<Part>,
    usage: Usage,
    stop_reason: Option<String>,
    finished: bool,
}

#[derive(Default)]
struct Part {
    index: u64,
    is_tool: bool,
    id: String,
    name: String,
    arguments: String,
    text: String,
}

impl StreamAssembler {
    pub fn new(cfg: &ProviderConfig) -> Self {
        StreamAssembler {
            style: cfg.style,
            secret: cfg.api_key.clone(),
            sse: SseDecoder::new(),
            text: String::new(),
            parts: Vec::new(),
            usage: Usage::default(),
            stop_reason: None,
            finished: false,
        }
    }

    /// Feeds response bytes; returns the text deltas they completed.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<String>> {
        let mut deltas = Vec::new();
        for ev in self.sse.push(chunk) {
            if self.finished {
                continue; // nothing after the terminal marker counts
            }
            match self.style {
                Style::OpenAi => self.openai(&ev, &mut deltas)?,
                Style::Anthropic => self.anthropic(&ev, &mut deltas)?,
                Style::Gemini => self.gemini(&ev, &mut deltas)?,
            }
        }
        Ok(deltas)
    }

    /// The whole reply. Errors when the stream stopped before its end.
    pub fn finish(self) -> Result<ModelReply> {
        // OpenAI-compatible servers that omit `[DONE]` still end with a finish_reason; Gemini has
        // no end marker at all, only the finishReason of its last chunk.
        let complete = self.finished || (self.style != Style::Anthropic && self.stop_reason.is_some() && self.sse.is_clean_end());
        if !complete {
            let marker = match self.style {
                Style::OpenAi => "[DONE]",
                Style::Anthropic => "message_stop",
                Style::Gemini => "a finishReason",
            };
            return Err(Error::parse(format!("the provider stream ended before {marker}: truncated reply")));
        }
        let mut turn = AssistantTurn { text: self.text, calls: Vec::new() };
        for p in self.parts.into_iter().filter(|p| p.is_tool) {
            let arguments = match self.style {
                // Anthropic sends the input as JSON fragments; normalise it as the non-streamed
                // path serialises `input`, keeping the raw text if it is not valid JSON.
                Style::Anthropic => match serde_json::from_str::<Value>(if p.arguments.trim().is_empty() { "{}" } else { &p.arguments }) {
                    Ok(v) => v.to_string(),
                    Err(_) => p.arguments,
                },
                Style::OpenAi | Style::Gemini => p.arguments,
            };
            turn.calls.push(ToolCall { id: p.id, name: p.name, arguments });
        }
        Ok(ModelReply { turn, stop_reason: self.stop_reason, usage: self.usage })
    }

    fn json(&self, data: &str) -> Result<Value> {
        serde_json::from_str(data).map_err(|e| {
            Error::parse(format!("a provider stream event is not valid JSON ({e}): {}", redact(data, self.secret.as_deref())))
        })
    }

    fn provider_error(&self, err: &Value) -> Error {
        let detail = err.get("message").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| err.to_string());
        Error::new(Code::ProviderError, format!("provider stream error: {}", redact(&detail, self.secret.as_deref())))
    }

    fn openai(&mut self, ev: &SseEvent, deltas: &mut Vec<String>) -> Result<()> {
        let data = ev.data.trim();
        if data == "[DONE]" {
            self.finished = true;
            return Ok(());
        }
        let v = self.json(data)?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            return Err(self.provider_error(err));
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            let (p, c) = (u64_at(u, "prompt_tokens"), u64_at(u, "completion_tokens"));
            let t = u.get("total_tokens").and_then(Value::as_u64).unwrap_or(p + c);
            self.usage.add(Usage { prompt_tokens: p, completion_tokens: c, total_tokens: t });
        }
        let Some(choice) = v.get("choices").and_then(Value::as_array).and_then(|c| c.first()) else {
            return Ok(());
        };
        if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
            self.stop_reason = Some(r.to_string());
        }
        let Some(delta) = choice.get("delta") else { return Ok(()) };
        if let Some(t) = delta.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            self.text.push_str(t);
            deltas.push(t.to_string());
        }
        for c in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let index = c.get("index").and_then(Value::as_u64).unwrap_or(0);
            let pos = match self.parts.iter().position(|p| p.index == index) {
                Some(p) => p,
                None => {
                    self.parts.push(Part { index, is_tool: true, ..Part::default() });
                    self.parts.len() - 1
                }
            };
            let part = &mut self.parts[pos];
            if let Some(id) = c.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                part.id = id.to_string();
            }
            if let Some(f) = c.get("function") {
                part.name.push_str(f.get("name").and_then(Value::as_str).unwrap_or(""));
                part.arguments.push_str(f.get("arguments").and_then(Value::as_str).unwrap_or(""));
            }
        }
        Ok(())
    }

    fn anthropic(&mut self, ev: &SseEvent, deltas: &mut Vec<String>) -> Result<()> {
        let v = self.json(ev.data.trim())?;
        match v.get("type").and_then(Value::as_str).unwrap_or("") {
            "message_start" => {
                if let Some(u) = v.get("message").and_then(|m| m.get("usage")) {
                    self.anthropic_usage(u);
                }
            }
            "content_block_start" => {
                let b = v.get("content_block").cloned().unwrap_or(Value::Null);
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(self.parts.len() as u64);
                let is_tool = b.get("type").and_then(Value::as_str) == Some("tool_use");
                let mut part = Part { index, is_tool, ..Part::default() };
                part.id = b.get("id").and_then(Value::as_str).unwrap_or("").to_string();
                part.name = b.get("name").and_then(Value::as_str).unwrap_or("").to_string();
                self.parts.push(part);
            }
            "content_block_delta" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                let d = v.get("delta").cloned().unwrap_or(Value::Null);
                let Some(part) = self.parts.iter_mut().find(|p| p.index == index) else {
                    return Err(Error::parse(format!("Anthropic stream: delta for unknown content block {index}")));
                };
                match d.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let t = d.get("text").and_then(Value::as_str).unwrap_or("");
                        if !t.is_empty() {
                            part.text.push_str(t);
                            self.text.push_str(t);
                            deltas.push(t.to_string());
                        }
                    }
                    Some("input_json_delta") => part.arguments.push_str(d.get("partial_json").and_then(Value::as_str).unwrap_or("")),
                    _ => {} // thinking and signature deltas are not modelled
                }
            }
            "message_delta" => {
                if let Some(r) = v.get("delta").and_then(|d| d.get("stop_reason")).and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_string());
                }
                if let Some(u) = v.get("usage") {
                    self.anthropic_usage(u);
                }
            }
            "message_stop" => self.finished = true,
            "error" => return Err(self.provider_error(v.get("error").unwrap_or(&v))),
            _ => {} // ping, content_block_stop
        }
        Ok(())
    }

    /// Each Gemini event is a whole partial response: its text parts are new text, its
    /// functionCall parts whole calls, its usageMetadata the running total.
    fn gemini(&mut self, ev: &SseEvent, deltas: &mut Vec<String>) -> Result<()> {
        let v = self.json(ev.data.trim())?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            return Err(self.provider_error(err));
        }
        let mut part = AssistantTurn::default();
        let reason = super::gemini::candidate(&v, &mut part)?;
        if !part.text.is_empty() {
            self.text.push_str(&part.text);
            deltas.push(part.text);
        }
        for c in part.calls {
            let index = self.parts.len() as u64;
            self.parts.push(Part { index, is_tool: true, id: c.id, name: c.name, arguments: c.arguments, text: String::new() });
        }
        let usage = super::gemini::usage_of(&v);
        if usage != Usage::default() {
            self.usage = usage;
        }
        if reason.is_some() {
            self.stop_reason = reason;
        }
        Ok(())
    }

    /// `message_delta` usage is cumulative (contract Part 1 rule 14): counts replace, not add.
    fn anthropic_usage(&mut self, u: &Value) {
        if let Some(p) = u.get("input_tokens").and_then(Value::as_u64) {
            self.usage.prompt_tokens = p;
        }
        if let Some(c) = u.get("output_tokens").and_then(Value::as_u64) {
            self.usage.completion_tokens = c;
        }
        self.usage.total_tokens = self.usage.prompt_tokens + self.usage.completion_tokens;
    }
}
