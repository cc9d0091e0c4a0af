//! An MCP client (Streamable HTTP) as plain Rust that does no I/O: revision 2026-07-28's
//! stateless requests (`stateless`) and multi round-trip requests as suspensions (`input`), the
//! session (`session`: discovery, then initialize for older servers, the session and
//! protocol-version headers, `tools/list` with cursors, `tools/call`, the closing DELETE), the
//! legacy HTTP+SSE fallback (`legacy`), what a result means to the model (`result`), the bearer
//! challenge of a server that needs authorization (`auth`) and what a host configures
//! (`options`). The JSON-RPC framing, the transport seam and the rules of an outgoing request are
//! the sources' own (`crate::sources::{rpc, transport, outgoing}`), shared with A2A and
//! `httpTool`. Tokens never pass through here: the edge adds the `Authorization` header itself,
//! so no state, error or result of this module can hold one.

pub mod auth;
pub mod input;
pub mod legacy;
pub mod options;
pub mod result;
pub mod session;
pub mod stateless;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_2026;

pub use options::McpOptions;
pub use result::McpTool;
pub use session::McpClient;

/// The session revision this client asks `initialize` for; a server may answer with any of
/// [`SUPPORTED`]. Servers that offer it get the stateless revision ([`stateless::REVISION`]) instead.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
pub const SUPPORTED: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// Per request, as the reference client bounds each MCP exchange.
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;
/// A listing longer than this many pages is a server bug, not a catalogue.
pub const MAX_LIST_PAGES: usize = 1000;
