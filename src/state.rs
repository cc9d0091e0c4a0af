//! Loading a saved pending `RunResult` (the durable state) for resume. Every state carries
//! `schemaVersion`; older versions would be migrated here, newer ones are refused clearly
//! (contract Part 1 rule 15). Frozen fixtures of each released version live in
//! `tests/fixtures/state/` and must keep loading.

use crate::error::{Error, Result};
use crate::run::SCHEMA_VERSION;
use crate::suspend::Request;
use serde_json::Value;

/// The parts of a pending state that resume needs.
#[derive(Debug)]
pub struct Halted {
    pub messages: Vec<Value>,
    pub pending: Request,
}

pub fn load(state: &Value) -> Result<Halted> {
    let obj = state.as_object().ok_or_else(|| Error::bad_state("state must be a JSON object (a pending RunResult)"))?;
    let version = match obj.get("schemaVersion") {
        Some(Value::Number(n)) => n.as_u64().ok_or_else(|| Error::bad_state("schemaVersion must be a positive integer"))?,
        None => return Err(Error::bad_state("state has no schemaVersion; pass a RunResult returned by run/runWithAnswer")),
        Some(_) => return Err(Error::bad_state("schemaVersion must be a positive integer")),
    };
    if version == 0 || version > u64::from(SCHEMA_VERSION) {
        return Err(Error::bad_state(format!(
            "unsupported state schemaVersion {version}: this build reads versions 1 to {SCHEMA_VERSION}; upgrade toolnexus-wasm"
        )));
    }
    // Version 1 is current; there is nothing to migrate yet.
    let status = obj.get("status").and_then(Value::as_str).unwrap_or("");
    if status != "pending" {
        return Err(Error::bad_state(format!("state has status {status:?}; only a \"pending\" result can be resumed")));
    }
    let messages = obj
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::bad_state("state has no messages array"))?
        .clone();
    let pending = obj
        .get("pending")
        .filter(|p| p.is_object())
        .ok_or_else(|| Error::bad_state("state has no pending request"))
        .and_then(|p| serde_json::from_value::<Request>(p.clone()).map_err(|e| Error::bad_state(format!("state.pending is invalid: {e}"))))?;
    Ok(Halted { messages, pending })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_versions_and_non_pending_states_are_refused() {
        let ok = json!({"schemaVersion": 1, "status": "pending", "messages": [], "pending": {"id": "p"}});
        assert_eq!(load(&ok).unwrap().pending.id, "p");
        for bad in [
            json!({"schemaVersion": 99, "status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": "1", "status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "done", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "pending", "messages": {}, "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "pending", "messages": []}),
            json!([1, 2]),
        ] {
            assert_eq!(load(&bad).unwrap_err().code(), "bad_state", "{bad}");
        }
        let msg = load(&json!({"schemaVersion": 99})).unwrap_err().message;
        assert!(msg.contains("99") && msg.contains("upgrade"), "{msg}");
    }
}
