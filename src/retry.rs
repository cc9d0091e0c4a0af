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

/// The wait a provider asked for, in milliseconds: `retry-after-ms` when the hint carries it
/// (the host joins `retry-after-ms` and `Retry-After` with a newline), else `Retry-After` as
/// delay-seconds (a fraction allowed) or as an HTTP date, measured from `now_ms` (Unix ms; a
/// date in the past is 0). `None`: no hint, or none this reads; the caller backs off.
pub fn retry_after_ms(hint: Option<&str>, now_ms: f64) -> Option<f64> {
    let hint = hint?;
    let (ms, header) = match hint.split_once('\n') {
        Some((ms, header)) => (decimal(ms), header),
        None => (None, hint),
    };
    ms.or_else(|| decimal(header).map(|s| s * 1000.0)).or_else(|| http_date_ms(header).map(|t| (t - now_ms).max(0.0)))
}

/// A non-negative decimal (`12`, `1.5`), trimmed. Written out: `str::parse::<f64>` links core's
/// float parser for this one use.
fn decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v = 0.0;
    for b in int.bytes() {
        v = v * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 1.0;
    for b in frac.bytes() {
        scale /= 10.0;
        v += f64::from(b - b'0') * scale;
    }
    Some(v)
}

/// An HTTP date in any of its three forms (`Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday,
/// 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`) as Unix milliseconds. The forms differ
/// only in separators and order, so the tokens are read by kind: a month name, `h:m:s`, then the
/// day and the year in the order they come (a two-digit year is 19xx from 70, else 20xx).
fn http_date_ms(s: &str) -> Option<f64> {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let (mut month, mut time, mut numbers) = (None, None, Vec::new());
    for t in s.split([' ', ',', '-']).filter(|t| !t.is_empty()) {
        if let Some(m) = MONTHS.iter().position(|m| *m == t) {
            month = Some(m as i64 + 1);
        } else if t.contains(':') {
            let mut hms = t.split(':').map(|p| decimal(p).filter(|_| p.len() == 2));
            let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
            (h < 24.0 && m < 60.0 && s < 61.0 && hms.next().is_none()).then_some(())?;
            time = Some(h * 3_600_000.0 + m * 60_000.0 + s * 1000.0);
        } else if t.bytes().all(|b| b.is_ascii_digit()) {
            numbers.push(decimal(t)? as i64);
        }
    }
    let (&[day, year], Some(m), Some(time)) = (numbers.as_slice(), month, time) else {
        return None;
    };
    let year = if year < 70 {
        2000 + year
    } else if year < 100 {
        1900 + year
    } else {
        year
    };
    if !(1..=31).contains(&day) || !(1970..=9999).contains(&year) {
        return None;
    }
    // Days since 1970-01-01 of a proleptic Gregorian date (years counted from March).
    let y = if m <= 2 { year - 1 } else { year };
    let (era, mp) = (y / 400, (m + 9) % 12);
    let yoe = y - era * 400;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + (153 * mp + 2) / 5 + day - 1;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 * 86_400_000.0 + time)
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
    fn retry_after_reads_seconds_dates_and_milliseconds() {
        let at = |h: &str| retry_after_ms(Some(h), 0.0);
        assert_eq!(at("3"), Some(3000.0));
        assert_eq!(at(" 0 "), Some(0.0));
        assert_eq!(at("1.5"), Some(1500.0));
        assert_eq!(at("2147483648"), Some(2_147_483_648_000.0), "large values are read; the caller caps them");
        for bad in [
            "-1",
            "",
            "3s",
            ".5",
            "1e3",
            "soon",
            "Wed, 32 Oct 2026 07:28:00 GMT",
            "Wed, 21 Oct 2026 24:28:00 GMT",
            "Wed, 21 Foo 2026 07:28:00 GMT",
        ] {
            assert_eq!(at(bad), None, "{bad}");
        }
        assert_eq!(retry_after_ms(None, 0.0), None);
        // The three HTTP-date forms of one instant (784111777 s after the epoch).
        let t = 784_111_777_000.0;
        for form in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            assert_eq!(retry_after_ms(Some(form), t - 5000.0), Some(5000.0), "{form}");
            assert_eq!(retry_after_ms(Some(form), t + 5000.0), Some(0.0), "a date in the past: at once ({form})");
        }
        assert_eq!(retry_after_ms(Some("Thu, 01 Jan 1970 00:00:00 GMT"), 0.0), Some(0.0));
        assert_eq!(retry_after_ms(Some("Tue, 29 Feb 2028 12:00:00 GMT"), 1_835_395_200_000.0), Some(43_200_000.0), "a leap day");
        // `retry-after-ms` first, `Retry-After` when it is absent or unreadable.
        assert_eq!(at("250\n3"), Some(250.0));
        assert_eq!(at("12.5\n"), Some(12.5));
        assert_eq!(at("\n3"), Some(3000.0));
        assert_eq!(at("x\n3"), Some(3000.0));
        assert_eq!(at("\n"), None);
    }

    #[test]
    fn backoff_doubles_with_bounded_jitter() {
        assert_eq!(backoff_ms(500.0, 0, 0.0), 500.0);
        assert_eq!(backoff_ms(500.0, 2, 0.5), 2050.0);
        assert!(backoff_ms(10.0, 1, 0.999) < 120.0);
        assert!(retryable_status(529) && retryable_status(429) && !retryable_status(400) && !retryable_status(501));
    }
}
