//! Provider adapters: pure translators between the neutral transcript and a provider's wire
//! format. No I/O happens here.
//!
//! - `openai/`, `anthropic/`, `gemini/`, `responses/` (OpenAI's Responses API): one folder per
//!   provider, holding every face of its wire format (transcript view, history reader, request
//!   builder, reply parser, stream events) and its quirks. A provider quirk belongs in its folder and nowhere else.
//! - `adapter.rs`: the trait each folder implements; `dispatch.rs`: the one `Style` → adapter
//!   table.
//! - this file: [`build_request`] and [`parse_response`], the provider-neutral HTTP handling
//!   (extra headers, status codes, error objects); `stream.rs`: the neutral stream assembler;
//!   `call.rs`: the request/reply values; `common.rs`: helpers several folders share.

use crate::json::str_at;
use crate::prelude::*;
mod adapter;
pub(crate) mod anthropic;
mod call;
mod common;
pub(crate) mod dispatch;
pub(crate) mod gemini;
pub(crate) mod openai;
pub(crate) mod responses;
mod stream;
#[cfg(test)]
mod tests;

pub use crate::style::Style;
pub use adapter::Delta;
pub use call::{Finish, HttpRequest, HttpResponse, ModelReply, ModelRequest, ProviderConfig, ToolChoice};
pub use common::flatten;
pub use gemini::{gemini_finish_reason, gemini_schema};
pub use stream::StreamAssembler;

use crate::error::{redact, Code, Error, Result};
use dispatch::adapter;
use serde_json::Value;

/// Refuses a model its provider could not carry safely (see `Adapter::check_model`), before any
/// request.
pub fn check_model(style: Style, model: &str) -> Result<()> {
    adapter(style).check_model(model)
}

/// Puts the system prompt at the head of `messages` where `style` carries it as a message
/// (OpenAI chat) and the messages hold none yet; other styles send it in a field of their own.
/// The loop calls it on a fresh transcript (a history brings its own system message, or none,
/// as the other toolnexus ports do), `translate` on every request.
pub fn seed_system(style: Style, messages: &mut Vec<crate::message::Message>, system: &str) {
    use crate::message::Message;
    if adapter(style).system_in_transcript() && !system.is_empty() && !messages.iter().any(|m| matches!(m, Message::System(_))) {
        crate::small::insert(messages, 0, Message::System(system.to_string()));
    }
}

pub fn build_request(cfg: &ProviderConfig, req: &ModelRequest) -> HttpRequest {
    let (url, mut headers, body) = adapter(cfg.style).build(cfg, req);
    for (k, v) in &cfg.headers {
        headers.retain(|(hk, _)| !hk.eq_ignore_ascii_case(k));
        headers.push((k.clone(), v.clone()));
    }
    HttpRequest { url, headers, body, call_path: String::new() }
}

/// A non-2xx answer as `provider_http`. A 3xx is a redirect the host did not follow (requests
/// go out with `redirect: "manual"`, see [`crate::driver::request_head`]): refused, and not retried (the
/// same request gets the same redirect).
pub fn status_error(status: u16, body: &str, secret: Option<&str>) -> Error {
    Error::provider_http(status, if status / 100 == 3 { "redirect refused" } else { body }, secret)
}

/// Turns a provider response into a reply. Non-2xx is `provider_http` (body capped, key
/// removed); a body that is not the expected JSON is `provider_parse`; a 200 carrying an error
/// object is `provider_error`.
pub fn parse_response(cfg: &ProviderConfig, resp: &HttpResponse) -> Result<ModelReply> {
    let secret = cfg.api_key.as_deref();
    if !(200..300).contains(&resp.status) {
        return Err(status_error(resp.status, &resp.body, secret));
    }
    let v: Value = crate::json::parse(&resp.body)
        .map_err(|e| Error::parse(format!("provider reply is not valid JSON ({e}): {}", redact(&resp.body, secret))))?;
    if !v.is_object() {
        return Err(Error::parse("provider reply is not a JSON object"));
    }
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        let detail = str_at(err, "message").map(str::to_string).unwrap_or_else(|| crate::json::to_text(err));
        return Err(Error::new(Code::ProviderError, format!("provider returned an error: {}", redact(&detail, secret))));
    }
    let a = adapter(cfg.style);
    Ok(finished(a, &cfg.model, a.parse(&v)?))
}

/// The last touches every reply gets, whole or streamed: its reasoning is tagged with the
/// provider and the model it will be sent back to (dropped when there is none), and its stop
/// reason is normalised.
fn finished(a: &dyn adapter::Adapter, model: &str, mut reply: ModelReply) -> ModelReply {
    let signed = reply.turn.calls.iter().any(|c| c.signature.is_some());
    if signed || reply.turn.reasoning.as_ref().is_some_and(|r| !r.is_empty()) {
        let r = reply.turn.reasoning.get_or_insert_with(Default::default);
        r.provider = a.reasoning_provider().to_string();
        r.model = model.to_string();
    } else {
        reply.turn.reasoning = None;
    }
    reply.finish = match reply.refusal {
        true => Finish::Refusal,
        false => a.finish(reply.stop_reason.as_deref(), !reply.turn.calls.is_empty()),
    };
    reply
}
