//! What every provider folder implements: the [`Adapter`] trait, one zero-sized type per
//! provider, and [`Assembly`], the state of a streamed reply that the provider's stream-event
//! handler fills in. The one place a [`Style`](crate::style::Style) picks its adapter is
//! `dispatch.rs`; this file knows no provider.

use super::call::{Finish, ModelReply, ModelRequest, ProviderConfig};
use crate::error::{redact, Code, Error, Result};
use crate::json::str_at;
use crate::json::Arr;
use crate::message::{Message, Reasoning, Usage};
use crate::prelude::*;
use serde_json::Value;

/// The faces of one wire format that the shared code calls by style. The history reader is not
/// here: a history's dialect is decided per message from its shape, not from the client's style
/// (see `dialect/read.rs`), so the readers are called by shape.
pub(crate) trait Adapter: Sync {
    /// `(url, headers, body)` for one call, before the configured extra headers apply.
    fn build(&self, cfg: &ProviderConfig, req: &ModelRequest) -> (String, Vec<(String, String)>, String);

    /// A 2xx reply that is a JSON object with no `error` member (checked by the caller).
    fn parse(&self, reply: &Value) -> Result<ModelReply>;

    /// The transcript as this style presents it in `RunResult.messages` and the saved state
    /// (reasoning of this provider kept, tagged with its origin). Each dialect's renderer takes
    /// `model`: `None` for this view, `Some(model)` for a request body to that model, where only
    /// reasoning from this provider and that model is sent, untagged.
    fn render(&self, messages: &[Message]) -> Vec<Value>;

    /// The provider's name in a [`Reasoning`](crate::message::Reasoning) tag: whose reasoning
    /// state this style can carry and send back.
    fn reasoning_provider(&self) -> &'static str;

    /// The provider's stop reason, normalised. `has_calls`: the reply holds tool calls.
    fn finish(&self, stop_reason: Option<&str>, has_calls: bool) -> Finish;

    /// One SSE event's data (trimmed) of a streamed reply; text and reasoning deltas go to
    /// `deltas`.
    fn on_event(&self, data: &str, asm: &mut Assembly, deltas: &mut Vec<Delta>) -> Result<()>;

    /// Whether a stream that has stopped is whole. By default the end marker, or, for servers
    /// that omit it, a stop reason followed by a clean end of the body.
    fn stream_complete(&self, asm: &Assembly, clean_end: bool) -> bool {
        asm.finished || (asm.stop_reason.is_some() && clean_end)
    }

    /// What a whole stream ends with, named in the truncation error.
    fn end_marker(&self) -> &'static str;

    /// A streamed call's accumulated arguments, made to match what [`Adapter::parse`] gives.
    fn streamed_arguments(&self, raw: String) -> String {
        raw
    }

    /// Refuses a model name this provider could not carry safely, before any request. By
    /// default any: a model in the JSON body is left alone (gateways name models
    /// `vendor/model`).
    fn check_model(&self, _model: &str) -> Result<()> {
        Ok(())
    }

    /// Whether the system prompt travels as the transcript's first message (OpenAI chat) rather
    /// than in a request field of its own. [`super::seed_system`] applies it for the loop and for
    /// `translate` alike.
    fn system_in_transcript(&self) -> bool {
        false
    }

    /// Writes [`Adapter::render`]'s view as JSON text (a run's result). A provider whose request
    /// writer produces that view may write it straight from the transcript.
    fn write_transcript(&self, a: &mut Arr, messages: &[Message]) {
        write_values(a, self.render(messages));
    }
}

/// The elements of a rendered transcript, written out (the default `write_transcript` of every
/// adapter shares it).
fn write_values(a: &mut Arr, values: Vec<Value>) {
    for v in &values {
        a.value(v);
    }
}

/// What a stream delivers as it arrives: answer text, or readable reasoning (never mixed).
#[derive(Clone, Debug, PartialEq)]
pub enum Delta {
    Text(String),
    Reasoning(String),
}

impl Delta {
    /// The text deltas of `deltas` joined (`reasoning: false`), or the reasoning ones.
    pub fn join(deltas: &[Delta], reasoning: bool) -> String {
        let mut out = String::new();
        for d in deltas {
            match (d, reasoning) {
                (Delta::Text(t), false) | (Delta::Reasoning(t), true) => out.push_str(t),
                _ => {}
            }
        }
        out
    }
}

/// A streamed reply so far. The text is kept whole; `parts` are tool calls (and, for Anthropic,
/// text blocks) in the order the provider opened them.
pub(crate) struct Assembly {
    secret: Option<String>,
    pub text: String,
    pub parts: Vec<Part>,
    pub usage: Usage,
    pub stop_reason: Option<String>,
    /// The provider's terminal marker arrived; nothing after it counts.
    pub finished: bool,
    /// Opaque reasoning state assembled so far (the provider's adapter fills `items`; the
    /// provider tag and the model are set when the reply is finished).
    pub reasoning: Reasoning,
    /// Readable reasoning so far.
    pub reasoning_text: String,
    /// The model refused (its refusal is the text).
    pub refusal: bool,
}

#[derive(Default)]
pub(crate) struct Part {
    /// The provider's index for the part (OpenAI call index, Anthropic block index).
    pub index: u64,
    pub is_tool: bool,
    pub id: String,
    pub name: String,
    pub arguments: String,
    pub text: String,
    /// Gemini: the call part's `thoughtSignature`.
    pub signature: Option<String>,
}

impl Assembly {
    pub(crate) fn new(secret: Option<String>) -> Self {
        Assembly {
            secret,
            text: String::new(),
            parts: Vec::new(),
            usage: Usage::default(),
            stop_reason: None,
            finished: false,
            reasoning: Reasoning::default(),
            reasoning_text: String::new(),
            refusal: false,
        }
    }

    /// Adds answer text and reports it as a delta.
    pub(crate) fn push_text(&mut self, text: &str, deltas: &mut Vec<Delta>) {
        self.text.push_str(text);
        deltas.push(Delta::Text(text.to_string()));
    }

    /// One usage report of the stream. A report is the running total so far, never a part to
    /// add: Groq states its total on the finish chunk and again in the usage-only chunk, some
    /// OpenAI-compatible servers send the total so far on every chunk, Gemini's `usageMetadata`
    /// is the running total of each event (and its prompt count may settle lower at the end).
    /// So the last report wins; one with no count at all (a server's empty `usage: {}`) changes
    /// nothing. Anthropic's reports state some counts only and are applied count by count
    /// (`anthropic/stream.rs`).
    pub(crate) fn report_usage(&mut self, u: Usage) {
        if u != Usage::default() {
            self.usage = u;
        }
    }

    /// Adds readable reasoning and reports it as a delta.
    pub(crate) fn push_reasoning(&mut self, text: &str, deltas: &mut Vec<Delta>) {
        if !text.is_empty() {
            self.reasoning_text.push_str(text);
            deltas.push(Delta::Reasoning(text.to_string()));
        }
    }

    /// The number of tool calls opened so far: where a reasoning item arriving now goes.
    pub(crate) fn calls_so_far(&self) -> usize {
        self.parts.iter().filter(|p| p.is_tool).count()
    }

    /// An event's data as JSON; the error quotes it with the key removed.
    pub(crate) fn json(&self, data: &str) -> Result<Value> {
        crate::json::parse(data)
            .map_err(|e| Error::parse(format!("a provider stream event is not valid JSON ({e}): {}", redact(data, self.secret.as_deref()))))
    }

    /// An error object sent inside the stream.
    pub(crate) fn provider_error(&self, err: &Value) -> Error {
        let detail = str_at(err, "message").map(str::to_string).unwrap_or_else(|| crate::json::to_text(err));
        Error::new(Code::ProviderError, format!("provider stream error: {}", redact(&detail, self.secret.as_deref())))
    }
}
