//! `RunResult`: what `run` / `runWithAnswer` return, and (when `status` is `"pending"`) the
//! versioned state a host stores and hands back to resume. Plain data: a JSON round trip loses
//! nothing resume needs, and it never holds keys or functions. It is written by `to_json` (no
//! serde derive: that would be a second writer compiled into the wasm).

use crate::json::Obj;
use crate::message::AgentUsage;
use crate::message::{Message, Usage};
use crate::prelude::*;
use crate::provider::{Finish, Style};
use crate::state::Child;
use crate::suspend::Request;
use serde::Deserialize;
use serde_json::{Map, Value};

pub use crate::state::{MAX_SCHEMA_VERSION, SCHEMA_VERSION};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Done,
    Pending,
    Incomplete,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
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

#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub schema_version: u32,
    /// The dialect `messages` is written in.
    pub style: Style,
    pub status: Status,
    pub text: String,
    /// The whole transcript; `messages` shows it in `style`. The dialect's text is written
    /// from it directly, with no tree of values in between.
    pub transcript: Vec<Message>,
    pub tool_calls: Vec<ToolCallRecord>,
    pub tool_call_count: usize,
    /// Model round trips in this call (a resume counts only its own segment).
    pub turns: u32,
    pub usage: Usage,
    pub model: String,
    /// Present iff `status` is `"incomplete"`: the limit that stopped the run.
    pub limit: Option<String>,
    /// Present iff `status` is `"pending"`: the request the host must answer.
    pub pending: Option<Request>,
    /// How the last model call of this segment ended (absent when it made none, as a resume
    /// that only ran tools and halted again).
    pub finish_reason: Option<Finish>,
    /// The provider's own word for it, verbatim.
    pub provider_finish_reason: Option<String>,
    /// The readable reasoning of this segment's model calls; empty when the model gave none.
    pub reasoning: String,
    /// Present when `status` is `"pending"` and agent calls are halted: their children, which
    /// a resume continues.
    pub children: Vec<Child>,
    /// The usage of the agents below this run (its `usage` includes it).
    pub agent_usage: AgentUsage,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::Pending => "pending",
            Status::Incomplete => "incomplete",
        }
    }
}

impl RunResult {
    /// The transcript in the result's dialect (the `messages` of its JSON).
    pub fn messages(&self) -> Vec<Value> {
        crate::dialect::render(&self.transcript, self.style)
    }

    /// The result as JSON text, byte for byte what serde_json writes for it, into one buffer
    /// sized up front. It goes to JS once per run, and serde_json at opt-level z writes each
    /// token through its own call (see `json`).
    pub fn to_json(&self) -> String {
        self.write(true)
    }

    /// The result for the edge in two texts: the result with `"messages":null` in its place (so
    /// that the key keeps its position), and the messages alone. The edge parses the second only
    /// when `messages` is first read: most callers read `text` and never the transcript.
    pub fn to_json_parts(&self) -> (String, String) {
        let mut messages = String::with_capacity(256 * self.transcript.len());
        crate::json::write_arr(&mut messages, |a| crate::dialect::write(a, &self.transcript, self.style));
        (self.write(false), messages)
    }

    /// One body for both callers, not inlined into each.
    #[inline(never)]
    fn write(&self, messages: bool) -> String {
        let guess =
            256 + self.text.len() + self.model.len() + 256 * (usize::from(messages) * self.transcript.len() + self.tool_calls.len());
        let mut out = String::with_capacity(guess);
        crate::json::write_obj(&mut out, |o| self.write_fields(o, messages));
        out
    }

    /// The result's fields, into an object being written (its own, or a `done` event's
    /// `result`); `messages: false` writes `"messages":null`.
    pub(crate) fn write_fields(&self, o: &mut Obj, messages: bool) {
        o.u64("schemaVersion", u64::from(crate::state::schema_version(self.schema_version, &self.children)));
        o.str("style", self.style.as_str()).str("status", self.status.as_str()).str("text", &self.text);
        if messages {
            o.arr("messages", |a| crate::dialect::write(a, &self.transcript, self.style));
        } else {
            o.value("messages", &Value::Null);
        }
        o.arr("toolCalls", |a| {
            for c in &self.tool_calls {
                a.obj(|o| {
                    o.str("id", &c.id).str("name", &c.name).value("args", &c.args).str("output", &c.output).bool("isError", c.is_error);
                    if let Some(m) = &c.metadata {
                        o.obj("metadata", |o| {
                            for (k, v) in m {
                                o.value(k, v);
                            }
                        });
                    }
                });
            }
        });
        o.u64("toolCallCount", self.tool_call_count as u64).u64("turns", u64::from(self.turns));
        o.obj("usage", |u| self.usage.write(u));
        self.agent_usage.write(o);
        o.str("model", &self.model);
        o.str_opt("finishReason", self.finish_reason.map(|f| f.as_str()));
        o.str_opt("providerFinishReason", self.provider_finish_reason.as_deref());
        o.str("reasoning", &self.reasoning);
        o.str_opt("limit", self.limit.as_deref());
        if let Some(p) = &self.pending {
            o.value("pending", &p.to_value());
        }
        crate::state::write_children(o, &self.children);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AssistantTurn;
    use serde_json::json;

    fn sample(full: bool) -> RunResult {
        let mut meta = Map::new();
        meta.insert("k".into(), json!({"b": 1, "a": [true, null]}));
        RunResult {
            schema_version: SCHEMA_VERSION,
            style: Style::Anthropic,
            status: if full { Status::Pending } else { Status::Done },
            text: "say \"hi\"\n\u{1}é".into(),
            transcript: vec![Message::User("q".into()), Message::Assistant(AssistantTurn { text: "a".into(), ..AssistantTurn::default() })],
            tool_calls: vec![ToolCallRecord {
                id: "c1".into(),
                name: "t".into(),
                args: json!({"x": 1.5, "y": "z"}),
                output: "out".into(),
                is_error: full,
                metadata: full.then_some(meta),
            }],
            tool_call_count: 1,
            turns: 2,
            usage: Usage { prompt_tokens: 10, completion_tokens: 0, total_tokens: u64::MAX, reasoning_tokens: 0, ..Usage::default() },
            model: "m".into(),
            limit: full.then(|| "maxTurns".into()),
            pending: full.then(|| Request { id: "r1".into(), kind: "input".into(), prompt: "p".into(), ..Request::default() }),
            finish_reason: full.then_some(Finish::ToolCalls),
            provider_finish_reason: full.then(|| "tool_use".into()),
            reasoning: String::new(),
            children: Vec::new(),
            agent_usage: Default::default(),
        }
    }

    #[test]
    fn writes_the_result_with_its_pinned_keys() {
        let head = r#"{"schemaVersion":2,"style":"anthropic","status":"#;
        let body = r#","text":"say \"hi\"\n\u0001é","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"a"}]}],"toolCalls":[{"id":"c1","name":"t","args":{"x":1.5,"y":"z"},"output":"out","isError":"#;
        let tail = r#","toolCallCount":1,"turns":2,"usage":{"promptTokens":10,"completionTokens":0,"totalTokens":18446744073709551615},"model":"m""#;
        assert_eq!(sample(false).to_json(), [head, "\"done\"", body, "false}]", tail, r#","reasoning":""}"#].concat());
        assert_eq!(
            sample(true).to_json(),
            [
                head,
                "\"pending\"",
                body,
                r#"true,"metadata":{"k":{"b":1,"a":[true,null]}}}]"#,
                tail,
                r#","finishReason":"tool_calls","providerFinishReason":"tool_use","reasoning":"","limit":"maxTurns","pending":{"id":"r1","kind":"input","prompt":"p"}}"#
            ]
            .concat()
        );
        let (rest, messages) = sample(false).to_json_parts();
        let whole = sample(false).to_json();
        assert_eq!(rest, whole.replace(&messages, "null"));
        assert_eq!(messages, r#"[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"a"}]}]"#);
    }
}
