//! Retry delays stay within what a host timer honours (`setTimeout` fires at once beyond
//! 2^31 - 1 ms), whatever the base and the attempt.

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use toolnexus_wasm::driver::{drive, CallPolicy, Env};
use toolnexus_wasm::options::MAX_TIMER_MS;
use toolnexus_wasm::provider::{HttpResponse, Style};
use toolnexus_wasm::run::Run;
use toolnexus_wasm::tool::Toolkit;

#[test]
fn computed_retry_delays_are_clamped_to_the_timer_range() {
    let p = Scripted::default();
    let fail = || HttpResponse { status: 503, body: "x".into(), retry_after: None };
    p.replies.borrow_mut().extend([
        fail(),
        fail(),
        fail(),
        HttpResponse { status: 200, body: oa_text("fine").to_string(), retry_after: None },
    ]);
    let (sleeps, ids, clock, tools) = (Sleeps::default(), ids(), tick(), Tools::default());
    let half = || 0.5;
    let calls = CallPolicy { retries: 3, retry_base_ms: MAX_TIMER_MS, ..CallPolicy::SINGLE };
    let env = Env { sleep: Some(&sleeps), random: &half, policy: &calls, ..Env::new(&p, &tools, &ids, &clock) };
    let (r, step) = Run::start(config(Style::OpenAi), Toolkit::default(), vec![], "x").unwrap();
    assert_eq!(futures_executor::block_on(drive(r, step, &env)).unwrap().text, "fine");
    assert_eq!(*sleeps.0.borrow(), vec![MAX_TIMER_MS; 3], "base · 2^n + jitter, clamped");
}

/// A transport whose call is cut by the abort: it fails the way a host's fetch does (a transport
/// error) and marks the run aborted by its deadline.
struct CutByAbort<'a>(&'a std::cell::Cell<bool>);
impl toolnexus_wasm::driver::Transport for CutByAbort<'_> {
    fn send<'a>(&'a self, _: &'a toolnexus_wasm::provider::HttpRequest) -> LocalBoxFuture<'a, toolnexus_wasm::Result<HttpResponse>> {
        self.0.set(true);
        Box::pin(async { Err(toolnexus_wasm::Error::new(toolnexus_wasm::Code::Transport, "fetch failed: AbortError")) })
    }
}

struct Deadline<'a>(&'a std::cell::Cell<bool>);
impl toolnexus_wasm::driver::Abort for Deadline<'_> {
    fn aborted(&self) -> Option<toolnexus_wasm::Error> {
        self.0.get().then(|| toolnexus_wasm::driver::aborted(true, Some(5.0)))
    }
    fn wait(&self) -> LocalBoxFuture<'_, toolnexus_wasm::Error> {
        Box::pin(futures_util::future::pending())
    }
}

#[test]
fn work_that_failed_because_the_run_was_aborted_reports_the_abort() {
    let fired = std::cell::Cell::new(false);
    let (t, ids, clock, tools) = (CutByAbort(&fired), ids(), tick(), Tools::default());
    let calls = CallPolicy { retries: 3, ..CallPolicy::SINGLE };
    let env = Env { abort: Some(&Deadline(&fired)), policy: &calls, ..Env::new(&t, &tools, &ids, &clock) };
    let (r, step) = Run::start(config(Style::OpenAi), Toolkit::default(), vec![], "x").unwrap();
    let e = futures_executor::block_on(drive(r, step, &env)).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("aborted", "run timeout after 5ms"));
}
