//! What a host writes for `mcpTools(...)`, read from JSON data (the edge keeps the functions:
//! `fetch`, `token`). The same shape, with `tools` filled in, is the server entry as data
//! ([`McpOptions::source`]): saved in extension settings or a run's side storage, it rebuilds the
//! tools after a restart without listing them again.

use super::auth::flow::OAuthClient;
use super::result::McpTool;
use super::DEFAULT_TIMEOUT_MS;
use crate::error::{Error, Result};
use crate::json;
use crate::sources::options::{check_headers, expand_env, max_bytes, millis, DEFAULT_MAX_BYTES};
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
        let server = server.ok_or_else(|| bad(format!("{what}.server is required (a non-empty string)")))?;
        let url = json::opt_str(o, "url", what).map_err(bad)?.unwrap_or_default();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(bad(format!("{what}.url must be an http(s) URL")));
        }
        let headers = match o.get("headers") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(h)) => {
                let mut out = Vec::new();
                for (k, v) in h {
                    let v = v.as_str().ok_or_else(|| bad(format!("{what}.headers.{k} must be a string")))?;
                    out.push((k.clone(), v.to_string()));
                }
                out
            }
            Some(_) => return Err(bad(format!("{what}.headers must be an object of strings"))),
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
                    out.push(
                        McpTool::from_listing(t)
                            .ok_or_else(|| bad(format!("{what}.tools[{i}] must be {{ name, description?, inputSchema? }}")))?,
                    );
                }
                Some(out)
            }
            Some(_) => return Err(bad(format!("{what}.tools must be an array"))),
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
