//! Protocol revision 2026-07-28: stateless requests. No `initialize` and no session: every
//! request carries `_meta` (the revision, this client's capabilities and identity) and the
//! `Mcp-Method` / `Mcp-Name` headers the server routes on; `server/discover` says which
//! revisions a server speaks. What decides a revision lives here; the session drives the I/O.

use crate::json;
use serde_json::Value;

/// The stateless revision.
pub const REVISION: &str = "2026-07-28";
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT: &str = "io.modelcontextprotocol/clientInfo";

/// A stateless request's body: JSON-RPC request `id` of `method` with `params` and their `_meta`
/// (a caller's own `_meta` keys first, then this client's revision, capabilities and identity),
/// written as it goes: no copy of `params` is built to add them. Elicitation is declared in both
/// modes: the client answers a server's questions by suspending the call for the host, and a
/// server asks nothing of a client that does not declare it (-32021).
pub fn request(id: u64, method: &str, params: &Value) -> String {
    let fields = params.as_object();
    let theirs = fields.and_then(|p| p.get("_meta")).and_then(Value::as_object);
    let mut out = String::new();
    json::write_obj(&mut out, |o| {
        o.str("jsonrpc", "2.0").u64("id", id).str("method", method).obj("params", |p| {
            for (k, v) in fields.into_iter().flatten().filter(|(k, _)| *k != "_meta") {
                p.value(k, v);
            }
            p.obj("_meta", |m| {
                let ours = [META_VERSION, META_CAPABILITIES, META_CLIENT];
                for (k, v) in theirs.into_iter().flatten().filter(|(k, _)| !ours.contains(&k.as_str())) {
                    m.value(k, v);
                }
                m.str(META_VERSION, REVISION);
                m.obj(META_CAPABILITIES, |c| {
                    c.obj("elicitation", |e| {
                        e.obj("form", |_| {}).obj("url", |_| {});
                    });
                });
                m.obj(META_CLIENT, |c| {
                    c.str("name", "toolnexus-wasm").str("version", env!("CARGO_PKG_VERSION"));
                });
            });
        });
    });
    out
}

/// The routing headers of one request: `Mcp-Method`, and `Mcp-Name` for a method that names
/// its target (a tool, a prompt, a resource).
pub fn headers(method: &str, params: &Value) -> Vec<(String, String)> {
    let mut h = vec![("mcp-method".to_string(), method.to_string())];
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return h,
    };
    if let Some(name) = params.get(key).and_then(Value::as_str) {
        h.push(("mcp-name".into(), name.into()));
    }
    h
}

/// Whether a `server/discover` result offers this revision. The SDK's exported "latest version"
/// constant lags behind what a server speaks, so only the listed versions count.
pub fn offers_revision(discovered: &Value) -> bool {
    let versions = discovered.get("supportedVersions").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    versions.iter().any(|v| v.as_str() == Some(REVISION))
}

/// How long a result may be reused (`ttlMs`, 0 when absent or not a positive number).
pub fn ttl_ms(result: &Value) -> f64 {
    result.get("ttlMs").and_then(Value::as_f64).filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0)
}

/// Whether a result asks for more input before it completes.
pub fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// The saved revision of a server entry (`source.protocol`), if it names one this client speaks.
pub fn saved_revision(source: &Value) -> Option<String> {
    let p = source.get("protocol")?.as_str()?;
    (p == REVISION || super::SUPPORTED.contains(&p)).then(|| p.to_string())
}

/// URL-safe base64 without padding: how the retry material rides in a suspension's id.
pub fn b64url(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..=c.len() {
            out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

pub fn b64url_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for c in s.as_bytes().chunks(4) {
        if c.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, b) in c.iter().enumerate() {
            n |= u32::from(val(*b)?) << (18 - 6 * i);
        }
        for i in 0..c.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}
