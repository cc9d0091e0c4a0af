//! Retry policy (contract §b.11, Part 1 rule 13), as pure functions the driver applies: which
//! failures are retryable, how long to wait, and the `ErrorInfo` a host's `onError` sees.

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

/// The wait a provider asked for, in milliseconds, from the host's hint: `retry-after-ms`,
/// `Retry-After` and the instant its HTTP-date form names (Unix ms, the host's `Date.parse`,
/// which reads all three HTTP-date forms) joined by newlines (a header value never holds one);
/// a hint without a newline is a bare `Retry-After`. Taken in that order: milliseconds, then
/// delay-seconds (a fraction allowed), then the date measured from `now_ms` (a date in the past
/// is 0). `None`: no hint this reads; the caller backs off.
pub fn retry_after_ms(hint: Option<&str>, now_ms: f64) -> Option<f64> {
    // Cut at the newlines by byte (an ASCII byte is a char boundary): `str::split` links core's
    // char searcher for this one use.
    let hint = hint?;
    let (mut lines, mut n, mut start) = ([""; 3], 0, 0);
    for (i, b) in hint.bytes().enumerate() {
        if b == b'\n' && n < 2 {
            lines[n] = hint.get(start..i).unwrap_or_default();
            (n, start) = (n + 1, i + 1);
        }
    }
    lines[n] = hint.get(start..).unwrap_or_default();
    if n == 0 {
        return decimal(lines[0]).map(|s| s * 1000.0);
    }
    decimal(lines[0]).or_else(|| decimal(lines[1]).map(|s| s * 1000.0)).or_else(|| decimal(lines[2]).map(|t| (t - now_ms).max(0.0)))
}

/// A non-negative JSON number (`12`, `1.5`, `1e3`), surrounding whitespace allowed. Read by
/// serde_json's `Value` parser, which the crate links anyway (`str::parse::<f64>` would link
/// core's float parser for this one use).
fn decimal(s: &str) -> Option<f64> {
    serde_json::from_str::<serde_json::Value>(s).ok()?.as_f64().filter(|v| *v >= 0.0)
}

/// Exponential backoff with jitter: `base · 2^attempt + [0, 100) ms`. `random` is in [0, 1).
pub fn backoff_ms(base_ms: f64, attempt: u32, random: f64) -> f64 {
    base_ms * 2f64.powi(attempt.min(30) as i32) + random.clamp(0.0, 1.0) * 100.0
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_milliseconds_seconds_and_dates() {
        let at = |h: &str| retry_after_ms(Some(h), 1000.0);
        assert_eq!(at("3"), Some(3000.0));
        assert_eq!(at(" 0 "), Some(0.0));
        assert_eq!(at("1.5"), Some(1500.0));
        assert_eq!(at("2147483648"), Some(2_147_483_648_000.0), "large values are read; the caller caps them");
        assert_eq!(at("1e3"), Some(1_000_000.0));
        for bad in ["-1", "", "3s", ".5", "soon", "NaN", "\"3\"", "Wed, 21 Oct 2026 07:28:00 GMT"] {
            assert_eq!(at(bad), None, "{bad}: a bare Retry-After is read as seconds only");
        }
        assert_eq!(retry_after_ms(None, 0.0), None);
        // The host's three lines: retry-after-ms, Retry-After, Date.parse(Retry-After).
        assert_eq!(at("250\n3\nNaN"), Some(250.0), "milliseconds first");
        assert_eq!(at("12.5\n\nNaN"), Some(12.5));
        assert_eq!(at("\n3\n978307200000"), Some(3000.0), "then seconds");
        assert_eq!(at("x\n3\nNaN"), Some(3000.0));
        assert_eq!(at("\nSun, 06 Nov 1994 08:49:37 GMT\n6000"), Some(5000.0), "then the date, from now");
        assert_eq!(at("\nSun, 06 Nov 1994 08:49:37 GMT\n0"), Some(0.0), "a date in the past: at once");
        assert_eq!(at("\n\nNaN"), None);
        assert_eq!(at("\nsoon\nNaN"), None);
    }

    #[test]
    fn backoff_doubles_with_bounded_jitter() {
        assert_eq!(backoff_ms(500.0, 0, 0.0), 500.0);
        assert_eq!(backoff_ms(500.0, 2, 0.5), 2050.0);
        assert!(backoff_ms(10.0, 1, 0.999) < 120.0);
        assert!(retryable_status(529) && retryable_status(429) && !retryable_status(400) && !retryable_status(501));
    }
}
