//! Observability events: one `llm` event per provider call, one `tool` event per
//! tool execution (a suspension reports `isError: false, pending: true`), one `run` event per
//! run, including runs that halt, stop at the turn cap, or fail.

use crate::prelude::*;
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
        #[serde(skip_serializing_if = "core::ops::Not::not")]
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

impl Metric {
    /// The value its `Serialize` derive gives, by hand (the edge hands it to `onMetric`).
    pub fn to_value(&self) -> serde_json::Value {
        let mut f: Vec<(&str, serde_json::Value)> = Vec::with_capacity(7);
        match self {
            Metric::Llm { model, status, ms, prompt_tokens, completion_tokens } => {
                f.push(("event", "llm".into()));
                f.push(("model", model.as_str().into()));
                f.push(("status", (*status).into()));
                f.push(("ms", (*ms).into()));
                f.push(("promptTokens", (*prompt_tokens).into()));
                f.push(("completionTokens", (*completion_tokens).into()));
            }
            Metric::Tool { tool, source, is_error, ms, pending } => {
                f.push(("event", "tool".into()));
                f.push(("tool", tool.as_str().into()));
                f.push(("source", source.as_str().into()));
                f.push(("isError", (*is_error).into()));
                f.push(("ms", (*ms).into()));
                if *pending {
                    f.push(("pending", true.into()));
                }
            }
            Metric::Run { model, turns, tool_calls, total_tokens, ms, error } => {
                f.push(("event", "run".into()));
                f.push(("model", model.as_str().into()));
                f.push(("turns", (*turns).into()));
                f.push(("toolCalls", (*tool_calls as u64).into()));
                f.push(("totalTokens", (*total_tokens).into()));
                f.push(("ms", (*ms).into()));
                if let Some(e) = error {
                    f.push(("error", e.as_str().into()));
                }
            }
        }
        crate::json::obj(f)
    }
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
/// byte-identical to the reference ports: fixed metric order, series sorted by
/// label string, fixed buckets, escaped label values, trailing newline.
///
/// A series is kept under its raw label values (the metric fixes the label names); the escaped
/// label text is built only by `render`. Recording is on every run's path, rendering is not.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    llm_requests: Vec<(Key, u64)>,
    llm_tokens: Vec<(Key, u64)>,
    llm_duration: Vec<(Key, Hist)>,
    tool_calls: Vec<(Key, u64)>,
    tool_duration: Vec<(Key, Hist)>,
    run_errors: Vec<(Key, u64)>,
}

/// The label values of one series, in the order of its metric's label names.
type Key = Vec<String>;

const LLM: &[&str] = &["model", "status"];
const TOKENS: &[&str] = &["type"];
const MODEL: &[&str] = &["model"];
const TOOL_CALLS: &[&str] = &["tool", "source", "is_error", "pending"];
const TOOL: &[&str] = &["tool"];

// Plain loops outside the generic `series_of`: one copy for both series kinds instead of an
// iterator `eq` and a `collect` per kind.
fn same_key(k: &Key, values: &[&str]) -> bool {
    k.len() == values.len() && k.iter().zip(values).all(|(a, b)| a == b)
}

fn key_of(values: &[&str]) -> Key {
    let mut k = Vec::with_capacity(values.len());
    for v in values {
        k.push(String::from(*v));
    }
    k
}

/// The series with these label values, created empty on first use.
fn series_of<'s, T: Default>(series: &'s mut Vec<(Key, T)>, values: &[&str]) -> &'s mut T {
    let pos = match series.iter().position(|(k, _)| same_key(k, values)) {
        Some(p) => p,
        None => {
            series.push((key_of(values), T::default()));
            series.len() - 1
        }
    };
    &mut series[pos].1
}

fn bump(series: &mut Vec<(Key, u64)>, values: &[&str], by: u64) {
    let n = series_of(series, values);
    *n = n.saturating_add(by);
}

fn observe(series: &mut Vec<(Key, Hist)>, values: &[&str], seconds: f64) {
    let h = series_of(series, values);
    h.sum += seconds;
    h.count += 1;
    for (c, b) in h.counts.iter_mut().zip(BUCKETS) {
        if seconds <= b {
            *c += 1;
        }
    }
}

/// `k="v",k="v"` with values escaped (backslash, quote, newline, in that order).
fn labels(names: &[&str], values: &[String]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in names.iter().zip(values).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(k);
        out.push_str("=\"");
        for c in v.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                '\n' => out.push_str("\\n"),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out
}

/// A number as ECMAScript `String(n)` writes it: the shortest digits that round-trip, placed by
/// the ECMAScript rules (plain notation from 1e-6 up to 1e21, exponent form outside). The
/// digits come from serde_json's float writer, which the crate links anyway, not from
/// `core::fmt`'s float formatting (docs/decisions/small-std.md).
pub fn js_number(f: f64) -> String {
    let Some(n) = serde_json::Number::from_f64(f) else {
        return if f.is_nan() {
            "NaN"
        } else if f > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .into();
    };
    if f == 0.0 {
        return "0".into(); // also -0
    }
    // serde_json writes `[-]d+[.d+][e[+|-]d+]`: collect the significant digits and the position
    // of the decimal point (value = 0.DIGITS × 10^point), then lay them out as JS does.
    let mut text = String::new();
    let _ = core::fmt::Write::write_fmt(&mut text, format_args!("{n}"));
    let (mut digits, mut point, mut exp, mut exp_neg) = (Vec::new(), 0i32, 0i32, false);
    let (mut seen_dot, mut in_exp) = (false, false);
    for b in text.bytes() {
        match b {
            b'-' if in_exp => exp_neg = true,
            b'e' => in_exp = true,
            b'0'..=b'9' if in_exp => exp = exp * 10 + i32::from(b - b'0'),
            b'0'..=b'9' => {
                if b == b'0' && digits.is_empty() {
                    point -= i32::from(seen_dot); // a leading zero after the point
                } else {
                    digits.push(b);
                    point += i32::from(!seen_dot);
                }
            }
            b'.' => seen_dot = true,
            _ => {} // the sign, '+'
        }
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let point = point + if exp_neg { -exp } else { exp };
    let k = digits.len() as i32;
    let mut out = Vec::new();
    if f < 0.0 {
        out.push(b'-');
    }
    if k <= point && point <= 21 {
        out.extend_from_slice(&digits);
        out.resize(out.len() + (point - k) as usize, b'0');
    } else if 0 < point && point <= 21 {
        let (int, frac) = (digits.get(..point as usize), digits.get(point as usize..));
        out.extend_from_slice(int.unwrap_or_default());
        out.push(b'.');
        out.extend_from_slice(frac.unwrap_or_default());
    } else if -6 < point && point <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-point) as usize, b'0');
        out.extend_from_slice(&digits);
    } else {
        if let Some(&d) = digits.first() {
            out.push(d);
        }
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(digits.get(1..).unwrap_or_default());
        }
        let e = point - 1;
        out.extend_from_slice(if e < 0 { b"e-" } else { b"e+" });
        let mut s = String::new();
        crate::json::write_u64(&mut s, u64::from(e.unsigned_abs()));
        out.extend_from_slice(s.as_bytes());
    }
    // ASCII only, so nothing is replaced.
    String::from_utf8_lossy(&out).into_owned()
}

impl Registry {
    pub fn record(&mut self, m: &Metric) {
        match m {
            Metric::Llm { model, status, ms, prompt_tokens, completion_tokens } => {
                bump(&mut self.llm_requests, &[model, status], 1);
                if *status == "ok" {
                    bump(&mut self.llm_tokens, &["prompt"], *prompt_tokens);
                    bump(&mut self.llm_tokens, &["completion"], *completion_tokens);
                }
                observe(&mut self.llm_duration, &[model], ms / 1000.0);
            }
            Metric::Tool { tool, source, is_error, ms, pending } => {
                let (e, p) = (if *is_error { "true" } else { "false" }, if *pending { "true" } else { "false" });
                bump(&mut self.tool_calls, &[tool, source, e, p], 1);
                observe(&mut self.tool_duration, &[tool], ms / 1000.0);
            }
            Metric::Run { model, error, .. } => {
                if error.as_deref().is_some_and(|e| !e.is_empty()) {
                    bump(&mut self.run_errors, &[model], 1);
                }
            }
        }
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        counter(&mut out, "toolnexus_llm_requests_total", "Total LLM requests.", LLM, &self.llm_requests);
        counter(&mut out, "toolnexus_llm_tokens_total", "Total tokens, by type.", TOKENS, &self.llm_tokens);
        histogram(&mut out, "toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.", MODEL, &self.llm_duration);
        counter(&mut out, "toolnexus_tool_calls_total", "Total tool calls.", TOOL_CALLS, &self.tool_calls);
        histogram(&mut out, "toolnexus_tool_duration_seconds", "Tool execution duration in seconds.", TOOL, &self.tool_duration);
        counter(&mut out, "toolnexus_run_errors_total", "Total run errors.", MODEL, &self.run_errors);
        out
    }
}

/// Each series' label text, sorted by it (unique keys).
fn sorted<'s, T>(names: &[&str], series: &'s [(Key, T)]) -> Vec<(String, &'s T)> {
    let mut v: Vec<(String, &T)> = Vec::with_capacity(series.len());
    for (k, t) in series {
        v.push((labels(names, k), t));
    }
    crate::small::sort_by(&mut v, |a, b| a.0.cmp(&b.0));
    v
}

/// `# HELP` and `# TYPE` lines.
fn head(out: &mut String, name: &str, help: &str, kind: &str) {
    for part in ["# HELP ", name, " ", help, "\n# TYPE ", name, " ", kind, "\n"] {
        out.push_str(part);
    }
}

/// One sample line: `name{key,extra} value`, braces only when there are labels.
fn sample(out: &mut String, name: &str, key: &str, extra: &str, value: &str) {
    out.push_str(name);
    if !key.is_empty() || !extra.is_empty() {
        out.push('{');
        out.push_str(key);
        if !key.is_empty() && !extra.is_empty() {
            out.push(',');
        }
        out.push_str(extra);
        out.push('}');
    }
    out.push(' ');
    out.push_str(value);
    out.push('\n');
}

fn int(n: u64) -> String {
    let mut s = String::new();
    crate::json::write_u64(&mut s, n);
    s
}

fn counter(out: &mut String, name: &str, help: &str, names: &[&str], series: &[(Key, u64)]) {
    head(out, name, help, "counter");
    for (key, v) in sorted(names, series) {
        sample(out, name, &key, "", &int(*v));
    }
}

fn histogram(out: &mut String, name: &str, help: &str, names: &[&str], series: &[(Key, Hist)]) {
    head(out, name, help, "histogram");
    let (bucket, sum, count) = (format!("{name}_bucket"), format!("{name}_sum"), format!("{name}_count"));
    for (key, h) in sorted(names, series) {
        // The buckets, then `+Inf`.
        for i in 0..=BUCKETS.len() {
            let (c, le) = match (h.counts.get(i), BUCKET_LABELS.get(i)) {
                (Some(c), Some(le)) => (*c, *le),
                _ => (h.count, "+Inf"),
            };
            sample(out, &bucket, &key, &format!("le=\"{le}\""), &int(c));
        }
        sample(out, &sum, &key, "", &js_number(h.sum));
        sample(out, &count, &key, "", &int(h.count));
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
        assert!(
            text.contains(r#"toolnexus_tool_calls_total{tool="a\"b\\c\nd",source="relay",is_error="false",pending="true"} 1"#),
            "{text}"
        );
        assert!(text.contains(r#"toolnexus_run_errors_total{model="m"} 1"#));
        assert!(text.contains(r#"toolnexus_tool_duration_seconds_sum{tool="a\"b\\c\nd"} 0"#));
        assert_eq!(js_number(0.12), "0.12");
        assert_eq!(js_number(60.0), "60");
        assert_eq!(js_number(1e-7), "1e-7");
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        // Each pair is (value, String(value) in Node).
        let cases: [(f64, &str); 27] = [
            (0.0, "0"),
            (-0.0, "0"),
            (0.12, "0.12"),
            (60.0, "60"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (1e-6, "0.000001"),
            (1.234e-5, "0.00001234"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e16, "10000000000000000"),
            (1.2345e17, "123450000000000000"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (2.5, "2.5"),
            (100.0, "100"),
            (1e15, "1000000000000000"),
            (123.456, "123.456"),
            (0.000001234, "0.000001234"),
            (12345.678e-10, "0.0000012345678"),
            (-0.5, "-0.5"),
            (-1e-9, "-1e-9"),
            (1e20, "100000000000000000000"),
            (9.999e20, "999900000000000000000"),
            (1.0 / 3.0, "0.3333333333333333"),
        ];
        for (f, js) in cases {
            assert_eq!(js_number(f), js, "{f:e}");
        }
        assert_eq!([js_number(f64::NAN), js_number(f64::INFINITY), js_number(f64::NEG_INFINITY)], ["NaN", "Infinity", "-Infinity"]);
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
