//! toolnexus-wasm: the toolnexus agent loop (relay tools, `waitFor`, durable halt and resume)
//! as a pure-Rust core that does no I/O, plus a thin wasm-bindgen edge (`src/wasm/`, compiled
//! only for wasm32) that plugs in `fetch` and JS tool functions.
//!
//! Core layout: `message` (the neutral transcript) and `part` (its text and image parts), `style` (which wire format a client speaks),
//! `provider` (pure adapters, one folder per provider: `provider/openai/`, `provider/anthropic/`,
//! `provider/gemini/`, each holding its transcript view, history reader, request builder, reply
//! parser, stream events and quirks; the shared HTTP handling and stream assembler beside them),
//! `dialect` (render a transcript in a style, read a history in any dialect), `tool` + `suspend`
//! (declarations, results, Request/Answer, relay), `run` (the state machine), `driver` (the one
//! async loop over the transport and tool seams), `conversation` (the rules of a stored
//! conversation), `session` (one client operation over them: the facade the wasm edge calls),
//! `state` (versioned resume state), `error` (stable codes).
//!
//! The default entry's wasm is `no_std` (alloc only). std's panic machinery (its hook, its
//! counters, the formatting of every panic's message into a payload) is dead weight
//! (docs/decisions/small-std.md) for a panic that ends in a trap either way: with `panic = "abort"` std's handler
//! aborts, which on this target is the `unreachable` the handler below executes. Every module
//! the entry compiles takes `String`, `Vec`, `Box` and friends from [`prelude`]. The MCP entry,
//! the wasm tests (feature `std`) and native builds link std as before.
#![cfg_attr(all(target_arch = "wasm32", not(feature = "std"), not(feature = "mcp")), no_std)]

#[macro_use]
extern crate alloc;

/// What std's prelude gives and a `no_std` crate's does not (its own file, below every module
/// that takes it).
#[allow(unused_imports)]
pub(crate) mod prelude;

#[cfg(all(target_arch = "wasm32", not(feature = "std"), not(feature = "mcp")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

pub mod conversation;
pub mod declare;
pub mod dialect;
pub mod driver;
pub mod error;
pub mod events;
pub mod hooks;
pub mod http;
pub mod json;
pub mod json_hooks;
pub mod message;
pub mod metrics;
pub mod ops;
pub mod options;
pub mod part;
pub mod provider;
pub mod retry;
pub mod run;
pub mod session;
mod small;
// The tool sources (MCP among them) are not in the loop's wasm at all: merely compiling MCP there
// shifted LLVM's inlining choices for shared helpers (docs/decisions/small-std.md), though nothing of it was linked.
#[cfg(any(not(target_arch = "wasm32"), feature = "mcp"))]
pub mod sources;
pub mod sse;
pub mod state;
pub mod style;
pub mod suspend;
pub mod tool;
pub mod translate;

/// The JS API (wasm32 only). Public so `tests/wasm.rs` can drive the exports directly.
#[cfg(all(target_arch = "wasm32", not(feature = "mcp")))]
#[doc(hidden)]
pub mod wasm;

/// The MCP entry's JS API: with the `mcp` feature the crate builds the second, separately
/// importable wasm (`toolnexus-wasm/mcp`) instead of the loop's.
#[cfg(all(target_arch = "wasm32", feature = "mcp"))]
#[doc(hidden)]
pub mod wasm_mcp;

/// What both edges share: JS ⇄ Rust conversions, error mapping, the host.js bindings both call.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod edge;

pub use error::{Code, Error, Result};

/// talc instead of std's dlmalloc on wasm32: a real free-list allocator (memory is reused, so a
/// long-lived service worker does not grow), and smaller (docs/decisions/small-std.md).
/// Small blocks go through a free list per size class first (`crates/small-alloc`).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: toolnexus_small_alloc::SmallCache<talc::wasm::WasmDynamicTalc> =
    toolnexus_small_alloc::SmallCache::new(talc::wasm::new_wasm_dynamic_allocator());
