//! Standard calls that can panic, each through one function: each call site of a
//! `#[track_caller]` function (`RefCell::borrow`, `Vec::insert`) compiles its own panic location
//! into the wasm (16 bytes, and the source file's path). Through these, every caller shares one.

use std::cell::{Ref, RefCell, RefMut};

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
