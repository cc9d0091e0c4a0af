//! Retries (contract §b.11, Part 1 rule 13): attempt counts, Retry-After, backoff, onError, and
//! failures that are never retried.

mod common;
use common::*;
use futures_util::future::LocalBoxFuture;
use std::cell::RefCell;
use toolnexus_wasm::driver::{drive, CallPolicy, Env, ErrorPolicy, Tier};
use toolnexus_wasm::provider::{HttpResponse, Style};
use toolnexus_wasm::retry::ErrorInfo;
use toolnexus_wasm::run::Run;
use toolnexus_wasm::tool::Toolkit;

struct Policy(Box<dyn Fn(&ErrorInfo) -> Tier>, RefCell<Vec<ErrorInfo>>);
impl ErrorPolicy for Policy {
    fn decide(&self, info: &ErrorInfo) -> LocalBoxFuture<'_, toolnexus_wasm::Result<Tier>> {
        self.1.borrow_mut().push(info.clone());
        let t = (self.0)(info);
        Box::pin(async move { Ok(t) })
    }
}

fn reply(status: u16, body: &str, retry_after: Option<&str>) -> HttpResponse {
    HttpResponse { status, body: body.into(), retry_after: retry_after.map(str::to_string) }
}

type Outcome = (toolnexus_wasm::Result<toolnexus_wasm::run::RunResult>, usize, Vec<f64>);

fn go(retries: u32, replies: Vec<HttpResponse>, policy: Option<&Policy>) -> Outcome {
    go_with(CallPolicy { retries, retry_base_ms: 100.0, ..CallPolicy::SINGLE }, replies, policy)
}

fn go_with(calls: CallPolicy, replies: Vec<HttpResponse>, policy: Option<&Policy>) -> Outcome {
    let p = Scripted::default();
    p.replies.borrow_mut().extend(replies);
    let sleeps = Sleeps::default();
    let ids = ids();
    let clock = tick();
    let half = || 0.5;
    let tools = Tools::default();
    let env = Env {
        sleep: Some(&sleeps),
        on_error: policy.map(|p| p as &dyn ErrorPolicy),
        random: &half,
        policy: &calls,
        ..Env::new(&p, &tools, &ids, &clock)
    };
    let (r, step) = Run::start(config(Style::OpenAi), Toolkit::default(), vec![], "x").unwrap();
    let out = futures_executor::block_on(drive(r, step, &env));
    let attempts = p.requests.borrow().len();
    let waits = sleeps.0.borrow().clone();
    (out, attempts, waits)
}

fn ok() -> HttpResponse {
    reply(200, &oa_text("fine").to_string(), None)
}

#[test]
fn the_wait_the_provider_asked_for_is_honoured_and_anything_unreadable_backs_off() {
    // The host gives the wait in milliseconds (it reads retry-after-ms, Retry-After seconds and dates).
    let (r, attempts, waits) = go(
        4,
        vec![
            reply(429, "slow", Some("2000")),
            reply(429, "slow", Some(" 0 ")),
            reply(503, "x", Some("250.5")),
            reply(429, "x", Some("soon")),
            ok(),
        ],
        None,
    );
    assert_eq!(r.unwrap().text, "fine");
    assert_eq!(attempts, 5);
    assert_eq!(waits, [2000.0, 0.0, 250.5, 100.0 * 8.0 + 50.0], "as asked, 0 included; unreadable: backoff");
}

#[test]
fn a_retry_after_beyond_the_cap_fails_at_once_unless_on_error_insists() {
    let (r, attempts, waits) = go(3, vec![reply(429, "quota", Some("61000")), ok()], None);
    let e = r.unwrap_err();
    assert_eq!((e.code(), e.status, attempts), ("provider_http", Some(429), 1), "the provider's error as it is");
    assert!(e.message.contains("quota") && waits.is_empty());
    // A day, and a number too large for any timer: the same.
    for far in ["86400000", "99999999999999999999"] {
        let (r, attempts, _) = go(3, vec![reply(503, "x", Some(far)), ok()], None);
        assert_eq!((r.unwrap_err().status, attempts), (Some(503), 1), "{far:?}");
    }
    // `onError` sees it as not retryable; a host that retries anyway waits the cap.
    let always = Policy(Box::new(|_| Tier::Retry), RefCell::default());
    let (r, attempts, waits) = go(3, vec![reply(429, "quota", Some("3600000")), ok()], Some(&always));
    assert!(r.is_ok() && attempts == 2);
    assert_eq!(waits, [60_000.0]);
    assert!(!always.1.borrow()[0].retryable);
    // `maxRetryAfterMs` moves the cap: 61 s is then honoured, and 0 refuses any wait.
    let (r, _, waits) = go_with(
        CallPolicy { retries: 1, max_retry_after_ms: 120_000.0, ..CallPolicy::SINGLE },
        vec![reply(429, "x", Some("61000")), ok()],
        None,
    );
    assert!(r.is_ok());
    assert_eq!(waits, [61_000.0]);
    let zero = CallPolicy { retries: 1, max_retry_after_ms: 0.0, ..CallPolicy::SINGLE };
    let (r, attempts, _) = go_with(zero.clone(), vec![reply(429, "x", Some("1000")), ok()], None);
    assert_eq!((r.is_err(), attempts), (true, 1));
    let (r, _, waits) = go_with(zero, vec![reply(429, "x", Some("0")), ok()], None);
    assert_eq!((r.is_ok(), waits), (true, vec![0.0]));
}

#[test]
fn a_redirect_is_refused_and_never_retried() {
    for status in [301, 302, 303, 307, 308] {
        let (r, attempts, waits) = go(3, vec![reply(status, "moved", Some("1")), ok()], None);
        let e = r.unwrap_err();
        assert_eq!((e.code(), e.status, attempts), ("provider_http", Some(status), 1), "{status}");
        assert!(e.message.contains("redirect refused") && waits.is_empty(), "{}", e.message);
    }
}

#[test]
fn a_storm_of_503_stops_after_retries_plus_one_attempts() {
    let (r, attempts, waits) = go(2, (0..5).map(|_| reply(503, "overloaded", None)).collect(), None);
    let e = r.unwrap_err();
    assert_eq!((e.code(), e.status), ("provider_http", Some(503)));
    assert_eq!(attempts, 3);
    assert_eq!(waits, vec![150.0, 250.0], "100·2^n + jitter 50");
    let (r, attempts, _) = go(0, vec![reply(503, "x", None), ok()], None);
    assert!(r.is_err());
    assert_eq!(attempts, 1, "retries: 0 means no retry");
}

#[test]
fn every_retryable_status_is_retried_and_others_are_not() {
    for status in [429, 500, 502, 503, 504, 529] {
        let (r, attempts, _) = go(1, vec![reply(status, "x", None), ok()], None);
        assert!(r.is_ok(), "{status}");
        assert_eq!(attempts, 2, "{status}");
    }
    for status in [400, 401, 403, 404, 501] {
        let (r, attempts, _) = go(3, vec![reply(status, "x", None), ok()], None);
        assert_eq!(r.unwrap_err().status, Some(status));
        assert_eq!(attempts, 1, "{status} is not retried");
    }
    // a body that is not JSON on a 200 is not retried either
    let (r, attempts, _) = go(3, vec![reply(200, "<html>", None), ok()], None);
    assert_eq!((r.unwrap_err().code(), attempts), ("provider_parse", 1));
}

#[test]
fn on_error_decides_within_the_budget() {
    let always = Policy(Box::new(|_| Tier::Retry), RefCell::default());
    let (r, attempts, _) = go(2, vec![reply(400, "bad", None), reply(400, "bad", None), reply(400, "bad", None), ok()], Some(&always));
    assert!(r.is_err(), "a retry never exceeds the budget");
    assert_eq!(attempts, 3);
    let infos = always.1.borrow();
    assert_eq!(infos.iter().map(|i| i.attempt).collect::<Vec<_>>(), [0, 1, 2]);
    assert!(!infos[0].retryable && infos[0].status == Some(400));
    let never = Policy(Box::new(|_| Tier::Fail), RefCell::default());
    let (r, attempts, _) = go(5, vec![reply(503, "x", None), ok()], Some(&never));
    assert!(r.is_err());
    assert_eq!(attempts, 1);
}
