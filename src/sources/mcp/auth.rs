//! A server that needs authorization answers 401 (or 403 `insufficient_scope`) with a bearer
//! challenge (`WWW-Authenticate: Bearer resource_metadata="…", scope="…"`). The call then
//! suspends with an `authorization` request. The package discovers what MCP's authorization
//! (revision 2026-07-28) says to discover ([`discover`]: the protected-resource metadata, then
//! the authorization server's metadata); when the host configured an OAuth client (`oauth`) and
//! the server supports PKCE S256, the request's `url` is a ready authorization URL ([`flow`]).
//! The host sends the user there and answers with the URL the browser came back to; the package
//! checks `state` and `iss` and hands the code to the host's `token` callback as a `grant`, which
//! the host exchanges (the MCP entry's `exchangeCode`) and keeps. A host that runs the whole flow
//! itself answers without a callback URL, as before. Nothing here sees a token.

pub mod discover;
pub mod flow;
pub mod urls;

use crate::suspend::Request;
use flow::{AsMetadata, Problem};
use serde_json::{Map, Value};
pub use urls::visitable;

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
    while let Some(i) = lower.get(from..).and_then(|l| crate::small::find(l, "bearer")) {
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

/// Where the protected-resource metadata is looked for first: the challenge's
/// `resource_metadata`, else the well-known location for the server URL's path.
pub fn metadata_url(server_url: &str, c: &Challenge) -> String {
    if let Some(u) = c.resource_metadata.as_ref().filter(|u| !u.is_empty()) {
        return u.clone();
    }
    urls::resource_metadata_urls(server_url).into_iter().next().unwrap_or_default()
}

/// What discovery found for one challenge.
#[derive(Default)]
pub struct Found {
    /// Where the protected-resource metadata was read (or first looked for).
    pub metadata_url: String,
    pub prm: Option<Value>,
    /// The authorization server chosen from the metadata.
    pub auth_server: Option<String>,
    pub meta: Option<AsMetadata>,
    /// Why no authorization URL was built, when the host configured a client.
    pub problem: Option<Problem>,
    pub flow: Option<Flow>,
}

/// An authorization request built for the host's client.
pub struct Flow {
    pub url: String,
    pub client_id: String,
    /// `client_id` is a Client ID Metadata Document's URL.
    pub cimd: bool,
    pub redirect_uri: String,
    pub scope: Option<String>,
    pub resource: String,
    pub state: String,
}

/// The suspension: `kind: "authorization"`, `url` (the ready authorization URL; without a
/// configured client, as before, the authorization server or the metadata), and in `data` the
/// facts an OAuth flow needs. A host that configured a client and got no URL finds why in
/// `data.problem`. Only https URLs (http on a loopback host) are ever given as `url`.
pub fn request(server: &str, server_url: &str, found: &Found, c: &Challenge, configured: bool) -> Request {
    let doc = found.prm.as_ref();
    let auth_server = found.auth_server.as_deref().filter(|u| visitable(u));
    let mut data = Map::new();
    let mut put = |k: &str, v: Value| {
        data.insert(k.into(), v);
    };
    put("server", server.into());
    put("serverUrl", server_url.into());
    put("resourceMetadata", found.metadata_url.as_str().into());
    if let Some(a) = auth_server {
        put("authorizationServer", a.into());
    }
    if let Some(r) = doc.and_then(|d| d.get("resource")).and_then(Value::as_str) {
        put("resource", r.into());
    }
    if let Some(s) = &c.scope {
        put("scope", s.as_str().into());
    } else if let Some(s) = doc.and_then(|d| d.get("scopes_supported")).filter(|s| s.is_array()) {
        put("scopesSupported", s.clone());
    }
    if let Some(m) = &found.meta {
        put("issuer", m.issuer.as_str().into());
        put("authorizationEndpoint", m.authorization_endpoint.as_str().into());
        put("tokenEndpoint", m.token_endpoint.as_str().into());
        put("clientIdMetadataDocumentSupported", m.cimd.into());
    }
    if let Some(f) = &found.flow {
        put("resource", f.resource.as_str().into());
        if let Some(s) = &f.scope {
            put("scope", s.as_str().into());
        }
        put("clientId", f.client_id.as_str().into());
        put("clientIdMetadataDocument", f.cimd.into());
        put("redirectUri", f.redirect_uri.as_str().into());
        put("state", f.state.as_str().into());
        put("codeChallengeMethod", "S256".into());
    }
    if let Some(p) = found.problem.filter(|_| configured) {
        put("problem", p.to_value());
    }
    let url = match &found.flow {
        Some(f) => Some(f.url.clone()),
        None if configured => None,
        None => auth_server.map(str::to_string).or_else(|| Some(found.metadata_url.clone()).filter(|u| visitable(u))),
    };
    Request {
        kind: "authorization".into(),
        prompt: format!("MCP server {server} requires authorization"),
        url,
        data: Some(data),
        ..Request::default()
    }
}

#[cfg(test)]
mod tests;
