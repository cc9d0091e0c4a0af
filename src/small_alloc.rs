//! A free list per small size class in front of the global allocator (talc). A run makes a few
//! hundred small allocations (strings, map entries, futures) and frees them again; talc at
//! opt-level z spends more on binning and coalescing each of those than the run's own work.
//! Here a freed small block is kept on its class's list and handed out again as is: a pop or
//! a push. Blocks are never given back to talc, so what the lists hold is bounded by the most
//! small blocks ever live at once (a long-lived worker does not grow from run to run).
//!
//! Only for wasm32 without threads: the lists are plain cells, not locked.

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

fn class(l: &Layout) -> Option<usize> {
    (l.size() != 0 && l.size() <= STEP * CLASSES && l.align() <= ALIGN).then(|| (l.size() - 1) / STEP)
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallCache<A> {
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
