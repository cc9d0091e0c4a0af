//! The four hooks and the body shaping, as a seam the driver
//! calls: `beforeLLM` (replace messages / tools), `afterLLM` (raw response), `beforeTool`
//! (short-circuit with a result, possibly a suspension, or rewrite args), `afterTool` (replace
//! a result; never on a suspension), and `bodyTransform` (last word on the request body). A hook
//! that fails stops the run.

use crate::error::Result;
use crate::prelude::*;
use crate::suspend::ToolOutcome;
use crate::tool::{ToolResult, ToolSpec};
use futures_util::future::LocalBoxFuture;
use serde_json::{Map, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    BeforeLlm,
    AfterLlm,
    BeforeTool,
    AfterTool,
    BodyTransform,
}

/// What `beforeLLM` may replace, each for the rest of the run.
#[derive(Default)]
pub struct LlmChange {
    /// In the style's dialect.
    pub messages: Option<Vec<Value>>,
    pub tools: Option<Vec<ToolSpec>>,
}

pub enum ToolVerdict {
    /// The tool does not run; this is its outcome (a suspension is allowed).
    Result(ToolOutcome),
    /// The tool runs with these arguments.
    Args(Map<String, Value>),
}

pub struct ToolCtx<'a> {
    pub name: &'a str,
    pub id: &'a str,
    pub args: &'a Map<String, Value>,
    pub turn: u32,
}

pub trait Hooks {
    /// Whether a hook is set: the driver skips the work of preparing its argument otherwise.
    fn has(&self, hook: Hook) -> bool;
    fn before_llm(&self, messages: Vec<Value>, tools: &[ToolSpec], model: &str, turn: u32)
        -> LocalBoxFuture<'_, Result<Option<LlmChange>>>;
    fn after_llm(&self, response: Value, model: &str, turn: u32) -> LocalBoxFuture<'_, Result<()>>;
    fn before_tool(&self, ctx: ToolCtx<'_>) -> LocalBoxFuture<'_, Result<Option<ToolVerdict>>>;
    fn after_tool(&self, ctx: ToolCtx<'_>, result: &ToolResult) -> LocalBoxFuture<'_, Result<Option<ToolResult>>>;
    fn transform_body(&self, body: Value) -> LocalBoxFuture<'_, Result<Option<Value>>>;
}

/// Keys `requestParams` may never set: the loop owns them (the transcript under each style's
/// name for it, and streaming).
pub const FORBIDDEN_PARAMS: [&str; 4] = ["messages", "input", "contents", "stream"];

/// `requestParams` shallow-merged into a body: the caller wins, except on the loop's own keys.
/// `tools` never replaces the loop's declarations: its entries are added after them, which is
/// how a caller turns on the tools a provider runs itself (Responses `web_search`, Anthropic
/// server tools, Gemini `google_search`), whose items the loop keeps but never answers.
pub fn merge_params(body: &mut Value, params: &Map<String, Value>) {
    if let Value::Object(b) = body {
        for (k, v) in params {
            match (k.as_str(), v) {
                (k, _) if FORBIDDEN_PARAMS.contains(&k) => {}
                ("tools", Value::Array(extra)) if extra.is_empty() => {}
                ("tools", Value::Array(extra)) => match b.get_mut("tools") {
                    Some(Value::Array(tools)) => {
                        for t in extra {
                            tools.push(t.clone());
                        }
                    }
                    _ => {
                        b.insert("tools".into(), v.clone());
                    }
                },
                ("tools", _) => {}
                _ => {
                    b.insert(k.clone(), v.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn request_params_merge_shallowly_and_never_touch_the_loops_keys() {
        let mut body = json!({"model": "m", "messages": [1], "max_tokens": 4096});
        let params =
            json!({"max_tokens": 100, "temperature": 0.2, "messages": [], "stream": true, "tools": [], "input": [], "contents": []});
        merge_params(&mut body, params.as_object().unwrap());
        assert_eq!(body, json!({"model": "m", "messages": [1], "max_tokens": 100, "temperature": 0.2}));
        // Server-run tools are added after the loop's declarations, never in their place.
        let mut body = json!({"input": [1], "tools": [{"type": "function", "name": "f"}]});
        merge_params(&mut body, json!({"tools": [{"type": "web_search"}]}).as_object().unwrap());
        assert_eq!(body, json!({"input": [1], "tools": [{"type": "function", "name": "f"}, {"type": "web_search"}]}));
        let mut body = json!({"input": [1], "tools": [{"type": "function", "name": "f"}]});
        merge_params(&mut body, json!({"tools": "all"}).as_object().unwrap());
        assert_eq!(body["tools"], json!([{"type": "function", "name": "f"}]), "a tools that is not an array is ignored");
    }
}
