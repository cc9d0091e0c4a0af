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

/// The fixed histogram buckets (seconds) and their rendered `le` labels, pinned across ports.
const BUCKETS: [f64; 10] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];
const BUCKET_LABELS: [&str; 10] = ["0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60"];

#[derive(Clone, Debug, Default)]
struct Hist {
    counts: [u64; 10],
    sum: f64,
    count: u64,
}

/// Cumulative counters and histograms of every metric event, rendered as Prometheus text
/// byte-identical to the reference ports (contract §a.7): fixed metric order, series sorted by
/// label string, fixed buckets, escaped label values, trailing newline.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    llm_requests: Vec<(String, u64)>,
    llm_tokens: Vec<(String, u64)>,
    llm_duration: Vec<(String, Hist)>,
    tool_calls: Vec<(String, u64)>,
    tool_duration: Vec<(String, Hist)>,
    run_errors: Vec<(String, u64)>,
}

fn bump(series: &mut Vec<(String, u64)>, key: String, by: u64) {
    match series.iter_mut().find(|(k, _)| *k == key) {
        Some((_, v)) => *v += by,
        None => series.push((key, by)),
    }
}

fn observe(series: &mut Vec<(String, Hist)>, key: String, seconds: f64) {
    let pos = match series.iter().position(|(k, _)| *k == key) {
        Some(p) => p,
        None => {
            series.push((key, Hist::default()));
            series.len() - 1
        }
    };
    let h = &mut series[pos].1;
    h.sum += seconds;
    h.count += 1;
    for (c, b) in h.counts.iter_mut().zip(BUCKETS) {
        if seconds <= b {
            *c += 1;
        }
    }
}

/// `k="v",k="v"` with values escaped (backslash, quote, newline, in that order).
fn labels(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}=\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")))
        .collect::<Vec<_>>()
        .join(",")
}

/// A number as ECMAScript `String(n)` writes it for these values: shortest round trip,
/// integers without ".0", exponent form below 1e-6.
pub fn js_number(f: f64) -> String {
    if f != 0.0 && f.abs() < 1e-6 {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

impl Registry {
    pub fn record(&mut self, m: &Metric) {
        match m {
            Metric::Llm { model, status, ms, prompt_tokens, completion_tokens } => {
                bump(&mut self.llm_requests, labels(&[("model", model), ("status", status)]), 1);
                if *status == "ok" {
                    bump(&mut self.llm_tokens, labels(&[("type", "prompt")]), *prompt_tokens);
                    bump(&mut self.llm_tokens, labels(&[("type", "completion")]), *completion_tokens);
                }
                observe(&mut self.llm_duration, labels(&[("model", model)]), ms / 1000.0);
            }
            Metric::Tool { tool, source, is_error, ms, pending } => {
                let (e, p) = (if *is_error { "true" } else { "false" }, if *pending { "true" } else { "false" });
                bump(&mut self.tool_calls, labels(&[("tool", tool), ("source", source), ("is_error", e), ("pending", p)]), 1);
                observe(&mut self.tool_duration, labels(&[("tool", tool)]), ms / 1000.0);
            }
            Metric::Run { model, error, .. } => {
                if error.as_deref().is_some_and(|e| !e.is_empty()) {
                    bump(&mut self.run_errors, labels(&[("model", model)]), 1);
                }
            }
        }
    }

    pub fn render(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        counter(&mut out, "toolnexus_llm_requests_total", "Total LLM requests.", &self.llm_requests);
        counter(&mut out, "toolnexus_llm_tokens_total", "Total tokens, by type.", &self.llm_tokens);
        histogram(&mut out, "toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.", &self.llm_duration);
        counter(&mut out, "toolnexus_tool_calls_total", "Total tool calls.", &self.tool_calls);
        histogram(&mut out, "toolnexus_tool_duration_seconds", "Tool execution duration in seconds.", &self.tool_duration);
        counter(&mut out, "toolnexus_run_errors_total", "Total run errors.", &self.run_errors);
        out.join("\n") + "\n"
    }
}

fn sorted<T>(series: &[(String, T)]) -> Vec<&(String, T)> {
    let mut v: Vec<_> = series.iter().collect();
    v.sort_unstable_by(|a, b| a.0.cmp(&b.0)); // label strings are unique
    v
}

fn counter(out: &mut Vec<String>, name: &str, help: &str, series: &[(String, u64)]) {
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} counter"));
    for (key, v) in sorted(series) {
        out.push(if key.is_empty() { format!("{name} {v}") } else { format!("{name}{{{key}}} {v}") });
    }
}

fn histogram(out: &mut Vec<String>, name: &str, help: &str, series: &[(String, Hist)]) {
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} histogram"));
    for (key, h) in sorted(series) {
        let with_le = |le: &str| if key.is_empty() { format!("le=\"{le}\"") } else { format!("{key},le=\"{le}\"") };
        for (c, le) in h.counts.iter().zip(BUCKET_LABELS) {
            out.push(format!("{name}_bucket{{{}}} {c}", with_le(le)));
        }
        out.push(format!("{name}_bucket{{{}}} {}", with_le("+Inf"), h.count));
        let braces = if key.is_empty() { String::new() } else { format!("{{{key}}}") };
        out.push(format!("{name}_sum{braces} {}", js_number(h.sum)));
        out.push(format!("{name}_count{braces} {}", h.count));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference ports' exact text for this fixed event set (toolnexus
    /// golang/client_metrics_test.go, captured from the JS port).
    const REFERENCE: &str = include_str!("../tests/fixtures/metrics/reference.prom");

    #[test]
    fn metrics_text_is_byte_identical_to_the_reference() {
        let mut r = Registry::default();
        assert!(r.render().lines().all(|l| l.starts_with('#')), "no samples before any activity");
        r.record(&Metric::Llm { model: "gpt-x".into(), status: "ok", ms: 120.0, prompt_tokens: 3, completion_tokens: 2 });
        r.record(&Metric::Tool { tool: "add".into(), source: "native".into(), is_error: false, ms: 40.0, pending: false });
        r.record(&Metric::Run { model: "gpt-x".into(), turns: 2, tool_calls: 1, total_tokens: 16, ms: 200.0, error: None });
        assert_eq!(r.render(), REFERENCE);
    }

    #[test]
    fn labels_are_escaped_and_errors_counted() {
        let mut r = Registry::default();
        r.record(&Metric::Tool { tool: "a\"b\\c\nd".into(), source: "relay".into(), is_error: false, ms: 0.0, pending: true });
        r.record(&Metric::Run { model: "m".into(), turns: 0, tool_calls: 0, total_tokens: 0, ms: 1.0, error: Some("boom".into()) });
        let text = r.render();
        assert!(text.contains(r#"toolnexus_tool_calls_total{tool="a\"b\\c\nd",source="relay",is_error="false",pending="true"} 1"#), "{text}");
        assert!(text.contains(r#"toolnexus_run_errors_total{model="m"} 1"#));
        assert!(text.contains(r#"toolnexus_tool_duration_seconds_sum{tool="a\"b\\c\nd"} 0"#));
        assert_eq!(js_number(0.12), "0.12");
        assert_eq!(js_number(60.0), "60");
        assert_eq!(js_number(1e-7), "1e-7");
    }

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
