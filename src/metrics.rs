//! Observability events: one `llm` event per provider call, one `tool` event per
//! tool execution (a suspension reports `isError: false, pending: true`), one `run` event per
//! run, including runs that halt, stop at the turn cap, or fail. They go to `onMetric`; the
//! client's Prometheus text (`client.metrics()`) is counted and rendered from them by the JS
//! client (pkg-template/metrics.js).

use crate::prelude::*;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Metric {
    #[serde(rename_all = "camelCase")]
    Llm {
        model: String,
        status: &'static str,
        ms: f64,
        prompt_tokens: u64,
        completion_tokens: u64,
        /// The parts of `prompt_tokens` the provider's prompt cache read and wrote (absent when 0).
        #[serde(skip_serializing_if = "is_zero")]
        cache_read_tokens: u64,
        #[serde(skip_serializing_if = "is_zero")]
        cache_write_tokens: u64,
    },
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

/// Receives metrics. Implementations must not fail the run: a broken sink is the host's problem.
pub trait Observer {
    fn metric(&self, m: &Metric);
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

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let l = Metric::Llm {
            model: "m".into(),
            status: "ok",
            ms: 2.0,
            prompt_tokens: 3,
            completion_tokens: 4,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
        };
        assert_eq!(
            serde_json::to_string(&l).unwrap(),
            r#"{"event":"llm","model":"m","status":"ok","ms":2.0,"promptTokens":3,"completionTokens":4}"#
        );
    }
}
