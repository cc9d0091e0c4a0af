//! The values of one model call, on both sides of HTTP: what the loop asks for
//! ([`ModelRequest`]), what goes over the wire ([`HttpRequest`], [`HttpResponse`]) and what comes
//! back ([`ModelReply`]). Every adapter speaks in these; none of them is provider-specific.

use crate::message::{AssistantTurn, Message, Usage};
use crate::prelude::*;
use crate::style::Style;
use crate::tool::ToolSpec;
use serde_json::Value;

/// Everything a provider call needs. `api_key` is never serialised anywhere.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    pub base_url: String,
    pub style: Style,
    pub model: String,
    pub api_key: Option<String>,
    /// Extra headers; they override the defaults, compared case-insensitively.
    pub headers: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The JSON body, serialised once, straight from the transcript.
    pub body: String,
    /// For an agent's child, its delegate calls' ids from the root down (`d1/d7`; empty for the
    /// root's own calls): the host's `fetch` is told, so a Workflow names each child's model
    /// steps apart.
    pub call_path: String,
}

impl HttpRequest {
    /// The body as JSON data (for tests and for hosts that inspect requests).
    pub fn json(&self) -> Value {
        crate::json::parse(&self.body).unwrap_or(Value::Null)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    /// How long the provider asked to wait before a retry, in milliseconds (as text): the host
    /// reads `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date. Read by
    /// [`crate::retry::retry_after_ms`].
    pub retry_after: Option<String>,
}

/// One model call: the system prompt, the transcript and the declared tools.
pub struct ModelRequest<'a> {
    pub system: &'a str,
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    /// Ask for an SSE reply (`stream: true`).
    pub stream: bool,
    pub tool_choice: ToolChoice<'a>,
    /// A cap on the reply's tokens, in each provider's own field.
    pub max_tokens: Option<u64>,
}

/// How the request states the tool choice.
#[derive(Clone, Copy)]
pub enum ToolChoice<'a> {
    /// The loop's default: "auto" whenever tools are declared.
    Auto,
    /// Say nothing (translate without a `toolChoice`).
    Omit,
    /// An OpenAI-style choice (`"none"`, `"required"`, `{ function: { name } }`), mapped per
    /// provider.
    Given(&'a Value),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelReply {
    pub turn: AssistantTurn,
    /// The provider's own finish / stop reason, verbatim.
    pub stop_reason: Option<String>,
    /// `stop_reason` normalised across providers (set from it by the shared code through
    /// [`crate::provider::Adapter`], unless the adapter found a refusal).
    pub finish: Finish,
    pub usage: Usage,
    /// The readable reasoning of the reply (thinking text, thought summaries), never its text.
    pub reasoning_text: String,
    /// The model refused: `turn.text` is the refusal.
    pub refusal: bool,
}

/// Why a model call ended, the same words for every provider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finish {
    #[default]
    Stop,
    ToolCalls,
    /// Cut at the token limit: the answer is incomplete.
    Length,
    /// Withheld or cut by the provider's safety system.
    ContentFilter,
    /// The model declined; the refusal is the text.
    Refusal,
    /// Anything else the provider named (its value is beside it).
    Other,
}

impl Finish {
    pub fn as_str(self) -> &'static str {
        match self {
            Finish::Stop => "stop",
            Finish::ToolCalls => "tool_calls",
            Finish::Length => "length",
            Finish::ContentFilter => "content_filter",
            Finish::Refusal => "refusal",
            Finish::Other => "other",
        }
    }
}
