//! The whole Gemini reply, and one candidate of a (partial) response, which the stream reads
//! event by event: text parts, thought parts (readable reasoning, kept verbatim as the turn's
//! reasoning items, never answer text), `functionCall` parts, thought signatures, the finish
//! reason, `usageMetadata`, and the ways a candidate ends without an answer.

use super::finish::{empty_is_answer, withheld};
use crate::error::{Code, Error, Result};
use crate::json::{str_at, str_in};
use crate::message::{AssistantTurn, Reasoning, ToolCall, Usage};
use crate::prelude::*;
use crate::provider::call::ModelReply;
use crate::provider::common::u64_at;
use serde_json::Value;

pub(super) fn parse(v: &Value) -> Result<ModelReply> {
    if v.get("candidates").is_none() && v.get("promptFeedback").is_none() {
        return Err(Error::parse("Gemini reply has no candidates"));
    }
    let mut turn = AssistantTurn::default();
    let mut thoughts = String::new();
    let reason = candidate(v, &mut turn, &mut thoughts)?;
    let answered = !turn.text.is_empty() || !turn.calls.is_empty();
    match reason.as_deref() {
        None if !answered => Err(Error::parse("Gemini reply has an empty candidate list")),
        Some(r) if !answered && !empty_is_answer(r) => Err(no_answer(v, r)),
        _ => {
            if !answered {
                shown(turn.reasoning.as_ref().map_or(&[][..], |r| r.items.as_slice()))?;
            }
            Ok(ModelReply { turn, stop_reason: reason, usage: usage_of(v), reasoning_text: thoughts, ..ModelReply::default() })
        }
    }
}

pub(super) fn usage_of(v: &Value) -> Usage {
    let Some(u) = v.get("usageMetadata").filter(|u| u.is_object()) else { return Usage::default() };
    // Thoughts are counted apart from the candidates (and in the total): added to the completion,
    // as every other provider counts reasoning.
    let (p, r) = (u64_at(u, "promptTokenCount"), u64_at(u, "thoughtsTokenCount"));
    let c = u64_at(u, "candidatesTokenCount").saturating_add(r);
    let total = u.get("totalTokenCount").and_then(Value::as_u64).unwrap_or(p.saturating_add(c));
    let cached = u64_at(u, "cachedContentTokenCount");
    Usage {
        prompt_tokens: p,
        completion_tokens: c,
        total_tokens: total,
        reasoning_tokens: r,
        cache_read_tokens: cached,
        cache_write_tokens: 0,
    }
}

/// A candidate that ended for `reason` with neither text nor calls (a reason other than a plain
/// stop or the token limit): the provider's error, naming the reason and Gemini's
/// `finishMessage` when it gave one (it says what was malformed, for example).
pub(super) fn no_answer(v: &Value, reason: &str) -> Error {
    let what = if withheld(reason) { "withheld the answer" } else { "ended without an answer" };
    let mut msg = format!("Gemini {what}: finishReason {reason}");
    let first = v.get("candidates").and_then(|c| c.get(0));
    if let Some(m) = first.and_then(|c| c.get("finishMessage")).and_then(Value::as_str).filter(|m| !m.is_empty()) {
        msg.push_str(" (");
        msg.push_str(m);
        msg.push(')');
    }
    Error::new(Code::ProviderError, msg)
}

/// A part's `thoughtSignature`; an empty one is none (there is nothing to send back).
pub(super) fn signature(p: &Value) -> Option<&str> {
    str_at(p, "thoughtSignature").filter(|s| !s.is_empty())
}

pub(super) fn is_thought(p: &Value) -> bool {
    p.get("thought").and_then(Value::as_bool) == Some(true)
}

fn reasoning(turn: &mut AssistantTurn) -> &mut Reasoning {
    turn.reasoning.get_or_insert_with(|| Reasoning::new("gemini"))
}

/// Text, thoughts, calls and signatures of one (partial) response's first candidate, added to
/// `turn` (thought text to `thoughts`); the finish reason if present. A blocked prompt is an
/// error here; a candidate that ended empty is judged by the caller, which sees the whole reply.
///
/// Signatures are kept verbatim where Gemini put them: a `functionCall` part's on that call
/// (for parallel calls Gemini signs only the first, and the others stay unsigned), a text part's
/// as the turn's `text_signature`. The turn has one text part, so of several signed text parts
/// the last signature wins: a stream sends the text in pieces and signs the last one, often an
/// empty `{ text: "", thoughtSignature }` at the very end, where the whole reply signs its one
/// text part with the same value.
pub(super) fn candidate(v: &Value, turn: &mut AssistantTurn, thoughts: &mut String) -> Result<Option<String>> {
    let Some(c) = v.get("candidates").and_then(Value::as_array).and_then(|c| c.first()) else {
        if let Some(reason) = v.get("promptFeedback").and_then(|f| f.get("blockReason")).and_then(Value::as_str) {
            return Err(Error::new(Code::ProviderError, format!("Gemini blocked the prompt: {reason}")));
        }
        return Ok(None);
    };
    for p in c.get("content").and_then(|c| c.get("parts")).and_then(Value::as_array).into_iter().flatten() {
        let sig = signature(p);
        if is_thought(p) {
            // Thought summaries are readable reasoning, and the part goes back verbatim.
            thoughts.push_str(str_at(p, "text").unwrap_or_default());
            let at = turn.calls.len();
            push_thought(&mut reasoning(turn).items, at, p.clone());
        } else if let Some(t) = str_at(p, "text") {
            turn.text.push_str(t);
            if let Some(s) = sig {
                reasoning(turn).text_signature = Some(s.to_string());
            }
        } else if let Some(f) = p.get("functionCall") {
            // Vertex AI can stream a call's arguments in pieces (`streamFunctionCallArguments`,
            // off unless asked for): not assembled here (an opt-in: docs/decisions/small-std.md), refused
            // with the setting's name rather than read as a call without a name.
            if f.get("willContinue").is_some() || f.get("partialArgs").is_some() {
                return Err(Error::parse("Gemini streamFunctionCallArguments (arguments in pieces) is not supported: leave it off"));
            }
            let name = str_at(f, "name").ok_or_else(|| Error::parse("Gemini functionCall has no name"))?;
            if sig.is_some() {
                reasoning(turn);
            }
            turn.calls.push(ToolCall {
                id: str_at(f, "id").unwrap_or_default().to_string(),
                name: name.to_string(),
                arguments: f.get("args").map_or_else(|| "{}".into(), crate::json::to_text),
                signature: sig.map(str::to_string),
            });
        } else if p.get("functionResponse").is_none() {
            // A part of another kind (`executableCode`, `codeExecutionResult`, `inlineData`, one
            // added later): kept verbatim, at its place, to go back as it came (see [`shown`]).
            let at = turn.calls.len();
            reasoning(turn).items.push((at, p.clone()));
        }
    }
    Ok(str_at(c, "finishReason").map(str::to_string))
}

/// The kind of a kept part: its first member that is not `thought` / `thoughtSignature`.
fn kind(p: &Value) -> &str {
    let keys = p.as_object().into_iter().flat_map(|m| m.keys());
    keys.map(String::as_str).find(|k| !matches!(*k, "thought" | "thoughtSignature")).unwrap_or("(empty part)")
}

/// Parts other than text, thoughts and calls are kept for the state but shown nowhere: a reply
/// with no text and no call that holds such parts (an image, code the model ran) would end the
/// run as an empty success. It is an error naming the part kinds.
pub(super) fn shown(items: &[(usize, Value)]) -> Result<()> {
    let mut kinds: Vec<&str> = Vec::new();
    for (_, p) in items.iter().filter(|(_, p)| !is_thought(p)) {
        if !kinds.contains(&kind(p)) {
            kinds.push(kind(p));
        }
    }
    match kinds.is_empty() {
        true => Ok(()),
        false => Err(Error::parse(format!(
            "the Gemini reply has no text and no functionCall, only {} parts, which this package keeps but cannot show: an empty answer is not a success",
            crate::small::join(&kinds, ", ")
        ))),
    }
}

/// Adds a thought part as a reasoning item. A stream cuts one thought part into pieces, one per
/// event, and signs only the last; so a plain thought part (`text`, `thought`, at most a
/// signature) right after an unsigned plain one at the same place continues it: its text is
/// appended and its signature taken. The whole reply goes through the same rule, so a reply
/// reads the same streamed or not.
pub(super) fn push_thought(items: &mut Vec<(usize, Value)>, at: usize, part: Value) {
    if let Some((last_at, Value::Object(last))) = items.last_mut() {
        if *last_at == at && plain(last) && !last.contains_key("thoughtSignature") {
            if let Value::Object(next) = &part {
                if plain(next) {
                    let add = str_in(next, "text").unwrap_or_default();
                    if let Some(Value::String(t)) = last.get_mut("text") {
                        t.push_str(add);
                    }
                    if let Some(s) = next.get("thoughtSignature") {
                        last.insert("thoughtSignature".into(), s.clone());
                    }
                    return;
                }
            }
        }
    }
    items.push((at, part));
}

/// A thought part of only `text` (a string), `thought` and `thoughtSignature`.
fn plain(p: &serde_json::Map<String, Value>) -> bool {
    p.get("text").is_some_and(Value::is_string) && p.keys().all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
}
