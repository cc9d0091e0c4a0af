//! What std's prelude gives and a `no_std` crate's does not: every module the default entry's
//! `no_std` wasm compiles takes `String`, `Vec`, `Box` and friends from here.

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;
