//! The text helpers every tool source shares: reading JSON text, capping a server's
//! text in messages, JavaScript's `String(v)`, names a provider takes, and joining URLs.

use crate::metrics::js_number;
use crate::tool::MAX_NAME_LEN;
use serde_json::Value;

/// JSON text to data, through the crate's one reader (`crate::json::parse`).
pub fn parse(bytes: &[u8]) -> Option<serde_json::Value> {
    crate::json::parse(core::str::from_utf8(bytes).ok()?).ok()
}

/// Server text in messages is capped like provider bodies.
pub fn cap(s: &str) -> String {
    let mut out: String = s.chars().take(crate::error::BODY_CAP).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// `String(v)` as JavaScript gives it for JSON data.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => if *b { "true" } else { "false" }.into(),
        Value::Number(n) => n.as_f64().map(js_number).unwrap_or_default(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| if i.is_null() { String::new() } else { js_string(i) }).collect();
            parts.join(",")
        }
        Value::Object(_) => "[object Object]".into(),
    }
}

/// Sanitised names made short and unique, in order, the same names for the same list (what an
/// MCP listing's and an A2A card's declarations are named by; see `mcp::result::declarations`).
pub fn unique_names(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let mut base = name.clone();
        if base.len() > MAX_NAME_LEN {
            let mut h: u32 = 0x811c_9dc5; // FNV-1a of the whole name
            for b in name.bytes() {
                h = (h ^ b as u32).wrapping_mul(0x0100_0193);
            }
            base.truncate(MAX_NAME_LEN - 9); // names are ASCII once sanitised
            base.push('_');
            const HEX: &[u8; 16] = b"0123456789abcdef";
            for i in (0..8).rev() {
                base.push(HEX[((h >> (i * 4)) & 15) as usize] as char);
            }
        }
        let mut candidate = base.clone();
        let mut n = 2;
        while out.contains(&candidate) {
            let suffix = format!("_{n}");
            let keep = base.len().min(MAX_NAME_LEN - suffix.len());
            candidate = format!("{}{suffix}", base.get(..keep).unwrap_or(""));
            n += 1;
        }
        out.push(candidate);
    }
    out
}

/// `reference` (an `endpoint` event's data) against the server URL: absolute, origin-relative or
/// path-relative.
pub fn resolve(base: &str, reference: &str) -> String {
    let reference = reference.trim();
    if reference.starts_with("http://") || reference.starts_with("https://") {
        return reference.to_string();
    }
    let after_scheme = crate::small::find(base, "://").map_or(0, |i| i + 3);
    let path_at = base.get(after_scheme..).and_then(|r| r.find('/')).map_or(base.len(), |i| after_scheme + i);
    let origin = base.get(..path_at).unwrap_or(base);
    if reference.starts_with('/') {
        return format!("{origin}{reference}");
    }
    let path = base.get(path_at..).unwrap_or("").split(['?', '#']).next().unwrap_or("");
    let dir = path.rfind('/').map_or("/", |i| path.get(..=i).unwrap_or("/"));
    format!("{origin}{dir}{reference}")
}

/// Whether two absolute http(s) URLs share scheme, host and port, compared as written (case
/// aside): `http://h` and `http://h:80` count as different, which errs on the side of refusing.
pub fn same_origin(a: &str, b: &str) -> bool {
    // The same URL (every request of a session but a legacy one's) is resolved no further.
    a == b || resolve(a, "/").eq_ignore_ascii_case(&resolve(b, "/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_resolve_against_the_server_url() {
        assert_eq!(resolve("http://h:1/mcp", "/messages?sessionId=a"), "http://h:1/messages?sessionId=a");
        assert_eq!(resolve("http://h:1/a/sse?x=1", "messages?s=1"), "http://h:1/a/messages?s=1");
        assert_eq!(resolve("http://h:1", "m"), "http://h:1/m");
        assert_eq!(resolve("http://h:1/mcp", " https://o.test/post "), "https://o.test/post");
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert!(same_origin("http://H:1/mcp", "http://h:1/messages?s=1"));
        for other in ["https://h:1/", "http://h:2/", "http://h/", "http://evil@h:1/", "http://h:1.evil/"] {
            assert!(!same_origin("http://h:1/mcp", other), "{other}");
        }
    }
}
