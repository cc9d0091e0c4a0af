//! URLs as the authorization flow reads and writes them. The core has no URL parser, so the few
//! questions it asks are answered here by hand, conservatively: anything unusual (spaces,
//! controls, a backslash, non-ASCII, user info, an odd host) is not a URL the flow follows or
//! hands to a browser, so a disagreement with a full parser can only refuse, never misroute.

/// The longest URL the flow reads from a server or builds from one.
pub const MAX_URL: usize = 2048;

/// An absolute http(s) URL, split.
pub struct Url<'a> {
    pub https: bool,
    /// `host[:port]`, lower-cased.
    pub authority: String,
    /// Lower-cased; an IPv6 address keeps its brackets.
    pub host: String,
    /// Empty or starting with `/`.
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
}

impl Url<'_> {
    pub fn origin(&self) -> String {
        format!("{}{}", if self.https { "https://" } else { "http://" }, self.authority)
    }

    pub fn is_loopback(&self) -> bool {
        let h = self.host.as_str();
        h == "localhost" || h == "[::1]" || (h.starts_with("127.") && h.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
    }
}

/// Splits `url`, or `None` when it is not a plain absolute http(s) URL.
pub fn parse(url: &str) -> Option<Url<'_>> {
    if url.len() > MAX_URL || url.bytes().any(|b| b <= b' ' || b >= 0x7f || b == b'\\') {
        return None;
    }
    let lower_start = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let (https, rest) = if lower_start.starts_with("https://") {
        (true, url.get(8..)?)
    } else if lower_start.starts_with("http://") {
        (false, url.get(7..)?)
    } else {
        return None;
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']')?;
        (authority.get(..=close)?, authority.get(close + 1..)?)
    } else {
        let colon = authority.find(':').unwrap_or(authority.len());
        (authority.get(..colon)?, authority.get(colon..)?)
    };
    let host_ok = if host.starts_with('[') {
        host.len() > 2 && host.bytes().all(|b| b.is_ascii_hexdigit() || matches!(b, b'[' | b']' | b':' | b'.'))
    } else {
        !host.is_empty() && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    };
    let port_ok = port.is_empty() || (port.len() > 1 && port.len() <= 6 && port.bytes().skip(1).all(|b| b.is_ascii_digit()));
    if !host_ok || !port_ok {
        return None;
    }
    let rest = rest.get(end..)?;
    let (before_fragment, fragment) = match rest.find('#') {
        Some(i) => (rest.get(..i)?, rest.get(i + 1..)),
        None => (rest, None),
    };
    let (path, query) = match before_fragment.find('?') {
        Some(i) => (before_fragment.get(..i)?, before_fragment.get(i + 1..)),
        None => (before_fragment, None),
    };
    Some(Url { https, authority: authority.to_ascii_lowercase(), host: host.to_ascii_lowercase(), path, query, fragment })
}

/// An https URL, or an http one on a loopback host (a local development server or a native
/// app's redirect): what may be handed to a browser or used as a redirect URI.
pub fn visitable(url: &str) -> bool {
    parse(url).is_some_and(|u| u.https || u.is_loopback())
}

/// A URL the flow may fetch from (or send the user to) on behalf of `server_url`: https, or
/// http on a loopback host only when the MCP server is itself on one, so a remote server cannot
/// point the client at services on the user's machine. No fragment.
pub fn fetchable(url: &str, server_url: &str) -> bool {
    let Some(u) = parse(url) else { return false };
    u.fragment.is_none() && (u.https || (u.is_loopback() && parse(server_url).is_some_and(|s| !s.https && s.is_loopback())))
}

/// `path` without a terminating `/` (`/` alone is empty).
fn trimmed(path: &str) -> &str {
    path.strip_suffix('/').unwrap_or(path)
}

/// The protected-resource metadata locations for a server URL (RFC 9728 section 3, and MCP's
/// root fallback for an endpoint with a path), in the order they are tried.
pub fn resource_metadata_urls(server_url: &str) -> Vec<String> {
    let Some(u) = parse(server_url) else { return Vec::new() };
    let root = format!("{}/.well-known/oauth-protected-resource", u.origin());
    let path = trimmed(u.path);
    if path.is_empty() {
        return vec![root];
    }
    vec![format!("{root}{path}"), root]
}

/// The metadata locations of an authorization server, in the order MCP prescribes: RFC 8414
/// and OpenID Connect Discovery with path insertion, then OpenID Connect's path appending; an
/// issuer without a path has the two root documents.
pub fn authorization_server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some(u) = parse(issuer) else { return Vec::new() };
    let o = u.origin();
    let path = trimmed(u.path);
    let at = |suffix: &str| format!("{o}/.well-known/{suffix}{path}");
    if path.is_empty() {
        return vec![at("oauth-authorization-server"), at("openid-configuration")];
    }
    vec![at("oauth-authorization-server"), at("openid-configuration"), format!("{o}{path}/.well-known/openid-configuration")]
}

/// Whether protected-resource metadata naming `resource` may speak for `server_url` (RFC 9728
/// section 3.3): the same origin, and the server's path at or under the resource's.
pub fn resource_covers(resource: &str, server_url: &str) -> bool {
    let (Some(r), Some(s)) = (parse(resource), parse(server_url)) else { return false };
    if r.https != s.https || r.authority != s.authority || r.fragment.is_some() {
        return false;
    }
    let rp = trimmed(r.path);
    let sp = s.path;
    rp.is_empty() || sp == rp || (sp.get(..rp.len()) == Some(rp) && sp.as_bytes().get(rp.len()) == Some(&b'/'))
}

/// The canonical URI of an MCP server (RFC 8707, as MCP defines it): scheme and host in lower
/// case, no fragment, no lone `/` path.
pub fn canonical(server_url: &str) -> Option<String> {
    let u = parse(server_url)?;
    let path = if u.path == "/" { "" } else { u.path };
    let mut out = format!("{}{path}", u.origin());
    if let Some(q) = u.query {
        out.push('?');
        out.push_str(q);
    }
    Some(out)
}

/// Appends `s` percent-encoded for a query value (everything but RFC 3986's unreserved set).
pub fn encode_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
}

/// One `application/x-www-form-urlencoded` value decoded (`+` is a space); `None` when a `%`
/// escape is broken or the bytes are not UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |c: u8| char::from(c).to_digit(16);
                let hi = hex(*b.get(i + 1)?)?;
                let lo = hex(*b.get(i + 2)?)?;
                out.push((hi * 16 + lo) as u8);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The parameters of a query, decoded, in order; `None` when one does not decode.
pub fn query_params(query: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.push((decode(k)?, decode(v)?));
    }
    Some(out)
}
