//! A free list per small size class in front of the global allocator (talc). A run makes a few
//! hundred small allocations (strings, map entries, futures) and frees them again; talc at
//! opt-level z spends more on binning and coalescing each of those than the run's own work.
//! Here a freed small block is kept on its class's list and handed out again as is: a pop or
//! a push. Blocks are never given back to talc, so what the lists hold is bounded by the most
//! small blocks ever live at once (a long-lived worker does not grow from run to run).
//!
//! Only for wasm32 without threads: the lists are plain cells, not locked.

// `no_std` on wasm32: the default entry's wasm links no std at all.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_std)]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr::{copy_nonoverlapping, null_mut};

/// Class `c` holds blocks of `(c + 1) * STEP` bytes, aligned to `ALIGN`.
const STEP: usize = 16;
const CLASSES: usize = 32;
const ALIGN: usize = 8;

pub struct SmallCache<A> {
    inner: A,
    heads: UnsafeCell<[*mut u8; CLASSES]>,
}

// wasm32 without the atomics feature runs one thread: nothing shares the lists.
unsafe impl<A: Sync> Sync for SmallCache<A> {}

impl<A> SmallCache<A> {
    pub const fn new(inner: A) -> Self {
        SmallCache { inner, heads: UnsafeCell::new([null_mut(); CLASSES]) }
    }
}

#[inline(always)]
fn class(l: &Layout) -> Option<usize> {
    (l.size() != 0 && l.size() <= STEP * CLASSES && l.align() <= ALIGN).then(|| (l.size() - 1) / STEP)
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallCache<A> {
    #[inline(always)]
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let Some(c) = class(&l) else { return self.inner.alloc(l) };
        let head = &mut (*self.heads.get())[c];
        let p = *head;
        if p.is_null() {
            // A whole class-sized block, so that it can serve any size of its class later.
            return self.inner.alloc(Layout::from_size_align_unchecked((c + 1) * STEP, ALIGN));
        }
        *head = *(p as *mut *mut u8);
        p
    }

    #[inline(always)]
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let Some(c) = class(&l) else { return self.inner.dealloc(p, l) };
        let head = &mut (*self.heads.get())[c];
        *(p as *mut *mut u8) = *head;
        *head = p;
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let to = Layout::from_size_align_unchecked(new, l.align());
        match (class(&l), class(&to)) {
            (None, None) => self.inner.realloc(p, l, new),
            (Some(a), Some(b)) if a == b => p,
            _ => {
                let q = self.alloc(to);
                if !q.is_null() {
                    copy_nonoverlapping(p, q, l.size().min(new));
                    self.dealloc(p, l);
                }
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    fn fill(p: *mut u8, n: usize, v: u8) {
        unsafe { core::ptr::write_bytes(p, v, n) }
    }

    fn all(p: *mut u8, n: usize, v: u8) -> bool {
        (0..n).all(|i| unsafe { *p.add(i) } == v)
    }

    #[test]
    fn reuses_a_freed_block_of_the_same_class_and_keeps_bytes_across_reallocs() {
        let a = SmallCache::new(System);
        unsafe {
            let l = Layout::from_size_align(20, 4).unwrap();
            let p = a.alloc(l);
            assert!(!p.is_null() && p as usize % ALIGN == 0);
            fill(p, 20, 7);
            a.dealloc(p, l);
            // Same class (17..=32 bytes): the same block comes back, whatever the exact size.
            let l2 = Layout::from_size_align(32, 8).unwrap();
            let q = a.alloc(l2);
            assert_eq!(p, q);
            fill(q, 32, 1);
            // Growing within the class keeps the block; across classes moves the bytes.
            assert_eq!(a.realloc(q, l2, 30), q);
            let r = a.realloc(q, Layout::from_size_align(30, 8).unwrap(), 100);
            assert!(all(r, 30, 1));
            fill(r, 100, 2);
            // Small to large (talc's side) and back.
            let big = a.realloc(r, Layout::from_size_align(100, 8).unwrap(), 4096);
            assert!(all(big, 100, 2));
            fill(big, 4096, 3);
            let small = a.realloc(big, Layout::from_size_align(4096, 8).unwrap(), 8);
            assert!(all(small, 8, 3));
            a.dealloc(small, Layout::from_size_align(8, 8).unwrap());
            // Over-aligned and large requests go straight through.
            let o = Layout::from_size_align(16, 64).unwrap();
            let p = a.alloc(o);
            assert!(p as usize % 64 == 0);
            a.dealloc(p, o);
        }
    }

    #[test]
    fn live_blocks_never_overlap() {
        let a = SmallCache::new(System);
        let mut live = Vec::new();
        unsafe {
            for round in 0..3u8 {
                for n in [1usize, 8, 16, 17, 33, 64, 100, 128, 200, 511, 512, 513] {
                    let l = Layout::from_size_align(n, 1).unwrap();
                    let p = a.alloc(l);
                    fill(p, n, round.wrapping_mul(31).wrapping_add(n as u8));
                    live.push((p, l, round.wrapping_mul(31).wrapping_add(n as u8)));
                }
                for (p, l, v) in &live {
                    assert!(all(*p, l.size(), *v));
                }
                // Free every other block, so the next round reuses them.
                let mut keep = Vec::new();
                for (i, (p, l, v)) in live.drain(..).enumerate() {
                    if i % 2 == 0 {
                        a.dealloc(p, l);
                    } else {
                        keep.push((p, l, v));
                    }
                }
                live = keep;
            }
            for (p, l, _) in live {
                a.dealloc(p, l);
            }
        }
    }
}
