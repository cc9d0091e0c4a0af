//! Retry policy, as pure functions the driver applies: which
//! failures are retryable, how long to wait, and the `ErrorInfo` a host's `onError` sees.

use crate::prelude::*;
use serde::Serialize;

pub const DEFAULT_RETRIES: u32 = 2;
pub const DEFAULT_RETRY_BASE_MS: f64 = 500.0;

/// 429, the 5xx statuses providers use for overload, and Anthropic's 529.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504 | 529)
}

/// The longest wait a provider may ask for before a retry (`maxRetryAfterMs`); asking for more
/// fails the attempt at once with the provider's error.
pub const DEFAULT_MAX_RETRY_AFTER_MS: f64 = 60_000.0;

/// The wait a provider asked for, in milliseconds, as the host read it (`retry-after-ms`, else
/// `Retry-After` as delay-seconds or an HTTP date: `callModel` in host.js, where `Date.parse`
/// reads every HTTP-date form for free). Any non-negative JSON number, surrounding whitespace
/// allowed, read by the crate's one JSON parser. `None`: no hint this reads; the caller backs
/// off.
pub fn retry_after_ms(hint: Option<&str>) -> Option<f64> {
    crate::json::parse(hint?).ok()?.as_f64().filter(|v| *v >= 0.0)
}

/// Exponential backoff with jitter: `base · 2^attempt + [0, 100) ms`. `random` is in [0, 1).
/// `2^attempt` as a shift, exact up to 2^30 as `powi` is (why not `powi`: docs/decisions/size.md).
pub fn backoff_ms(base_ms: f64, attempt: u32, random: f64) -> f64 {
    base_ms * (1u32 << attempt.min(30)) as f64 + random.clamp(0.0, 1.0) * 100.0
}

/// What `onError(info)` receives for a failed attempt.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorInfo {
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// 0-based.
    pub attempt: u32,
    pub retryable: bool,
}

impl ErrorInfo {
    /// The value its `Serialize` derive gives, by hand (the edge hands it to `onError`).
    pub fn to_value(&self) -> serde_json::Value {
        let mut f = vec![("error", self.error.as_str().into())];
        if let Some(s) = self.status {
            f.push(("status", s.into()));
        }
        f.push(("attempt", self.attempt.into()));
        f.push(("retryable", self.retryable.into()));
        crate::json::obj(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_the_hosts_milliseconds() {
        let at = |h: &str| retry_after_ms(Some(h));
        assert_eq!(at("3000"), Some(3000.0));
        assert_eq!(at(" 0 "), Some(0.0));
        assert_eq!(at("12.5"), Some(12.5));
        assert_eq!(at("1e3"), Some(1000.0));
        assert_eq!(at("2147483648000"), Some(2_147_483_648_000.0), "large values are read; the caller caps them");
        for bad in ["-1", "", "3s", ".5", "soon", "NaN", "\"3\"", "Wed, 21 Oct 2026 07:28:00 GMT"] {
            assert_eq!(at(bad), None, "{bad}");
        }
        assert_eq!(retry_after_ms(None), None);
    }

    #[test]
    fn backoff_doubles_with_bounded_jitter() {
        assert_eq!(backoff_ms(500.0, 0, 0.0), 500.0);
        assert_eq!(backoff_ms(500.0, 2, 0.5), 2050.0);
        assert!(backoff_ms(10.0, 1, 0.999) < 120.0);
        assert!(retryable_status(529) && retryable_status(429) && !retryable_status(400) && !retryable_status(501));
    }

    /// The Workflow's model step throws (so Workflows retries it) on exactly these statuses.
    #[test]
    fn the_workflow_model_step_retries_what_the_core_retries() {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/workflows/index.js")).unwrap();
        let list = src.split("const RETRYABLE = [").nth(1).and_then(|s| s.split(']').next()).expect("RETRYABLE in workflows/index.js");
        let js: Vec<u16> = list.split(',').map(|n| n.trim().parse().unwrap()).collect();
        let core: Vec<u16> = (100..600).filter(|s| retryable_status(*s)).collect();
        assert_eq!(js, core);
    }
}
