//! Stream events (contract §a.6, §c.8), emitted by the driver whether or not the model reply
//! itself was streamed. Per tool turn: every `tool_call` in call order before any tool runs;
//! `pending` for a suspension before `waitFor` is called (or, on a durable halt, before `done`);
//! `tool_result` for each completed call in call order; on a final turn `usage` then `done`.

use crate::message::Usage;
use crate::run::RunResult;
use crate::suspend::Request;
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    Text {
        delta: String,
    },
    ToolCall {
        id: String,
        name: String,
        args: Value,
    },
    #[serde(rename_all = "camelCase")]
    ToolResult {
        id: String,
        name: String,
        output: String,
        is_error: bool,
    },
    Pending {
        request: Request,
    },
    Usage {
        usage: Usage,
    },
    Done {
        #[serde(serialize_with = "result_as_value")]
        result: Box<RunResult>,
    },
}

/// The result has its own writer and no serde derive; a streamed run's one `done` event reads
/// that text back as a value.
fn result_as_value<S: serde::Serializer>(r: &RunResult, s: S) -> Result<S::Ok, S::Error> {
    // Our own writer's text always parses.
    serde_json::from_str::<Value>(&r.to_json()).unwrap_or(Value::Null).serialize(s)
}

pub trait EventSink {
    fn event(&self, e: StreamEvent);
}
