//! An MCP client (Streamable HTTP) as plain Rust that does no I/O: the JSON-RPC framing
//! (`rpc`), revision 2026-07-28's stateless requests (`stateless`) and multi round-trip
//! requests as suspensions (`input`), the session (`session`: discovery, then initialize for older servers, the session and protocol-version headers,
//! `tools/list` with cursors, `tools/call`, the closing DELETE), what a result means to the
//! model (`result`), the bearer challenge of a server that needs authorization (`auth`) and what
//! a host configures (`options`), and how a request goes out over `fetch` (`outgoing`: where the
//! token may go, origins, header values, redirects). The one async seam is [`McpTransport`]: the
//! wasm edge plugs in `fetch`, native tests a scripted server. Tokens never pass through here: the edge adds the
//! `Authorization` header itself, so no state, error or result of this module can hold one.

pub mod auth;
pub mod input;
pub mod legacy;
pub mod options;
pub mod outgoing;
pub mod result;
pub mod rpc;
pub mod session;
pub mod stateless;
pub mod transport;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_2026;

pub use options::McpOptions;
pub use result::McpTool;
pub use session::{McpClient, McpRequest, McpResponse, McpTransport};

/// The session revision this client asks `initialize` for; a server may answer with any of
/// [`SUPPORTED`]. Servers that offer it get the stateless revision ([`stateless::REVISION`]) instead.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
pub const SUPPORTED: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// Per request, as the reference client bounds each MCP exchange.
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;
/// A listing longer than this many pages is a server bug, not a catalogue.
pub const MAX_LIST_PAGES: usize = 1000;

/// Where `needle` first occurs in `hay`, by bytes: `str::find` with a string pattern links core's
/// substring searcher and its slice-error path (kilobytes of wasm); the texts searched here are short.
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    let n = needle.len();
    if n == 0 {
        return Some(0);
    }
    hay.as_bytes().windows(n).position(|w| w == needle.as_bytes())
}

/// JSON text to data, through the crate's one reader (`crate::json::parse`).
pub fn parse(bytes: &[u8]) -> Option<serde_json::Value> {
    crate::json::parse(core::str::from_utf8(bytes).ok()?).ok()
}
