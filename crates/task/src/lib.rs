//! An executor for wasm32 hosts: each operation is one task, polled in place when a host promise
//! it awaits settles. toolnexus-wasm's two entries run every operation on it, in place of
//! wasm-bindgen-futures.
//!
//! wasm-bindgen-futures pays per await two wasm-bindgen closures (each registered with a
//! `FinalizationRegistry`, then destroyed), a `then`, and a second microtask to poll the task
//! from its queue; a run awaits four host calls or more. Here one JS arrow pair per await reports
//! into a slot (`settleInto` in host.js calls the export `settled`), and the task is polled
//! right there, with no other wasm frame on the stack.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
use wasm_bindgen::prelude::*;

// The only JS it needs, inlined into the package as a snippet of its own.
#[wasm_bindgen(inline_js = "
export function settleInto(p, slot, report) {
  p.then((v) => report(slot, true, v), (e) => report(slot, false, e));
}
export function deferred() {
  let a, b;
  const p = new Promise((x, y) => ((a = x), (b = y)));
  return [p, a, b];
}
")]
extern "C" {
    /// Reports the outcome of `p` to `report(slot, ok, value)` (`settled` below) when it settles.
    /// `p` must be a native promise (a host's value is wrapped by the caller first): its `then`
    /// is called as it is.
    #[wasm_bindgen(js_name = settleInto)]
    fn settle_into(p: &JsValue, slot: u32, report: &JsValue);
    /// `[promise, resolve, reject]`.
    fn deferred() -> js_sys::Array;
}

enum Slot {
    Free,
    Waiting(Option<Waker>),
    Done(bool, JsValue),
    /// Its future was dropped (an aborted run): the promise's report only frees it.
    Dropped,
}

thread_local! {
    static SLOTS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
    /// Tasks woken while another task was being polled, polled once it returns.
    static LATER: RefCell<Vec<Rc<Task>>> = const { RefCell::new(Vec::new()) };
    static POLLING: Cell<bool> = const { Cell::new(false) };
    /// `settled` as one JS function for the life of the instance (not a closure per await).
    static REPORT: Closure<dyn Fn(u32, bool, JsValue)> = Closure::new(settled);
}

/// A host promise awaited by the edge: `Ok` with its value, `Err` with what it rejected with.
/// Holds its slot until it has taken the outcome (`None` after): a slot is reused only once
/// free, so no other await can ever see this one's.
pub struct Settle(Option<u32>);

/// Awaits `p`, a native Promise (see `settle_into`).
pub fn settle(p: &JsValue) -> Settle {
    let slot = SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        let i = s.iter().position(|x| matches!(x, Slot::Free)).unwrap_or(s.len());
        match s.get_mut(i) {
            Some(x) => *x = Slot::Waiting(None),
            None => s.push(Slot::Waiting(None)),
        }
        i as u32
    });
    REPORT.with(|r| settle_into(p, slot, r.as_ref()));
    Settle(Some(slot))
}

/// Puts `new` in `slot` and hands back what was there, to be dropped once the table is no
/// longer borrowed: dropping a waker may drop a task, and with it other `Settle`s.
fn swap(slot: u32, new: Slot) -> Slot {
    SLOTS.with(|s| s.borrow_mut().get_mut(slot as usize).map_or(Slot::Free, |x| std::mem::replace(x, new)))
}

impl Future for Settle {
    type Output = Result<JsValue, JsValue>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let Some(slot) = this.0 else { return Poll::Ready(Err(JsValue::UNDEFINED)) };
        match swap(slot, Slot::Free) {
            Slot::Done(ok, v) => {
                this.0 = None;
                Poll::Ready(if ok { Ok(v) } else { Err(v) })
            }
            _old => {
                swap(slot, Slot::Waiting(Some(cx.waker().clone())));
                Poll::Pending
            }
        }
    }
}

impl Drop for Settle {
    /// Before its promise settled (an aborted run): the report only frees the slot. After (a
    /// `select` that took the other branch): the outcome is dropped and the slot freed.
    fn drop(&mut self) {
        if let Some(slot) = self.0 {
            if let Slot::Done(..) = swap(slot, Slot::Dropped) {
                swap(slot, Slot::Free);
            }
        }
    }
}

/// Called from the inline snippet when the promise of `slot` settles, with no other wasm frame
/// on the stack.
fn settled(slot: u32, ok: bool, value: JsValue) {
    // Nothing is being polled here, ever. Were `POLLING` still set, a JS exception thrown through
    // a poll left it so (no Rust code runs while a throw unwinds the wasm): that one operation is
    // lost, but the next ones must still run.
    POLLING.with(|p| p.set(false));
    match swap(slot, Slot::Done(ok, value)) {
        Slot::Waiting(Some(w)) => w.wake(),
        Slot::Waiting(None) => {}
        // Its future is gone: nothing will take the outcome.
        _ => drop(swap(slot, Slot::Free)),
    }
}

type Boxed = Pin<Box<dyn Future<Output = ()>>>;

struct Task {
    fut: RefCell<Option<Boxed>>,
    /// Woken while it was being polled: poll it again before returning.
    again: Cell<bool>,
    running: Cell<bool>,
}

/// Runs `fut` to completion, starting now.
pub fn spawn(fut: impl Future<Output = ()> + 'static) {
    run(Rc::new(Task { fut: RefCell::new(Some(Box::pin(fut))), again: Cell::new(false), running: Cell::new(false) }));
}

/// A JS Promise of what `fut` gives.
pub fn promise(fut: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> js_sys::Promise {
    let d = deferred();
    let (resolve, reject) = (d.get(1), d.get(2));
    spawn(async move {
        let (f, v) = match fut.await {
            Ok(v) => (resolve, v),
            Err(e) => (reject, e),
        };
        let _ = js_sys::Function::from(f).call1(&JsValue::UNDEFINED, &v);
    });
    d.get(0).unchecked_into()
}

fn run(task: Rc<Task>) {
    if task.running.get() {
        task.again.set(true);
        return;
    }
    // Inside another task's poll: that one may hold borrows this one needs; it goes next.
    if POLLING.with(|p| p.replace(true)) {
        LATER.with(|l| l.borrow_mut().push(task));
        return;
    }
    let mut next = Some(task);
    while let Some(task) = next {
        task.running.set(true);
        loop {
            let waker = waker_of(&task);
            let mut slot = task.fut.borrow_mut();
            if let Some(f) = slot.as_mut() {
                if f.as_mut().poll(&mut Context::from_waker(&waker)).is_ready() {
                    *slot = None;
                }
            }
            drop(slot);
            if !task.again.replace(false) {
                break;
            }
        }
        task.running.set(false);
        // Let go of it before looking for the next: if this was the last reference to a task
        // still pending (nothing holds its waker), its future is dropped here, and whatever that
        // drop wakes goes to `LATER` and must be found.
        drop(task);
        next = LATER.with(|l| l.borrow_mut().pop());
    }
    POLLING.with(|p| p.set(false));
}

// A waker is an `Rc<Task>`: everything runs on one thread.
const VTABLE: RawWakerVTable = RawWakerVTable::new(clone_raw, wake_raw, wake_by_ref_raw, drop_raw);

fn raw(task: Rc<Task>) -> RawWaker {
    RawWaker::new(Rc::into_raw(task) as *const (), &VTABLE)
}

fn waker_of(task: &Rc<Task>) -> Waker {
    // SAFETY: the vtable's functions treat the pointer as the `Rc<Task>` made by `raw`.
    unsafe { Waker::from_raw(raw(task.clone())) }
}

unsafe fn clone_raw(p: *const ()) -> RawWaker {
    let task = std::mem::ManuallyDrop::new(Rc::from_raw(p as *const Task));
    raw(Rc::clone(&task))
}

unsafe fn wake_raw(p: *const ()) {
    run(Rc::from_raw(p as *const Task));
}

unsafe fn wake_by_ref_raw(p: *const ()) {
    let task = std::mem::ManuallyDrop::new(Rc::from_raw(p as *const Task));
    run(Rc::clone(&task));
}

unsafe fn drop_raw(p: *const ()) {
    drop(Rc::from_raw(p as *const Task));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets `flag` and wakes whoever waits for it when dropped.
    struct Guard(Rc<Cell<bool>>, Rc<RefCell<Option<Waker>>>);

    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.set(true);
            if let Some(w) = self.1.borrow_mut().take() {
                w.wake();
            }
        }
    }

    /// A task dropped by the executor while still pending (nothing holds its waker: it can never
    /// be woken) drops its future; a task that future's drop wakes is polled, not left in
    /// `LATER` until some unrelated wake-up runs the executor again.
    #[test]
    fn a_wake_from_a_dropped_task_is_not_lost() {
        let (flag, waker) = (Rc::new(Cell::new(false)), Rc::new(RefCell::new(None::<Waker>)));
        let done = Rc::new(Cell::new(false));
        let (f, w, d) = (flag.clone(), waker.clone(), done.clone());
        spawn(async move {
            std::future::poll_fn(|cx| match f.get() {
                true => Poll::Ready(()),
                false => {
                    *w.borrow_mut() = Some(cx.waker().clone());
                    Poll::Pending
                }
            })
            .await;
            d.set(true);
        });
        assert!(!done.get());
        let guard = Guard(flag, waker);
        spawn(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        });
        assert!(done.get(), "the woken task was never polled");
        assert!(LATER.with(|l| l.borrow().is_empty()));
    }
}
