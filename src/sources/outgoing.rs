//! How a request of the MCP entry's sources (MCP sessions, `httpTool`, A2A, `webfetch`) goes out
//! over the host's `fetch`, and how a failed one reads: to which URLs the host's bearer token may
//! go, which origins a session may POST to, which header values may be sent, when a redirect must
//! not be followed. Decided here so that the edge only carries values; it adds the token itself,
//! so the token never enters the wasm.

use super::options::header_value_ok;
use super::text::{resolve, same_origin};
use super::transport::SourceRequest;
use crate::error::{Code, Error, Result};
use crate::json;

/// The protocols' own headers. A request with any other (an API key from `headers` or `env`)
/// does not follow redirects, which would re-send it to wherever the server points; nor does one
/// the host adds a bearer token to. A request with nothing of the caller's (a `webfetch`, a
/// public endpoint) follows them, as a browser would.
const PLAIN: [&str; 5] = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"];

/// A request as the host's fetch sends it.
#[derive(Debug, PartialEq)]
pub struct Outgoing {
    /// fetch's init as JSON text: `method`, `headers`, and `redirect: "manual"` when the headers
    /// carry credentials.
    pub head: String,
    /// Whether the host's bearer token may go with it: to the server itself (and to a legacy
    /// server's message endpoint on its origin), never to a metadata document.
    pub token: bool,
}

/// `req` sent with HTTP `method` (an HTTP tool's may be any) by the source named `label`;
/// `server` is an MCP session's URL, empty for a source without one (no token, no origin rule).
pub fn outgoing(req: &SourceRequest, method: &str, server: &str, label: &str) -> Result<Outgoing> {
    let fail = |what: &str| Error::new(Code::Transport, format!("{label}: {what}"));
    // A session POSTs only to its server's origin: a legacy `endpoint` event naming another one
    // would receive the configured headers (keys, tokens).
    if !server.is_empty() && method == "POST" && !same_origin(&req.url, server) {
        return Err(fail("the endpoint is on another origin; refused"));
    }
    let token = !server.is_empty() && (req.url == server || (method == "POST" && resolve(&req.url, "/") == resolve(server, "/")));
    let mut manual = false;
    for (k, v) in &req.headers {
        // fetch's own refusal quotes the value (a key, a token); this one never does.
        if !header_value_ok(v) {
            let why = " is not a valid header value (CR, LF, NUL or a character beyond U+00FF)";
            return Err(fail(&format!("fetch failed: header {k}{why}")));
        }
        manual |= !PLAIN.iter().any(|p| k.eq_ignore_ascii_case(p));
    }
    let mut head = String::new();
    json::write_obj(&mut head, |o| {
        o.str("method", method).obj("headers", |h| {
            for (k, v) in &req.headers {
                h.str(k, v);
            }
        });
        if manual {
            o.str("redirect", "manual");
        }
    });
    Ok(Outgoing { head, token })
}

/// A request that failed by what the host saw: `abort` is its signal's state (1 aborted, 2 past
/// its deadline of `timeout_ms`), `token` a failure of the host's token callback (checked first:
/// it ran before anything was sent), else fetch's own `message`.
pub fn failed(label: &str, abort: u8, token: bool, message: &str, timeout_ms: f64) -> Error {
    let head = format!("{label}: ");
    match (token, abort) {
        (true, _) => Error::new(Code::HostCallback, head + "the token callback failed: " + message),
        (_, 1) => Error::new(Code::Aborted, head + "aborted"),
        (_, 2) => Error::new(Code::Aborted, head + "timeout after " + &crate::metrics::js_number(timeout_ms) + "ms"),
        // "fetch failed" (Node's words, with their cause) is said once.
        _ if message.starts_with("fetch failed") => Error::new(Code::Transport, head + message),
        _ => Error::new(Code::Transport, head + "fetch failed: " + message),
    }
}

/// A reply longer than `maxBytes`.
pub fn too_large(label: &str, max: usize) -> Error {
    Error::new(Code::Transport, format!("{label}: the reply is larger than maxBytes ({max} bytes)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(url: &str, headers: &[(&str, &str)]) -> SourceRequest {
        let headers = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        SourceRequest { method: "POST", url: url.into(), headers, body: None, stream: false }
    }

    #[test]
    fn the_token_goes_to_the_server_and_its_origin_only() {
        let s = "https://a.test/mcp";
        assert!(outgoing(&req(s, &[]), "POST", s, "m").unwrap().token);
        assert!(outgoing(&req("https://a.test/msg?x=1", &[]), "POST", s, "m").unwrap().token, "a legacy endpoint on its origin");
        assert!(!outgoing(&req("https://a.test/.well-known/oauth-protected-resource", &[]), "GET", s, "m").unwrap().token);
        assert!(!outgoing(&req(s, &[]), "GET", "", "HTTP tool h").unwrap().token, "no session: no token");
        let e = outgoing(&req("https://b.test/msg", &[("x-key", "k")]), "POST", s, "MCP server m").unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (Code::Transport, "MCP server m: the endpoint is on another origin; refused"));
        assert!(
            outgoing(&req("https://b.test/x", &[("x-key", "k")]), "POST", "", "HTTP tool h").is_ok(),
            "an HTTP tool has no origin rule"
        );
    }

    #[test]
    fn credentials_refuse_redirects_and_bad_values_are_not_echoed() {
        let plain = outgoing(&req("https://a.test/", &[("Accept", "*/*"), ("mcp-session-id", "s")]), "GET", "", "w").unwrap();
        assert_eq!(plain.head, r#"{"method":"GET","headers":{"Accept":"*/*","mcp-session-id":"s"}}"#);
        let keyed = outgoing(&req("https://a.test/", &[("x-key", "k\"")]), "PUT", "", "w").unwrap();
        assert_eq!(keyed.head, r#"{"method":"PUT","headers":{"x-key":"k\""},"redirect":"manual"}"#);
        let e = outgoing(&req("https://a.test/", &[("x-key", "SECRET\r\nx: y")]), "GET", "", "HTTP tool h").unwrap_err();
        assert_eq!(e.code, Code::Transport);
        assert!(
            e.message.starts_with("HTTP tool h: fetch failed: header x-key is not a valid header value") && !e.message.contains("SECRET")
        );
    }

    #[test]
    fn failures_read_by_what_the_host_saw() {
        let f = |abort, token| failed("MCP server s", abort, token, "boom", 300.0);
        assert_eq!((f(0, true).code, f(0, true).message), (Code::HostCallback, "MCP server s: the token callback failed: boom".into()));
        assert_eq!(f(1, false).message, "MCP server s: aborted");
        assert_eq!((f(2, false).code, f(2, false).message), (Code::Aborted, "MCP server s: timeout after 300ms".into()));
        assert_eq!((f(0, false).code, f(0, false).message), (Code::Transport, "MCP server s: fetch failed: boom".into()));
        assert_eq!(too_large("HTTP tool h", 4).message, "HTTP tool h: the reply is larger than maxBytes (4 bytes)");
    }
}
