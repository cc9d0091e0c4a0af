//! A tool declaration as a host writes it for `defineTool` and `createToolkit`:
//! `{ name, description?, inputSchema?, source? }`, read from JSON data with the messages the
//! host sees. The functions (`run`) stay with the edge, which says only whether one was given.
//! (Stored declarations, inside conversation states, are read by `ToolSpec::from_json`.)

use crate::error::{Error, Result};
use crate::prelude::*;
use crate::tool::{default_relay_schema, default_schema, ToolSpec, SOURCE_NATIVE, SOURCE_RELAY};
use serde_json::Value;

/// Reads and checks one declaration; `what` names it in messages (`tools[2]`).
pub fn declaration(v: &Value, what: &str) -> Result<ToolSpec> {
    let Value::Object(o) = v else {
        return Err(Error::bad_input(format!("{what} must be a tool object (from defineTool or relayTool)")));
    };
    let string = |key: &str| match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(Error::bad_input(format!("{what}.{key} must be a string"))),
    };
    let source = string("source")?.unwrap_or(SOURCE_NATIVE);
    let input_schema = match o.get("inputSchema") {
        None | Some(Value::Null) if source == SOURCE_RELAY => default_relay_schema(),
        None | Some(Value::Null) => default_schema(),
        Some(s) => s.clone(),
    };
    let name = string("name")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::bad_input(format!("{what}.name is required (a non-empty string)")))?;
    let description = string("description")?.unwrap_or_default();
    ToolSpec { name: name.into(), description: description.into(), input_schema, source: source.into() }.validated()
}

/// A `relayTool(name, description?, schema?)` declaration; a `null` schema is the default one.
pub fn relay(name: String, description: Option<String>, schema: Value) -> Result<ToolSpec> {
    let input_schema = if schema.is_null() { default_relay_schema() } else { schema };
    ToolSpec { name, description: description.unwrap_or_default(), input_schema, source: SOURCE_RELAY.into() }.validated()
}

/// Only a relay tool may come without a `run` function.
pub fn check_runnable(spec: &ToolSpec, has_run: bool) -> Result<()> {
    if has_run || spec.is_relay() {
        return Ok(());
    }
    Err(Error::bad_input(format!("tool {} has no run function; use relayTool() for a declaration-only tool", spec.name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(v: Value) -> String {
        declaration(&v, "tools[1]").err().unwrap().message
    }

    #[test]
    fn defaults_by_source_and_sanitised_names() {
        let t = declaration(&json!({"name": "a b", "run": null}), "t").unwrap();
        assert_eq!((t.name.as_str(), t.description.as_str(), t.is_relay()), ("a_b", "", false));
        assert_eq!(t.input_schema, default_schema());
        let r = declaration(&json!({"name": "r", "description": "d", "source": "relay"}), "t").unwrap();
        assert!(r.is_relay());
        assert_eq!(r.input_schema, default_relay_schema());
        let s = declaration(&json!({"name": "s", "inputSchema": {"type": "object"}}), "t").unwrap();
        assert_eq!(s.input_schema, json!({"type": "object"}));
        assert!(check_runnable(&r, false).is_ok() && check_runnable(&t, true).is_ok());
        let rt = relay("x".into(), None, Value::Null).unwrap();
        assert_eq!((&rt.input_schema, rt.description.as_str(), rt.is_relay()), (&default_relay_schema(), "", true));
        assert_eq!(relay("y".into(), Some("d".into()), json!({"type": "object"})).unwrap().input_schema, json!({"type": "object"}));
        assert_eq!(
            check_runnable(&t, false).err().unwrap().message,
            "tool a_b has no run function; use relayTool() for a declaration-only tool"
        );
    }

    #[test]
    fn refusals_name_the_tool() {
        assert_eq!(message(json!(null)), "tools[1] must be a tool object (from defineTool or relayTool)");
        assert_eq!(message(json!({"description": "d"})), "tools[1].name is required (a non-empty string)");
        assert_eq!(message(json!({"name": ""})), "tools[1].name is required (a non-empty string)");
        assert_eq!(message(json!({"name": "x", "description": 3})), "tools[1].description must be a string");
        assert_eq!(message(json!({"name": "x", "source": 1})), "tools[1].source must be a string");
        assert_eq!(message(json!({"name": "x", "inputSchema": [1]})), "tool x: inputSchema must be a JSON object");
    }
}
