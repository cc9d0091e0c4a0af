//! The bodies of the fuzz targets, as plain functions over bytes. Each `fuzz_targets/<name>.rs`
//! is a one-line `fuzz_target!` over the function of the same name here, and the main crate's
//! `tests/fuzz_replay.rs` runs every file of `corpus/<name>/` and `artifacts/<name>/` through the
//! same function under stable `cargo test`, so a reproducer is a regression test the moment it
//! is committed. A function returns normally on any input the core handles correctly and panics
//! (with a message saying which invariant broke) otherwise.

mod adapter;
mod chunks;
mod docs;
mod json;
mod providers;
mod run_loop;
mod sse;

pub use docs::{conversation, dialect, state};
pub use json::json;
pub use providers::{
    reply_anthropic, reply_gemini, reply_openai, reply_responses, stream_anthropic, stream_gemini, stream_openai, stream_responses,
};
pub use run_loop::run_loop;
pub use sse::sse;

/// A target body: returns on input the core handles correctly, panics otherwise.
pub type Target = fn(&[u8]);

/// Every target by name, as `fuzz_targets/<name>.rs` and `corpus/<name>/` spell it.
pub const TARGETS: &[(&str, Target)] = &[
    ("sse", sse),
    ("reply_openai", reply_openai),
    ("reply_anthropic", reply_anthropic),
    ("reply_gemini", reply_gemini),
    ("reply_responses", reply_responses),
    ("stream_openai", stream_openai),
    ("stream_anthropic", stream_anthropic),
    ("stream_gemini", stream_gemini),
    ("stream_responses", stream_responses),
    ("dialect", dialect),
    ("state", state),
    ("conversation", conversation),
    ("run_loop", run_loop),
    ("json", json),
];
