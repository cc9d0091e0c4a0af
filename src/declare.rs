//! A tool declaration as a host writes it for `defineTool` and `createToolkit`:
//! `{ name, description?, inputSchema?, source?, needsApproval?, run? }`, read from JSON data
//! with the messages the host sees. The functions (`run`, a `needsApproval` function) stay with
//! the edge, which hands them over as `true`: every key is checked here
//! (`options::check_tool_keys`).
//! (Stored declarations, inside conversation states, are read by `ToolSpec::from_json`.)

use crate::error::{Error, Result};
use crate::prelude::*;
use crate::style::Style;
use crate::tool::{default_relay_schema, default_schema, AgentSpec, ToolSpec, Toolkit, SOURCE_AGENT, SOURCE_NATIVE, SOURCE_RELAY};
use serde_json::Value;

/// Reads and checks one declaration; `what` names it in messages (`tools[2]`).
pub fn declaration(v: &Value, what: &str) -> Result<ToolSpec> {
    declaration_at(v, what, 0)
}

/// A declaration `depth` agents down (an agent tool's own tools are one deeper).
fn declaration_at(v: &Value, what: &str, depth: usize) -> Result<ToolSpec> {
    let Value::Object(o) = v else {
        return Err(Error::bad_input(format!("{what} must be a tool object (from defineTool or relayTool)")));
    };
    let mut keys: Vec<String> = Vec::new();
    for (k, v) in o {
        if !v.is_null() {
            keys.push(k.clone());
        }
    }
    crate::options::check_tool_keys(what, &keys)?;
    let string = |key: &str| match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(Error::bad_input(format!("{what}.{key} must be a string"))),
    };
    let source = string("source")?.unwrap_or(SOURCE_NATIVE);
    let name = string("name")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::bad_input(format!("{what}.name is required (a non-empty string)")))?;
    let input_schema = match o.get("inputSchema") {
        None | Some(Value::Null) if source == SOURCE_RELAY => default_relay_schema(),
        None | Some(Value::Null) => default_schema(),
        Some(s) => s.clone(),
    };
    let description = string("description")?.unwrap_or_default();
    let agent = match source {
        SOURCE_AGENT => Some(alloc::rc::Rc::new(agent_spec(o.get("agent"), name, depth)?)),
        _ => None,
    };
    let spec = ToolSpec { name: name.into(), description: description.into(), input_schema, source: source.into(), agent }.validated()?;
    approval(o.get("needsApproval"), &spec, o.contains_key("run"), what)?;
    Ok(spec)
}

/// `needsApproval` as it reaches the core. The edge's `gate` (src/wasm/host.js) applies `true`
/// and a function to a tool with a `run` and removes the key, so what is left here is what was
/// never applied: a relay tool's (refused: nothing runs in-process to gate; the host that runs
/// its calls asks before it runs them), or a value that is neither a boolean nor a function
/// (refused: `"true"` would gate the live tool but not one rebuilt from its saved definition).
/// A tool with `needsApproval` and no `run` is left to [`check_runnable`].
fn approval(v: Option<&Value>, spec: &ToolSpec, has_run: bool, what: &str) -> Result<()> {
    match v {
        None | Some(Value::Null | Value::Bool(false)) => Ok(()),
        // Nothing of the agent's own runs to gate: its tools ask, each for itself.
        Some(_) if spec.agent.is_some() => Err(Error::bad_input(format!(
            "{what}: needsApproval has no effect on agent tool {}: put it on the tools of the agent that should ask",
            spec.name
        ))),
        Some(Value::Bool(true)) if spec.is_relay() => Err(Error::bad_input(format!(
            "{what}: needsApproval has no effect on relay tool {}: its calls go to the host, which asks before it runs them; remove it",
            spec.name
        ))),
        // Fail-closed: a tool that asks for approval never runs without it.
        Some(Value::Bool(true)) if has_run => {
            Err(Error::bad_input(format!("{what}: needsApproval of tool {} was not applied: pass the tool to createToolkit", spec.name)))
        }
        Some(Value::Bool(true)) => Ok(()),
        Some(other) => Err(Error::bad_input(format!(
            "{what}.needsApproval must be true, false or a function of the arguments, not {}: write needsApproval: true",
            crate::json::to_text(other)
        ))),
    }
}

/// A `relayTool(name, description?, schema?)` declaration; a `null` schema is the default one.
pub fn relay(name: String, description: Option<String>, schema: Value) -> Result<ToolSpec> {
    let input_schema = if schema.is_null() { default_relay_schema() } else { schema };
    ToolSpec { name, description: description.unwrap_or_default(), input_schema, source: SOURCE_RELAY.into(), agent: None }.validated()
}

/// Only a relay tool may come without a `run` function.
pub fn check_runnable(spec: &ToolSpec, has_run: bool) -> Result<()> {
    if has_run || spec.is_relay() || spec.agent.is_some() {
        return Ok(());
    }
    Err(Error::bad_input(format!("tool {} has no run function; use relayTool() for a declaration-only tool", spec.name)))
}

/// How deep agent tools may nest in one declaration at most (a root's child is depth 1):
/// `agentTool`'s `maxDepth` (default 8) is the user's limit below this one. A declaration is
/// plain data, so the only way to a cycle is an object that holds itself: this cap refuses it.
const MAX_DEPTH: usize = 32;

/// Reads an agent declaration's `agent` member: `{ systemPrompt, tools, maxTurns?, model?,
/// style?, baseUrl? }`, its tools read as declarations one level deeper.
/// `agentTool()` checked the options and named the fix for each; what is read here is its output.
fn agent_spec(v: Option<&Value>, name: &str, depth: usize) -> Result<AgentSpec> {
    let bad = |m: &str| Error::bad_input(format!("agent tool {name}: {m}"));
    if depth >= MAX_DEPTH {
        return Err(bad("agent tools nest too deep (does an agent list itself among its tools?)"));
    }
    let Some(Value::Object(o)) = v else { return Err(bad("make it with agentTool()")) };
    let s = |k: &str| o.get(k).and_then(Value::as_str).map(String::from);
    let mut tools = Vec::new();
    if let Some(list) = o.get("tools").and_then(Value::as_array) {
        for (i, t) in list.iter().enumerate() {
            tools.push(declaration_at(t, &format!("{name}.tools[{i}]"), depth + 1)?);
        }
    }
    Ok(AgentSpec {
        system_prompt: s("systemPrompt").unwrap_or_default(),
        tools: Toolkit::new(tools)?,
        max_turns: o.get("maxTurns").and_then(Value::as_u64).map(|n| n as u32).filter(|n| *n > 0),
        model: s("model"),
        style: s("style").map(|st| Style::parse(&st)).transpose()?,
        base_url: s("baseUrl"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(v: Value) -> String {
        declaration(&v, "tools[1]").err().unwrap().message
    }

    #[test]
    fn defaults_by_source() {
        let t = declaration(&json!({"name": "a_b", "run": null}), "t").unwrap();
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
        assert!(message(json!({"name": "look up price"})).starts_with("tool name \"look up price\" is refused: a tool name is 1 to 64"));
    }

    #[test]
    fn unknown_keys_are_refused_with_the_name_meant() {
        let m = |k: &str| message(json!({"name": "x", k: true, "run": true}));
        assert_eq!(m("parameters"), "tools[1]: unknown key \"parameters\"; did you mean inputSchema?");
        assert_eq!(m("execute"), "tools[1]: unknown key \"execute\"; did you mean run?");
        assert_eq!(m("inputschema"), "tools[1]: unknown key \"inputschema\"; did you mean inputSchema?");
        assert_eq!(m("function"), "tools[1]: unknown key \"function\"; did you mean defineTool({ name, description, inputSchema, run }) (this is the provider's wire format)?");
        assert_eq!(m("colour"), "tools[1]: unknown key \"colour\" (see ToolDefinition)");
        // Every key a tool object has today passes; a null is no key.
        let all = json!({"name": "x", "description": "d", "inputSchema": {}, "jsonSchema": {}, "source": "native", "needsApproval": false, "run": true, "colour": null});
        assert!(declaration(&all, "t").is_ok());
    }

    #[test]
    fn needs_approval_is_a_boolean_or_a_function_and_never_on_a_relay_tool() {
        for bad in [json!("true"), json!(1), json!({})] {
            let m = message(json!({"name": "x", "needsApproval": bad, "run": true}));
            assert!(m.starts_with("tools[1].needsApproval must be true, false or a function of the arguments, not "), "{m}");
            assert!(m.ends_with(": write needsApproval: true"));
        }
        assert_eq!(
            message(json!({"name": "r", "source": "relay", "needsApproval": true})),
            "tools[1]: needsApproval has no effect on relay tool r: its calls go to the host, which asks before it runs them; remove it"
        );
        assert_eq!(
            message(json!({"name": "x", "needsApproval": true, "run": true})),
            "tools[1]: needsApproval of tool x was not applied: pass the tool to createToolkit"
        );
        // No run: check_runnable names what is missing.
        assert!(declaration(&json!({"name": "x", "needsApproval": true}), "t").is_ok());
        assert!(declaration(&json!({"name": "x", "needsApproval": false, "run": true}), "t").is_ok());
    }
}
