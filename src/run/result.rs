//! `RunResult`: what `run` / `runWithAnswer` return, and (when `status` is `"pending"`) the
//! versioned state a host stores and hands back to resume. Plain data: a JSON round trip loses
//! nothing resume needs, and it never holds keys or functions.

use crate::message::Usage;
use crate::provider::Style;
use crate::suspend::Request;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Bumped whenever the serialised shape changes; `state::load` migrates older versions.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Done,
    Pending,
    Incomplete,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRecord {
    pub id: String,
    pub name: String,
    /// The arguments actually used.
    pub args: Value,
    pub output: String,
    pub is_error: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub schema_version: u32,
    /// The dialect `messages` is written in.
    pub style: Style,
    pub status: Status,
    pub text: String,
    pub messages: Vec<Value>,
    pub tool_calls: Vec<ToolCallRecord>,
    pub tool_call_count: usize,
    /// Model round trips in this call (a resume counts only its own segment).
    pub turns: u32,
    pub usage: Usage,
    pub model: String,
    /// Present iff `status` is `"incomplete"`: the limit that stopped the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// Present iff `status` is `"pending"`: the request the host must answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Request>,
}
