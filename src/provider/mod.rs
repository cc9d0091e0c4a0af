//! Provider adapters: pure translators between the neutral transcript and a provider's wire
//! format (contract §f). `build_request` makes `{url, headers, body}`; `parse_response` turns a
//! status and body text into a [`ModelReply`] or a typed error. No I/O happens here.

mod anthropic;
mod gemini;
mod openai;

pub use gemini::gemini_schema;
mod stream;

pub use stream::StreamAssembler;

use crate::error::{Code, Error, Result};
use crate::message::{AssistantTurn, Message, Usage};
use crate::tool::ToolSpec;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "anthropic")]
    Anthropic,
    #[serde(rename = "gemini")]
    Gemini,
}

impl Style {
    pub fn parse(s: &str) -> Result<Style> {
        match s {
            "openai" => Ok(Style::OpenAi),
            "anthropic" => Ok(Style::Anthropic),
            "gemini" => Ok(Style::Gemini),
            other => Err(Error::bad_input(format!(
                "style must be \"openai\", \"anthropic\" or \"gemini\", got \"{other}\""
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Style::OpenAi => "openai",
            Style::Anthropic => "anthropic",
            Style::Gemini => "gemini",
        }
    }
}

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
}

impl HttpRequest {
    /// The body as JSON data (for tests and for hosts that inspect requests).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    /// The `Retry-After` header, when the provider sent one.
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

fn forced(choice: &Value) -> Option<&str> {
    choice.get("function").and_then(|f| f.get("name")).and_then(Value::as_str)
}

#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    pub turn: AssistantTurn,
    pub stop_reason: Option<String>,
    pub usage: Usage,
}

pub fn build_request(cfg: &ProviderConfig, req: &ModelRequest) -> HttpRequest {
    let (url, mut headers, body) = match cfg.style {
        Style::OpenAi => openai::build(cfg, req),
        Style::Anthropic => anthropic::build(cfg, req),
        Style::Gemini => gemini::build(cfg, req),
    };
    for (k, v) in &cfg.headers {
        headers.retain(|(hk, _)| !hk.eq_ignore_ascii_case(k));
        headers.push((k.clone(), v.clone()));
    }
    HttpRequest { url, headers, body }
}

/// Turns a provider response into a reply. Non-2xx is `provider_http` (body capped, key
/// removed); a body that is not the expected JSON is `provider_parse`; a 200 carrying an error
/// object is `provider_error`.
pub fn parse_response(cfg: &ProviderConfig, resp: &HttpResponse) -> Result<ModelReply> {
    let secret = cfg.api_key.as_deref();
    if !(200..300).contains(&resp.status) {
        return Err(Error::provider_http(resp.status, &resp.body, secret));
    }
    let v: Value = serde_json::from_str(&resp.body).map_err(|e| {
        Error::parse(format!(
            "provider reply is not valid JSON ({e}): {}",
            crate::error::redact(&resp.body, secret)
        ))
    })?;
    if !v.is_object() {
        return Err(Error::parse("provider reply is not a JSON object"));
    }
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        let detail = err
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| err.to_string());
        return Err(Error::new(
            Code::ProviderError,
            format!("provider returned an error: {}", crate::error::redact(&detail, secret)),
        ));
    }
    match cfg.style {
        Style::OpenAi => openai::parse(&v),
        Style::Anthropic => anthropic::parse(&v),
        Style::Gemini => gemini::parse(&v),
    }
}

/// A declared tool's fields, borrowed, for the request bodies.
#[derive(Serialize)]
pub(crate) struct ToolDecl<'a> {
    pub name: &'a str,
    pub description: &'a str,
    #[serde(rename = "parameters")]
    pub schema: &'a Value,
}

/// For styles whose system prompt is a body field (Anthropic `system`, Gemini
/// `systemInstruction`): the configured prompt plus any system messages a transcript from the
/// OpenAI dialect carried, without repeating one.
fn hoisted_system(req: &ModelRequest) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if !req.system.is_empty() {
        parts.push(req.system);
    }
    for m in req.messages {
        if let Message::System(s) = m {
            if !s.is_empty() && !parts.contains(&s.as_str()) {
                parts.push(s);
            }
        }
    }
    parts.join("\n\n")
}

pub(crate) fn u64_at(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn strip_slash(base: &str) -> &str {
    base.trim_end_matches('/')
}
