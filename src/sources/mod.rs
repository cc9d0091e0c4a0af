//! The tool sources, as plain Rust that does no I/O: `mcp` (an MCP client: JSON-RPC framing,
//! sessions and the stateless 2026-07-28 revision, results, questions and authorization as
//! suspensions), `builtin` (webfetch, question, todowrite), `skill` (skills as data), `a2a` (a
//! remote agent's skills, SendMessage then GetTask polling) and `http` (an HTTP endpoint as a
//! tool, the reference's `httpTool`). Each source's rules live here; the MCP entry's edge
//! (`src/wasm/mcp.rs` for MCP, `mcp_auth.rs` for its authorization, `mcp_sources.rs` for the
//! others) only carries values between them and the host.

pub mod a2a;
pub mod builtin;
pub mod http;
pub mod mcp;
pub mod skill;
