//! Function-call arguments streamed in pieces (Vertex AI's `streamFunctionCallArguments`): a
//! call opens with `{ name, willContinue: true }` (and its signature), its arguments arrive as
//! `partialArgs` entries `{ jsonPath, stringValue | numberValue | boolValue | nullValue,
//! willContinue? }` on name-less functionCall parts, and an empty `functionCall: {}` closes it.
//! The pieces are taken out of the event here, before the event is read as any other, and the
//! call's arguments are built as the object a whole reply would have carried.

use crate::error::{Error, Result};
use crate::provider::adapter::{Assembly, Part};
use serde_json::{Map, Value};

/// Takes the pieces of streamed calls out of `v`'s first candidate and applies them to `asm`.
pub(super) fn take(v: &mut Value, asm: &mut Assembly) -> Result<()> {
    // `get_mut` by key, not `pointer_mut`: a JSON pointer links `str::split` and `replace`.
    let parts = v.get_mut("candidates").and_then(|c| c.get_mut(0)).and_then(|c| c.get_mut("content")).and_then(|c| c.get_mut("parts"));
    let Some(parts) = parts.and_then(Value::as_array_mut) else { return Ok(()) };
    let mut kept = Vec::with_capacity(parts.len());
    for p in parts.drain(..) {
        let Some(f) = p.get("functionCall").and_then(Value::as_object) else {
            kept.push(p);
            continue;
        };
        let continues = f.get("willContinue").and_then(Value::as_bool) == Some(true);
        if let Some(pieces) = f.get("partialArgs").and_then(Value::as_array) {
            let call = open_call(asm).ok_or_else(|| Error::parse("Gemini stream: partialArgs with no call open"))?;
            for piece in pieces {
                apply(call, piece)?;
            }
        } else if f.get("name").is_some() && continues {
            let index = asm.parts.len() as u64;
            asm.parts.push(Part {
                index,
                is_tool: true,
                id: f.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                name: f.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                arguments: "{}".into(),
                signature: p.get("thoughtSignature").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string),
                open: true,
                ..Part::default()
            });
        } else if f.is_empty() {
            if let Some(call) = open_call(asm) {
                call.open = false;
            }
        } else {
            kept.push(p);
        }
    }
    *parts = kept;
    Ok(())
}

fn open_call(asm: &mut Assembly) -> Option<&mut Part> {
    asm.parts.iter_mut().rev().find(|p| p.is_tool && p.open)
}

/// Sets one piece at its path in the call's arguments; a string piece continues the string
/// already there.
fn apply(call: &mut Part, piece: &Value) -> Result<()> {
    let path =
        piece.get("jsonPath").and_then(Value::as_str).ok_or_else(|| Error::parse("Gemini stream: a partialArgs entry has no jsonPath"))?;
    let value = ["stringValue", "numberValue", "boolValue"].iter().find_map(|k| piece.get(*k)).cloned().unwrap_or(Value::Null);
    let mut args = match crate::json::parse(&call.arguments) {
        Ok(Value::Object(m)) => Value::Object(m),
        _ => Value::Object(Map::new()),
    };
    let slot =
        walk(&mut args, path).ok_or_else(|| Error::parse(format!("Gemini stream: jsonPath {path} is not one this reader follows")))?;
    match (slot, value) {
        (Value::String(s), Value::String(more)) => s.push_str(&more),
        (slot, value) => *slot = value,
    }
    call.arguments = crate::json::to_text(&args);
    Ok(())
}

/// The value at `$.a.b` (array indexes are not followed: a path with one is refused), made on
/// the way. Read by bytes with `get`: `str` slicing would link its panic formatting.
fn walk<'a>(mut at: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut rest = path.strip_prefix("$.")?;
    loop {
        let end = rest.bytes().position(|c| c == b'.').unwrap_or(rest.len());
        let key = rest.get(..end).filter(|k| !k.is_empty() && !k.as_bytes().contains(&b'['))?;
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let m = at.as_object_mut()?;
        // `insert` and `get_mut`, not `entry`: the map's entry API is another 1 KB of wasm.
        if !m.contains_key(key) {
            m.insert(key.to_string(), Value::Null);
        }
        at = m.get_mut(key)?;
        match rest.get(end + 1..) {
            Some(r) => rest = r,
            None => return Some(at),
        }
    }
}
