//! Tool sources beside MCP that need only `fetch`, as plain Rust that does no I/O: `builtin`
//! (webfetch, question, todowrite), `skill` (skills as data), `a2a` (a remote agent's skills,
//! SendMessage then GetTask polling) and `http` (an HTTP endpoint as a tool, the reference's
//! `httpTool`). The wasm edge of the MCP entry runs them.

pub mod a2a;
pub mod builtin;
pub mod http;
pub mod skill;
