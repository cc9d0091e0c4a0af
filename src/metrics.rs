//! Observability events (contract §a.7): one `llm` event per provider call, one `tool` event per
//! tool execution (a suspension reports `isError: false, pending: true`), one `run` event per
//! run, including runs that halt, stop at the turn cap, or fail.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Metric {
    #[serde(rename_all = "camelCase")]
    Llm { model: String, status: &'static str, ms: f64, prompt_tokens: u64, completion_tokens: u64 },
    #[serde(rename_all = "camelCase")]
    Tool {
        tool: String,
        source: String,
        is_error: bool,
        ms: f64,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        pending: bool,
    },
    #[serde(rename_all = "camelCase")]
    Run {
        model: String,
        turns: u32,
        tool_calls: usize,
        total_tokens: u64,
        ms: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// Receives metrics. Implementations must not fail the run: a broken sink is the host's problem.
pub trait Observer {
    fn metric(&self, m: &Metric);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialise_with_the_reference_keys() {
        let t = Metric::Tool { tool: "click".into(), source: "relay".into(), is_error: false, ms: 1.5, pending: true };
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"event":"tool","tool":"click","source":"relay","isError":false,"ms":1.5,"pending":true}"#
        );
        let l = Metric::Llm { model: "m".into(), status: "ok", ms: 2.0, prompt_tokens: 3, completion_tokens: 4 };
        assert_eq!(
            serde_json::to_string(&l).unwrap(),
            r#"{"event":"llm","model":"m","status":"ok","ms":2.0,"promptTokens":3,"completionTokens":4}"#
        );
    }
}
