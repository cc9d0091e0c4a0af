//! A server that needs authorization answers 401 with a bearer challenge
//! (`WWW-Authenticate: Bearer resource_metadata="…", scope="…"`). The call then suspends with an
//! `authorization` request naming the server, its protected-resource metadata and the
//! authorization server that document points to; the host runs the OAuth flow and answers, and
//! the call is made again with the token the host hands to the edge. Nothing here sees a token.

use crate::json;
use crate::suspend::Request;
use serde_json::{Map, Value};

/// The parameters of a `Bearer` challenge that matter to the host.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Challenge {
    pub resource_metadata: Option<String>,
    pub scope: Option<String>,
    pub error: Option<String>,
}

/// Reads the `Bearer` challenge of a `WWW-Authenticate` value (other schemes may sit beside it).
/// Quoted values may hold commas and `\"` escapes.
pub fn parse_challenge(header: &str) -> Challenge {
    let mut c = Challenge::default();
    let Some(at) = find_scheme(header) else { return c };
    let mut rest = header.get(at + 6..).unwrap_or("").trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest.get(..eq).unwrap_or("").trim().trim_start_matches(',').trim().to_ascii_lowercase();
        // `Bearer a=1, Basic realm=…`: a bare word before the next `=` starts another scheme.
        if key.contains(' ') {
            break;
        }
        rest = rest.get(eq + 1..).unwrap_or("").trim_start();
        let value;
        if let Some(q) = rest.strip_prefix('"') {
            let mut v = String::new();
            let mut chars = q.char_indices();
            let mut end = q.len();
            while let Some((i, ch)) = chars.next() {
                match ch {
                    '\\' => v.extend(chars.next().map(|(_, c)| c)),
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    _ => v.push(ch),
                }
            }
            value = v;
            rest = q.get(end..).unwrap_or("");
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            value = rest.get(..end).unwrap_or("").trim().to_string();
            rest = rest.get(end..).unwrap_or("");
        }
        match key.as_str() {
            "resource_metadata" => c.resource_metadata = Some(value),
            "scope" => c.scope = Some(value),
            "error" => c.error = Some(value),
            _ => {}
        }
        rest = rest.trim_start().trim_start_matches(',').trim_start();
    }
    c
}

fn find_scheme(header: &str) -> Option<usize> {
    let lower = header.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower.get(from..).and_then(|l| super::find(l, "bearer")) {
        let at = from + i;
        let before_ok = at == 0 || matches!(lower.as_bytes()[at - 1], b' ' | b',');
        let after_ok = lower.as_bytes().get(at + 6).map_or(true, |b| *b == b' ');
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + 6;
    }
    None
}

/// Where the protected-resource metadata is: the challenge's `resource_metadata`, else the
/// well-known location for the server URL (the path after `/.well-known/oauth-protected-resource`).
pub fn metadata_url(server_url: &str, c: &Challenge) -> String {
    if let Some(u) = c.resource_metadata.as_ref().filter(|u| !u.is_empty()) {
        return u.clone();
    }
    let after_scheme = super::find(server_url, "://").map_or(0, |i| i + 3);
    let path_at = server_url.get(after_scheme..).and_then(|r| r.find('/')).map_or(server_url.len(), |i| after_scheme + i);
    let path = server_url.get(path_at..).unwrap_or("").split(['?', '#']).next().unwrap_or("").trim_end_matches('/');
    let mut out = server_url.get(..path_at).unwrap_or("").to_string();
    out.push_str("/.well-known/oauth-protected-resource");
    out.push_str(path);
    out
}

/// The first of `authorization_servers` in a protected-resource metadata document.
pub fn authorization_server(doc: &Value) -> Option<String> {
    doc.get("authorization_servers")?.as_array()?.first()?.as_str().map(str::to_string)
}

/// An https URL, or an http one on a loopback host (a local development server).
pub fn visitable(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("https://") {
        return lower.len() > "https://".len();
    }
    let Some(rest) = lower.strip_prefix("http://") else { return false };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..host_end).unwrap_or("");
    if authority.contains('@') {
        return false;
    }
    let host = if authority.starts_with('[') {
        authority.get(..authority.find(']').map_or(authority.len(), |i| i + 1)).unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    };
    host == "localhost" || host == "[::1]" || (host.starts_with("127.") && host.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// The suspension: `kind: "authorization"`, the URL to visit (the authorization server, or the
/// metadata when it could not be read), and the facts an OAuth flow starts from in `data`.
pub fn request(server: &str, server_url: &str, metadata: &str, doc: Option<&Value>, c: &Challenge) -> Request {
    // The host opens this URL (a browser tab, `launchWebAuthFlow`): only https, or http on a
    // loopback host; a `javascript:` or other URL from the server is left out of `url` and `data`.
    let auth_server = doc.and_then(authorization_server).filter(|u| visitable(u));
    let mut data = Map::new();
    data.insert("server".into(), server.into());
    data.insert("serverUrl".into(), server_url.into());
    data.insert("resourceMetadata".into(), metadata.into());
    if let Some(a) = &auth_server {
        data.insert("authorizationServer".into(), a.as_str().into());
    }
    if let Some(r) = doc.and_then(|d| d.get("resource")).and_then(Value::as_str) {
        data.insert("resource".into(), r.into());
    }
    if let Some(s) = &c.scope {
        data.insert("scope".into(), s.as_str().into());
    } else if let Some(s) = doc.and_then(|d| d.get("scopes_supported")).filter(|s| s.is_array()) {
        data.insert("scopesSupported".into(), s.clone());
    }
    let url = auth_server.filter(|u| visitable(u)).or_else(|| Some(metadata.to_string()).filter(|u| visitable(u)));
    Request {
        kind: "authorization".into(),
        prompt: json::join(&["MCP server ", server, " requires authorization"], ""),
        url,
        data: Some(data),
        ..Request::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_https_or_loopback_http_urls_reach_the_suspension() {
        for u in ["https://auth.test/x", "http://localhost:3000/a", "http://127.0.0.1/", "http://[::1]:8/"] {
            assert!(visitable(u), "{u}");
        }
        for u in [
            "javascript:alert(1)",
            "JAVASCRIPT:x",
            "data:text/html,x",
            "http://auth.test/",
            "http://localhost@evil.test/",
            "http://127.0.0.1.evil.test/",
            "https://",
            "file:///x",
        ] {
            assert!(!visitable(u), "{u}");
        }
        let c = Challenge::default();
        let doc = json!({"authorization_servers": ["javascript:alert(document.cookie)"]});
        let r = request("s", "https://m.test/mcp", "https://m.test/.well-known/oauth-protected-resource", Some(&doc), &c);
        assert_eq!(r.url.as_deref(), Some("https://m.test/.well-known/oauth-protected-resource"));
        assert!(r.data.unwrap().get("authorizationServer").is_none());
        let r = request("s", "https://m.test/mcp", "javascript:alert(1)", None, &c);
        assert_eq!(r.url, None, "nothing safe to visit");
    }
}
