//! Reading a history in any dialect back into the neutral transcript. The dialect is decided
//! per message from its own shape (Gemini `parts`; OpenAI `tool_calls` and `tool` messages;
//! Anthropic content blocks; Responses items with a `type`), the provider folder's reader does the rest, and a refused message
//! is named (`history[3] has no string role`). A typed serde fast path was measured and dropped
//! (no reliable gain; its size is in docs/decisions/small-std.md).

use crate::error::{Error, Result};
use crate::json::str_in;
use crate::message::{AssistantTurn, Message, Reasoning, ORIGIN_KEY};
use crate::prelude::*;
use crate::provider::flatten;
use crate::provider::{
    anthropic::dialect as anthropic, gemini::dialect as gemini, openai::dialect as openai, responses::dialect as responses,
};
use serde_json::{Map, Value};

/// Reads a history in any dialect. Consecutive tool results merge into one `Tool` message;
/// result names are recovered from the calls they answer.
pub fn read(history: &[Value]) -> Result<Vec<Message>> {
    let mut out: Vec<Message> = Vec::new();
    // Responses items of one assistant turn come one after another.
    let mut items = responses::ItemRun::default();
    for (i, v) in history.iter().enumerate() {
        let at = |rest: &str| {
            let mut s = String::from("history[");
            crate::json::write_u64(&mut s, i as u64);
            s.push_str(rest);
            s
        };
        let obj = v.as_object().ok_or_else(|| Error::bad_state(at("] is not an object")))?;
        // Responses items (a call, a result, reasoning: a `type`, often no `role`); the reader
        // restores the origin tag itself, as it may come before the turn's reasoning.
        if responses::is_item(obj) {
            if let Err(e) = responses::read_item(obj, &mut out, &mut items) {
                return Err(Error::bad_input(at(&format!("]: {e}"))));
            }
            continue;
        }
        items = responses::ItemRun::default();
        let role = str_in(obj, "role").ok_or_else(|| Error::bad_state(at("] has no string role")))?;
        let content = obj.get("content").unwrap_or(&Value::Null);
        // The readers of parts say what they refuse (a part no provider could carry is never
        // dropped); this one place names the message.
        let read = match (obj.get("parts").and_then(Value::as_array), role, content) {
            // Gemini contents: { role: "user" | "model" | "function", parts }
            (Some(parts), "user" | "model" | "function", _) => gemini::read(i, role, parts, &mut out),
            (None, "tool" | "function", _) => openai::read_tool_message(obj, &mut out),
            (None, "user", Value::Array(blocks)) => anthropic::read_user_blocks(blocks, &mut out),
            (None, "user", _) => {
                out.push(Message::User(flatten(content)));
                Ok(())
            }
            (None, "system" | "developer", _) => {
                out.push(Message::System(flatten(content)));
                Ok(())
            }
            (None, "assistant", _) => {
                out.push(Message::Assistant(read_assistant(obj, i)?));
                Ok(())
            }
            _ => return Err(Error::bad_state(at(&format!("] has unknown role \"{role}\"")))),
        };
        if let Err(e) = read {
            return Err(Error::bad_input(at(&format!("]: {e}"))));
        }
        stamp_origin(obj, &mut out);
    }
    name_results(&mut out);
    check_ids(&out)?;
    Ok(out)
}

/// Content blocks are Anthropic's, any other content is text; `tool_calls` are OpenAI's.
fn read_assistant(obj: &Map<String, Value>, i: usize) -> Result<AssistantTurn> {
    let mut turn = AssistantTurn::default();
    match obj.get("content") {
        Some(Value::Array(blocks)) => anthropic::read_assistant_blocks(blocks, &mut turn),
        Some(other) => turn.text = flatten(other),
        None => {}
    }
    if let Some(list) = obj.get("tool_calls").and_then(Value::as_array) {
        openai::read_tool_calls(list, false, &mut turn.calls)
            .map_err(|(k, missing)| Error::bad_state(format!("history[{i}].tool_calls[{k}] has no {missing}")))?;
        if turn.reasoning.is_none() && turn.calls.iter().any(|c| c.signature.is_some()) {
            turn.reasoning = Some(Reasoning::new(openai::SIGNATURES));
        }
    }
    Ok(turn)
}

/// A rendered assistant message names whose reasoning it carries ([`ORIGIN_KEY`]); the
/// provider's reader has already tagged it with its own provider (model unknown: any), which
/// the named origin refines. A history from elsewhere, with no such member, keeps the reader's.
fn stamp_origin(obj: &Map<String, Value>, out: &mut [Message]) {
    let Some(origin) = Reasoning::from_origin(obj.get(ORIGIN_KEY)) else { return };
    if let Some(Message::Assistant(AssistantTurn { reasoning: Some(r), .. })) = out.last_mut() {
        r.provider = origin.provider;
        r.model = origin.model;
    }
}

/// Every call of a turn needs its own id: results are paired with calls by id, so a call
/// without one, or two calls of a turn sharing one, would leave a result to the wrong call (or
/// none) and a resume could not tell them apart. Refused rather than repaired: no renumbering
/// could know which result a forged history meant for which call. (Gemini calls without an id
/// have one made up by the reader already.)
///
/// A result must answer a call of the turn it follows, once: one naming a call of another turn
/// (or none) would pair with nothing the provider was shown, leaving the turn's own call without
/// its result, and a second result for a call could not be told from the first. Refused for the
/// same reason.
fn check_ids(out: &[Message]) -> Result<()> {
    let mut turn: &[crate::message::ToolCall] = &[];
    let mut answered: Vec<&str> = Vec::new();
    for m in out {
        match m {
            Message::Assistant(t) => {
                for (k, c) in t.calls.iter().enumerate() {
                    if c.id.is_empty() || t.calls.iter().take(k).any(|d| d.id == c.id) {
                        return Err(Error::bad_state("history has a tool call without an id of its own"));
                    }
                }
                turn = &t.calls;
                answered.clear();
            }
            Message::Tool(outs) => {
                for o in outs {
                    if !turn.iter().any(|c| c.id == o.call_id) {
                        return Err(Error::bad_state("history has a tool result for no call of the turn before it"));
                    }
                    if answered.contains(&o.call_id.as_str()) {
                        return Err(Error::bad_state("history has two results for one tool call"));
                    }
                    answered.push(&o.call_id);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// OpenAI tool messages carry no tool name; take it from the call each result answers (the
/// calls are looked up in place, not copied per turn).
fn name_results(out: &mut [Message]) {
    let mut last: Option<usize> = None;
    for j in 0..out.len() {
        let (head, tail) = out.split_at_mut(j);
        match &mut tail[0] {
            Message::Assistant(t) if !t.calls.is_empty() => last = Some(j),
            Message::Tool(outs) => {
                let Some(Message::Assistant(t)) = last.and_then(|l| head.get(l)) else { continue };
                for o in outs.iter_mut().filter(|o| o.name.is_empty()) {
                    if let Some(c) = t.calls.iter().find(|c| c.id == o.call_id) {
                        o.name = c.name.clone();
                    }
                }
            }
            _ => {}
        }
    }
}

/// Reads a history given as JSON text (an array of messages).
pub fn read_json(text: &str) -> Result<Vec<Message>> {
    match crate::json::parse(text) {
        Ok(Value::Array(a)) => read(&a),
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(_) => Err(Error::bad_input("history must be an array of messages")),
        Err(e) => Err(Error::bad_input(format!("history is not JSON: {e}"))),
    }
}
