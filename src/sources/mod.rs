//! The tool sources, as plain Rust that does no I/O: `mcp` (an MCP client: sessions and the
//! stateless 2026-07-28 revision, results, questions and authorization as suspensions), `builtin`
//! (webfetch, question, todowrite), `skill` (skills as data), `a2a` (a remote agent's skills,
//! SendMessage then GetTask polling) and `http` (an HTTP endpoint as a tool, the reference's
//! `httpTool`). Each source's rules live in its file or folder.
//!
//! What they share sits beside them, never inside one of them: the one async seam
//! ([`transport::SourceTransport`], whose bodies are [`crate::http::ByteStream`]s), how a request
//! goes out over `fetch` (`outgoing`: where a token may go, origins, header values, redirects),
//! JSON-RPC 2.0 framing (`rpc`, MCP's and A2A's), the option readers (`options`) and text helpers
//! (`text`). The MCP entry's edge (`src/wasm_mcp/`) only carries values between them and the host.

pub mod a2a;
pub mod builtin;
pub mod http;
pub mod mcp;
pub mod options;
pub mod outgoing;
pub mod rpc;
pub mod skill;
pub mod text;
pub mod transport;
