//! The whole Responses reply: the `output` items, `status` with `incomplete_details`, `usage`.
//! The item reader here is also the stream's: a streamed item is read when it is done.

use super::PROVIDER;
use crate::error::{Code, Error, Result};
use crate::json::str_at;
use crate::message::{AssistantTurn, Reasoning, ToolCall, Usage};
use crate::prelude::*;
use crate::provider::call::ModelReply;
use crate::provider::common::{str_field, u64_at};
use serde_json::Value;

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    let output = v.get("output").and_then(Value::as_array).ok_or_else(|| Error::parse("Responses reply has no output array"))?;
    let mut reply = ModelReply { usage: usage_of(v.get("usage")), ..ModelReply::default() };
    for (i, item) in output.iter().enumerate() {
        match str_at(item, "type") {
            Some("message") => {
                for c in item.get("content").and_then(Value::as_array).into_iter().flatten() {
                    // As the stream reads them: a refusal is known by its text.
                    if let Some((text, refusal)) = content_text(c).filter(|(t, _)| !t.is_empty()) {
                        reply.turn.text.push_str(text);
                        reply.refusal |= refusal;
                    }
                }
            }
            Some("function_call") => {
                reply.turn.calls.push(function_call(item).map_err(|m| Error::parse(format!("Responses output[{i}] {m}")))?)
            }
            Some("custom_tool_call") => {
                let call = custom_call(item).map_err(|m| Error::parse(format!("Responses output[{i}] {m}")))?;
                keep_item(&mut reply.turn, item.clone());
                reply.turn.calls.push(call);
            }
            Some(kind) if unanswerable(item) => return Err(unanswerable_error(kind)),
            _ => {
                // Summaries are the readable reasoning; the item itself goes back verbatim.
                for s in summary_texts(item) {
                    if !reply.reasoning_text.is_empty() {
                        reply.reasoning_text.push_str(SUMMARY_BREAK);
                    }
                    reply.reasoning_text.push_str(s);
                }
                keep_item(&mut reply.turn, item.clone());
            }
        }
    }
    let status = str_at(v, "status");
    if status == Some("failed") {
        return Err(Error::new(Code::ProviderError, "provider returned an error: the response failed"));
    }
    reply.stop_reason = stop_reason(v);
    withheld(reply.stop_reason.as_deref(), &reply.turn)?;
    shown(&reply.turn)?;
    Ok(reply)
}

/// A `custom_tool_call` (a free-form or grammar tool, declared as `{ type: "custom" }` through
/// `requestParams.tools`): a call like any other, its free-form `input` string given to the tool
/// as `{ "input": "…" }`. The item itself is kept (see [`keep_item`]) so that the call goes back
/// as it came and its result as a `custom_tool_call_output` (`dialect.rs`).
pub(super) fn custom_call(item: &Value) -> core::result::Result<ToolCall, &'static str> {
    let name = str_at(item, "name").ok_or("custom_tool_call has no name")?;
    let input = str_at(item, "input").unwrap_or_default();
    let mut args = serde_json::Map::new();
    args.insert("input".into(), Value::from(input));
    let arguments = crate::json::to_text(&Value::Object(args));
    Ok(ToolCall { id: str_field(item, "call_id"), name: name.to_string(), arguments, signature: None })
}

/// Output items that ask the client to act and wait for an answer of their own kind
/// (`local_shell_call_output`, `mcp_approval_response`, …), which the loop cannot give: kept as
/// items, the run would end as an empty success and the next request would fail on the missing
/// output. A `tool_search_call` is the client's only with `execution: "client"`.
const CLIENT_CALLS: [&str; 5] = ["computer_call", "local_shell_call", "shell_call", "apply_patch_call", "mcp_approval_request"];

pub(super) fn unanswerable(item: &Value) -> bool {
    let kind = str_at(item, "type").unwrap_or_default();
    CLIENT_CALLS.contains(&kind) || (kind == "tool_search_call" && str_at(item, "execution") == Some("client"))
}

/// The typed error for [`unanswerable`] items: names the kind and what to do.
pub(super) fn unanswerable_error(kind: &str) -> Error {
    let fix = match kind {
        "mcp_approval_request" => "set `require_approval: \"never\"` on the MCP tool, or declare the MCP tools as toolkit tools",
        _ => "leave that tool out of requestParams.tools, or declare a toolkit (function) tool that does the same",
    };
    Error::parse(format!("the Responses reply asks for a {kind}, a call only the client can answer and this package does not: {fix}"))
}

/// Kept items are shown nowhere but the state: a reply whose only output is such items (a
/// server tool's, or one of a kind not known here) and no text or call would end the run as an
/// empty success, so it is an error naming the kinds. Reasoning alone is not: a reply cut while
/// reasoning has its own stop reason.
pub(super) fn shown(turn: &AssistantTurn) -> Result<()> {
    if !turn.text.is_empty() || !turn.calls.is_empty() {
        return Ok(());
    }
    let mut kinds: Vec<&str> = Vec::new();
    for (_, item) in turn.reasoning.iter().flat_map(|r| r.items.iter()) {
        let kind = str_at(item, "type").unwrap_or("(no type)");
        if kind != "reasoning" && !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    match kinds.is_empty() {
        true => Ok(()),
        false => Err(Error::parse(format!(
            "the Responses reply has no text and no call, only {} output items, which this package keeps but cannot show: an empty answer is not a success",
            crate::small::join(&kinds, ", ")
        ))),
    }
}

/// A message content part's text: `output_text`, or a `refusal` (then `true`).
pub(crate) fn content_text(c: &Value) -> Option<(&str, bool)> {
    match str_at(c, "type") {
        Some("output_text") => str_at(c, "text").map(|t| (t, false)),
        Some("refusal") => str_at(c, "refusal").map(|t| (t, true)),
        _ => None,
    }
}

/// A `function_call` item: its `call_id` pairs it with its output; the arguments stay the raw
/// string the provider sent. The error names what is missing.
pub(super) fn function_call(item: &Value) -> core::result::Result<ToolCall, &'static str> {
    let name = str_at(item, "name").ok_or("function_call has no name")?;
    let arguments = match item.get("arguments") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => crate::json::to_text(other),
    };
    Ok(ToolCall { id: str_field(item, "call_id"), name: name.to_string(), arguments, signature: None })
}

/// A reasoning item or a server-run tool item (web search and the like): kept verbatim, after
/// the calls before it, to be replayed to the same model.
pub(super) fn keep_item(turn: &mut AssistantTurn, item: Value) {
    let at = turn.calls.len();
    turn.reasoning.get_or_insert_with(|| Reasoning::new(PROVIDER)).items.push((at, item));
}

/// The `summary_text` parts of a reasoning item.
fn summary_texts(item: &Value) -> impl Iterator<Item = &str> {
    let list = item.get("summary").and_then(Value::as_array).filter(|_| str_at(item, "type") == Some("reasoning"));
    list.into_iter().flatten().map(|s| str_at(s, "text").unwrap_or(""))
}

/// The readable reasoning: summary parts, each after a blank line when text came before it, as
/// the stream writes them (`stream.rs`, at each `response.reasoning_summary_part.added`).
pub(super) const SUMMARY_BREAK: &str = "\n\n";

/// `completed`, or `incomplete:<reason>` (`max_output_tokens`, `content_filter`), or the bare
/// status when it names no reason.
pub(super) fn stop_reason(response: &Value) -> Option<String> {
    let status = str_at(response, "status")?;
    let reason = response.get("incomplete_details").and_then(|d| d.get("reason")).and_then(Value::as_str);
    Some(match (status, reason) {
        ("incomplete", Some(r)) => format!("incomplete:{r}"),
        _ => status.to_string(),
    })
}

/// A reply cut by the content filter before it said anything is an error naming the reason,
/// never an empty answer.
pub(super) fn withheld(stop_reason: Option<&str>, turn: &AssistantTurn) -> Result<()> {
    match stop_reason {
        Some(r @ "incomplete:content_filter") if turn.text.is_empty() && turn.calls.is_empty() => {
            Err(Error::new(Code::ProviderError, format!("OpenAI withheld the answer: {r}")))
        }
        _ => Ok(()),
    }
}

/// `usage`: `input_tokens`, `output_tokens` (reasoning tokens are part of them) and
/// `total_tokens` when sent, else the sum.
pub(super) fn usage_of(u: Option<&Value>) -> Usage {
    let Some(u) = u.filter(|u| u.is_object()) else { return Usage::default() };
    let (p, c) = (u64_at(u, "input_tokens"), u64_at(u, "output_tokens"));
    let total = u.get("total_tokens").and_then(Value::as_u64).unwrap_or(p.saturating_add(c));
    let r = u.get("output_tokens_details").map_or(0, |d| u64_at(d, "reasoning_tokens"));
    let cached = u.get("input_tokens_details").map_or(0, |d| u64_at(d, "cached_tokens"));
    Usage {
        prompt_tokens: p,
        completion_tokens: c,
        total_tokens: total,
        reasoning_tokens: r,
        cache_read_tokens: cached,
        cache_write_tokens: 0,
    }
}
