//! What a host writes for `mcpTools(...)`, read from JSON data (the edge keeps the functions:
//! `fetch`, `token`). The same shape, with `tools` filled in, is the server entry as data
//! ([`McpOptions::source`]): saved in extension settings or a run's side storage, it rebuilds the
//! tools after a restart without listing them again.

use super::auth::flow::OAuthClient;
use super::result::McpTool;
use super::DEFAULT_TIMEOUT_MS;
use crate::error::{Error, Result};
use crate::json;
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct McpOptions {
    pub server: String,
    pub url: String,
    /// As written: values may hold `${NAME}` placeholders, filled from `env` when sending.
    pub headers: Vec<(String, String)>,
    pub env: Map<String, Value>,
    pub timeout_ms: f64,
    /// The largest reply read (`maxBytes`, default [`DEFAULT_MAX_BYTES`]).
    pub max_bytes: usize,
    /// A listing the host kept: the tools are rebuilt from it and nothing is sent until a call.
    pub tools: Option<Vec<McpTool>>,
    /// The host's OAuth client: with it an authorization request carries a ready URL.
    pub oauth: Option<OAuthClient>,
}

impl McpOptions {
    pub fn from_json(v: &Value) -> Result<McpOptions> {
        let what = "mcpTools(options)";
        let bad = Error::bad_input;
        let o = json::object(v, what).map_err(bad)?;
        let server = json::opt_str(o, "server", what).map_err(bad)?.filter(|s| !s.is_empty());
        let server = server.ok_or_else(|| bad(json::join(&[what, ".server is required (a non-empty string)"], "")))?;
        let url = json::opt_str(o, "url", what).map_err(bad)?.unwrap_or_default();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(bad(json::join(&[what, ".url must be an http(s) URL"], "")));
        }
        let headers = match o.get("headers") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(h)) => {
                let mut out = Vec::new();
                for (k, v) in h {
                    let v = v.as_str().ok_or_else(|| bad(json::join(&[what, ".headers.", k, " must be a string"], "")))?;
                    out.push((k.clone(), v.to_string()));
                }
                out
            }
            Some(_) => return Err(bad(json::join(&[what, ".headers must be an object of strings"], ""))),
        };
        let env = json::opt_object(o, "env", what).map_err(bad)?.unwrap_or_default();
        check_headers(&headers, &env, what)?;
        let timeout_ms = millis(o.get("timeoutMs"), what, "timeoutMs", DEFAULT_TIMEOUT_MS)?;
        let max_bytes = max_bytes(o.get("maxBytes"), what)?;
        let tools = match o.get("tools") {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => {
                let mut out = Vec::new();
                for (i, t) in list.iter().enumerate() {
                    out.push(McpTool::from_listing(t).ok_or_else(|| {
                        bad(json::join(&[what, ".tools[", &i.to_string(), "] must be { name, description?, inputSchema? }"], ""))
                    })?);
                }
                Some(out)
            }
            Some(_) => return Err(bad(json::join(&[what, ".tools must be an array"], ""))),
        };
        let oauth = OAuthClient::from_json(o.get("oauth"), what).map_err(bad)?;
        Ok(McpOptions { server, url, headers, env, timeout_ms, max_bytes, tools, oauth })
    }

    /// The headers to send, placeholders filled (an unknown name is empty, as an unset variable).
    pub fn expanded_headers(&self) -> Vec<(String, String)> {
        self.headers.iter().map(|(k, v)| (k.clone(), expand_env(v, &self.env))).collect()
    }

    /// The server entry as data, with the listing `tools`. `env` is left out: it is where a host
    /// keeps secrets, and it passes it again when it rebuilds.
    pub fn source(&self, tools: &[McpTool]) -> Value {
        let mut fields = vec![("server", self.server.as_str().into()), ("url", self.url.as_str().into())];
        if !self.headers.is_empty() {
            let h: Map<String, Value> = self.headers.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
            fields.push(("headers", Value::Object(h)));
        }
        if self.timeout_ms != DEFAULT_TIMEOUT_MS {
            fields.push(("timeoutMs", self.timeout_ms.into()));
        }
        if self.max_bytes != DEFAULT_MAX_BYTES {
            fields.push(("maxBytes", (self.max_bytes as f64).into()));
        }
        if let Some(o) = &self.oauth {
            fields.push(("oauth", o.to_value()));
        }
        fields.push(("tools", Value::Array(tools.iter().map(McpTool::to_value).collect())));
        json::obj(fields)
    }
}

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
        Some(t) => t.as_f64().filter(|t| *t > 0.0 && *t <= MAX_TIMEOUT_MS).map(|t| t.round().max(1.0)).ok_or_else(|| {
            Error::bad_input(json::join(&[what, ".", key, " must be a positive number of milliseconds, at most 2147483647"], ""))
        }),
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
            .ok_or_else(|| Error::bad_input(json::join(&[what, ".maxBytes must be a positive number"], ""))),
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
            return Err(Error::bad_input(json::join(&[what, ".headers: a header name is not an HTTP token"], "")));
        }
        if !header_value_ok(&expand_env(v, env)) {
            return Err(Error::bad_input(json::join(
                &[what, ".headers.", k, " has an invalid value (CR, LF, NUL or a character beyond U+00FF, after env is filled in)"],
                "",
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
    while let Some(start) = super::find(rest, "${") {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deadlines_are_whole_milliseconds_and_never_none() {
        let o = |t: Value| McpOptions::from_json(&json!({"server": "s", "url": "http://a", "timeoutMs": t}));
        assert_eq!(o(json!(500.5)).unwrap().timeout_ms, 501.0);
        assert_eq!(o(json!(0.01)).unwrap().timeout_ms, 1.0);
        for t in [json!(0), json!(-1), json!(3e9), json!("5")] {
            assert_eq!(o(t).unwrap_err().code(), "bad_input");
        }
    }

    #[test]
    fn header_values_that_fetch_would_echo_are_refused_without_the_value() {
        for v in ["SECRET\r\nx: y", "SECRET\n", "SECRET\u{0}", "SECRET\u{20ac}"] {
            let o = json!({"server": "s", "url": "http://a", "headers": {"x-key": "k ${K}"}, "env": {"K": v}});
            let e = McpOptions::from_json(&o).unwrap_err();
            assert_eq!(e.code(), "bad_input");
            assert!(!e.message.contains("SECRET"), "{}", e.message);
            assert!(e.message.contains("headers.x-key"), "{}", e.message);
        }
        assert!(McpOptions::from_json(&json!({"server": "s", "url": "http://a", "headers": {"a b": "v"}})).is_err());
        assert!(McpOptions::from_json(&json!({"server": "s", "url": "http://a", "headers": {"x": "caf\u{e9}\tok"}})).is_ok());
    }
}
