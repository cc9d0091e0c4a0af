//! Stream events, emitted by the driver whether or not the model reply
//! itself was streamed. Per tool turn: every `tool_call` in call order before any tool runs;
//! `pending` for a suspension before `waitFor` is called (or, on a durable halt, before `done`);
//! `tool_result` for each completed call in call order; on a final turn `usage` then `done`.

use crate::message::Usage;
use crate::prelude::*;
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
    /// Readable reasoning of a streamed reply (thinking text, thought summaries), never text.
    Reasoning {
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
    crate::json::parse(&r.to_json()).unwrap_or(Value::Null).serialize(s)
}

impl StreamEvent {
    /// The JSON text its `Serialize` derive writes, by hand (the edge queues each event as
    /// text). `done`
    /// carries the result's own text, not parsed and written again.
    pub fn to_json(&self) -> String {
        use crate::json::{write_key, write_str, write_value};
        let mut out = String::from("{");
        let (kind, fields): (&str, Vec<(&str, Value)>) = match self {
            StreamEvent::Text { delta } => ("text", vec![("delta", delta.as_str().into())]),
            StreamEvent::Reasoning { delta } => ("reasoning", vec![("delta", delta.as_str().into())]),
            StreamEvent::ToolCall { id, name, args } => {
                ("tool_call", vec![("id", id.as_str().into()), ("name", name.as_str().into()), ("args", args.clone())])
            }
            StreamEvent::ToolResult { id, name, output, is_error } => (
                "tool_result",
                vec![
                    ("id", id.as_str().into()),
                    ("name", name.as_str().into()),
                    ("output", output.as_str().into()),
                    ("isError", (*is_error).into()),
                ],
            ),
            StreamEvent::Pending { request } => ("pending", vec![("request", request.to_value())]),
            StreamEvent::Usage { usage } => ("usage", vec![("usage", usage.to_json())]),
            StreamEvent::Done { .. } => ("done", Vec::new()),
        };
        write_key(&mut out, "type");
        write_str(&mut out, kind);
        for (k, v) in &fields {
            write_key(&mut out, k);
            write_value(&mut out, v);
        }
        if let StreamEvent::Done { result } = self {
            write_key(&mut out, "result");
            out.push_str(&result.to_json());
        }
        out.push('}');
        out
    }
}

pub trait EventSink {
    fn event(&self, e: StreamEvent);
}
