//! The option readers every tool source shares: millisecond deadlines, the reply cap, header
//! checks and `${NAME}` expansion from a host's `env` map.

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The longest deadline a host timer keeps: `setTimeout` (and Node's `AbortSignal.timeout`)
/// fires at once for anything longer, which would be a deadline of ~1 ms, not a long one.
pub const MAX_TIMEOUT_MS: f64 = 2_147_483_647.0;

/// A host's millisecond option (`timeoutMs`, `pollEvery`): absent is `default`; a positive
/// number is rounded to whole milliseconds (at least 1), since a fractional value given to
/// `AbortSignal.timeout` throws and would silently mean no deadline at all; anything else,
/// or more than [`MAX_TIMEOUT_MS`], is `bad_input`.
pub fn millis(v: Option<&Value>, what: &str, key: &str, default: f64) -> Result<f64> {
    match v {
        None | Some(Value::Null) => Ok(default),
        Some(t) => t
            .as_f64()
            .filter(|t| *t > 0.0 && *t <= MAX_TIMEOUT_MS)
            .map(|t| t.round().max(1.0))
            .ok_or_else(|| Error::bad_input(format!("{what}.{key} must be a positive number of milliseconds, at most 2147483647"))),
    }
}

/// The default cap on an MCP, HTTP-tool or A2A reply: replies had none (30 MB went through to
/// memory and the model); webfetch has its own, smaller one.
pub const DEFAULT_MAX_BYTES: usize = 4 * 1024 * 1024;

/// A host's `maxBytes`: absent is [`DEFAULT_MAX_BYTES`]; else a positive number (floored).
pub fn max_bytes(v: Option<&Value>, what: &str) -> Result<usize> {
    match v {
        None | Some(Value::Null) => Ok(DEFAULT_MAX_BYTES),
        Some(n) => n
            .as_f64()
            .filter(|n| *n >= 1.0)
            .map(|n| n.min(usize::MAX as f64) as usize)
            .ok_or_else(|| Error::bad_input(format!("{what}.maxBytes must be a positive number"))),
    }
}

/// Refuses a header whose name is not an HTTP token or whose value, once `${NAME}` is filled
/// from `env`, holds CR, LF, NUL or a character beyond U+00FF: `fetch` would throw with the
/// value in its message (a token or key), which then reached listing errors, the tool result
/// the model sees and the next provider request. The error names the header, never the value.
pub fn check_headers(headers: &[(String, String)], env: &Map<String, Value>, what: &str) -> Result<()> {
    for (k, v) in headers {
        let name_ok = !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !name_ok {
            return Err(Error::bad_input(format!("{what}.headers: a header name is not an HTTP token")));
        }
        if !header_value_ok(&expand_env(v, env)) {
            return Err(Error::bad_input(format!(
                "{what}.headers.{k} has an invalid value (CR, LF, NUL or a character beyond U+00FF, after env is filled in)"
            )));
        }
    }
    Ok(())
}

/// What `Headers.append` accepts, besides the surrounding whitespace it trims.
pub fn header_value_ok(v: &str) -> bool {
    v.chars().all(|c| !matches!(c, '\r' | '\n' | '\0') && (c as u32) <= 0xFF)
}

/// `${NAME}` replaced by `env[NAME]` (a string; anything else or nothing is empty).
pub fn expand_env(s: &str, env: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = crate::small::find(rest, "${") {
        let after = rest.get(start + 2..).unwrap_or("");
        let Some(len) = after.find('}') else { break };
        let name = after.get(..len).unwrap_or("");
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(rest.get(..start + 2).unwrap_or(""));
            rest = after;
            continue;
        }
        out.push_str(rest.get(..start).unwrap_or(""));
        out.push_str(env.get(name).and_then(Value::as_str).unwrap_or(""));
        rest = after.get(len + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}
