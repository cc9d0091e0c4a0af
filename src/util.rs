//! Small standard operations the wasm needs in one form. Calls that can panic, each through
//! one function: each call site of a `#[track_caller]` function (`RefCell::borrow`,
//! `Vec::insert`) compiles its own panic location into the wasm (16 bytes, and the source file's
//! path); through these, every caller shares one. And what std has and core lacks (the default
//! entry is `no_std`).

use crate::prelude::*;
use core::cell::{Ref, RefCell, RefMut};

pub(crate) fn read<T>(cell: &RefCell<T>) -> Ref<'_, T> {
    cell.borrow()
}

pub(crate) fn write<T>(cell: &RefCell<T>) -> RefMut<'_, T> {
    cell.borrow_mut()
}

/// `v.insert(at, x)`: `at` is at most `v.len()`.
pub(crate) fn insert<T>(v: &mut Vec<T>, at: usize, x: T) {
    v.insert(at, x);
}

/// A whole number (an infinity or NaN is not): `n % 1.0` is `fract`'s test, which is std's.
pub(crate) fn whole(n: f64) -> bool {
    n % 1.0 == 0.0
}
