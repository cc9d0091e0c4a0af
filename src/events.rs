//! Stream events, emitted by the driver whether or not the model reply
//! itself was streamed. Per tool turn: every `tool_call` in call order before any tool runs;
//! `pending` for a suspension before `waitFor` is called (or, on a durable halt, before `done`);
//! `tool_result` for each completed call in call order; on a final turn `usage` then `done`.

use crate::message::Usage;
use crate::part::{parts_value, Part, NEUTRAL};
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
        /// The result's parts (images) after `output`, for a UI to show; left out when none.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        parts: Vec<Part>,
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
    /// An event of an agent's child run (`agent` is its path, `research/browse`): written as the
    /// child's event with an `agent` member.
    #[serde(skip)]
    Agent {
        agent: String,
        event: Box<StreamEvent>,
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
    /// text). `done` writes the result's fields in place, not parsed and written again.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        crate::json::write_obj(&mut out, |o| self.write(o));
        out
    }

    fn write(&self, o: &mut crate::json::Obj) {
        {
            match self {
                StreamEvent::Text { delta } => o.str("type", "text").str("delta", delta),
                StreamEvent::Reasoning { delta } => o.str("type", "reasoning").str("delta", delta),
                StreamEvent::ToolCall { id, name, args } => o.str("type", "tool_call").str("id", id).str("name", name).value("args", args),
                StreamEvent::ToolResult { id, name, output, is_error, parts } => {
                    o.str("type", "tool_result").str("id", id).str("name", name).str("output", output).bool("isError", *is_error);
                    if !parts.is_empty() {
                        o.value("parts", &parts_value(parts, &NEUTRAL));
                    }
                    o
                }
                StreamEvent::Pending { request } => o.str("type", "pending").value("request", &request.to_value()),
                StreamEvent::Usage { usage } => o.str("type", "usage").value("usage", &usage.to_json()),
                StreamEvent::Done { result } => o.str("type", "done").obj("result", |r| result.write_fields(r, true)),
                StreamEvent::Agent { agent, event } => {
                    event.write(o);
                    o.str("agent", agent)
                }
            };
        }
    }
}

pub trait EventSink {
    fn event(&self, e: StreamEvent);
}
