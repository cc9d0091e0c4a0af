//! The one error type of the crate. Every failure carries a stable `code` that JS callers can
//! branch on (`err.code === "answer_mismatch"`); the message is for people. Tool failures and
//! suspensions are *not* errors: they are results fed back to the model.
//!
//! Messages never contain an API key: provider bodies are capped and scrubbed in
//! [`Error::provider_http`], and nothing else in the crate ever formats a key.

use crate::prelude::*;
use core::fmt;

/// Stable error codes. Adding a variant is fine; renaming one breaks users.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Options, tools or arguments given to the API are invalid.
    BadInput,
    /// The provider answered with a non-2xx status (after retries).
    ProviderHttp,
    /// The provider body is not the JSON we expect (non-JSON, truncated, missing fields).
    ProviderParse,
    /// The provider answered 200 with an error object in the body.
    ProviderError,
    /// `fetch` itself failed (network error, refused connection, bad fetch option).
    Transport,
    /// `runWithAnswer`: the answer does not echo `pending.id`.
    AnswerMismatch,
    /// A saved state or history that cannot be resumed (corrupt, unknown version, no halted turn).
    BadState,
    /// A relay tool is named after a builtin.
    RelayCollision,
    /// The host's `waitFor` or a hook threw or rejected; the run stops.
    HostCallback,
    /// The run was aborted by a signal or timeout.
    Aborted,
    /// A conversation store failed to get, save or delete.
    Store,
    /// `ask` on a conversation that is halted on a pending request.
    ConversationHalted,
    /// A store refused a save based on a state that is no longer the newest.
    Conflict,
    /// An invariant of this crate broke. Reported instead of panicking.
    Internal,
    /// A model reply's body is longer than `maxResponseBytes`; it is not retried.
    ResponseTooLarge,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::BadInput => "bad_input",
            Code::ProviderHttp => "provider_http",
            Code::ProviderParse => "provider_parse",
            Code::ProviderError => "provider_error",
            Code::Transport => "transport",
            Code::AnswerMismatch => "answer_mismatch",
            Code::BadState => "bad_state",
            Code::RelayCollision => "relay_collision",
            Code::HostCallback => "host_callback",
            Code::Aborted => "aborted",
            Code::Store => "store",
            Code::ConversationHalted => "conversation_halted",
            Code::Conflict => "conflict",
            Code::Internal => "internal",
            Code::ResponseTooLarge => "response_too_large",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub code: Code,
    pub message: String,
    /// HTTP status for `provider_http`.
    pub status: Option<u16>,
}

pub type Result<T> = core::result::Result<T, Error>;

/// What browsers say for any fetch refused below HTTP (see [`Error::is_browser_fetch_failure`]).
const BROWSER_FETCH_TEXTS: [&str; 3] = ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"];

/// Said after a browser's opaque fetch failure, which is not retried.
pub const BROWSER_FETCH_HINT: &str =
    "; in a browser this is CORS (the API refuses this origin), host_permissions (an extension's manifest must list the API's origin) or being offline; not retried";

/// Provider bodies in error messages are capped at this many characters.
pub const BODY_CAP: usize = 200;

impl Error {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Error { code, message: message.into(), status: None }
    }
    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::new(Code::BadInput, message)
    }
    pub fn bad_state(message: impl Into<String>) -> Self {
        Self::new(Code::BadState, message)
    }
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(Code::ProviderParse, message)
    }
    /// The state moved on under this writer or answer (another context saved or resumed first).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(Code::Conflict, message)
    }
    /// What a host threw (its `name`, its `code` property and its message) as an error of this
    /// crate: an abort stays an abort, a store's `conflict` keeps its code (the caller must see
    /// `conflict`, not a store failure), and so does `bad_state` (a state the host refuses to hand
    /// over: a signing client's store reading a forged one); anything else is `code` with
    /// `context`.
    pub fn thrown(name: Option<&str>, thrown_code: Option<&str>, message: impl FnOnce() -> String, code: Code, context: &str) -> Self {
        match (name, thrown_code) {
            (Some("AbortError" | "TimeoutError"), _) => Error::new(Code::Aborted, format!("{context}: aborted")),
            (_, Some("conflict")) => Error::conflict(message()),
            (_, Some("bad_state")) => Error::bad_state(message()),
            _ => {
                // "fetch failed" under the context "fetch failed" says it once.
                let m = message();
                Error::new(code, if m.starts_with(context) { m } else { format!("{context}: {m}") })
            }
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Code::Internal, message)
    }

    /// `LLM <status>: <body>` with the body capped at [`BODY_CAP`] characters and any occurrence
    /// of `secret` replaced. For 401/403 the body is dropped entirely (those echo credentials)
    /// and a fixed hint that holds no key takes its place: what to check, and whether a key was
    /// given at all (`secret` is the client's `apiKey`).
    pub fn provider_http(status: u16, body: &str, secret: Option<&str>) -> Self {
        let mut message = String::from("LLM ");
        toolnexus_json::write_u64(&mut message, u64::from(status));
        message.push_str(": ");
        if status == 401 || status == 403 {
            message.push_str(match (secret.is_some_and(|k| !k.is_empty()), status) {
                // Ollama and LM Studio refuse an origin they were not told to allow with a 403.
                (false, 403) => "no apiKey was given; a local server refuses an origin it was not told to allow: OLLAMA_ORIGINS=chrome-extension://* (Ollama), CORS on (LM Studio)",
                (false, _) => "no apiKey was given: set createClient({ apiKey }), or the auth header in headers",
                (true, 401) => "check apiKey: the provider did not accept it",
                (true, _) => "check apiKey: the provider accepted it but refused this request (the model, project or region it may use)",
            });
            message.push_str(" (the provider's reply is withheld: it can echo a key)");
        } else {
            message.push_str(&redact(&error_detail(body).unwrap_or_else(|| body.to_string()), secret));
        }
        Error { code: Code::ProviderHttp, message, status: Some(status) }
    }

    /// A failed attempt's error after `attempts` attempts: the count is said once retries ran.
    pub fn after_attempts(mut self, attempts: u32) -> Self {
        if attempts > 1 {
            self.message.push_str(" (after ");
            toolnexus_json::write_u64(&mut self.message, u64::from(attempts));
            self.message.push_str(" attempts)");
        }
        self
    }

    /// A fetch that failed the way browsers report every network-level refusal, with one opaque
    /// text and no cause: `TypeError: Failed to fetch` (Chromium), `NetworkError when attempting
    /// to fetch resource.` (Firefox), `Load failed` (Safari). A CORS refusal, a missing
    /// `host_permissions` entry and being offline all read so; retrying changes none of them.
    /// (Node's `fetch failed` carries its cause, ECONNREFUSED and the like, and is retried.)
    pub fn is_browser_fetch_failure(&self) -> bool {
        self.code == Code::Transport && self.message.ends_with(BROWSER_FETCH_HINT)
    }

    /// A transport error from the host's fetch, with the browser hint when it is the opaque
    /// failure (see [`Error::is_browser_fetch_failure`]).
    pub fn fetch_failure(mut self) -> Self {
        let text = self.message.strip_prefix("fetch failed: ").unwrap_or(&self.message);
        if self.code == Code::Transport && BROWSER_FETCH_TEXTS.contains(&text) {
            self.message.push_str(BROWSER_FETCH_HINT);
        }
        self
    }

    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }
}

/// The provider's own words from a JSON error body, so the cap keeps what matters: every
/// provider sends `{ error: { message, ... } }` (Anthropic inside `{ type: "error", ... }`).
/// `None` when the body is not that shape; the body is used as it is.
fn error_detail(body: &str) -> Option<String> {
    let v = toolnexus_json::parse(body).ok()?;
    v.get("error")?.get("message")?.as_str().map(str::to_string)
}

/// Caps `text` at [`BODY_CAP`] characters and removes `secret` from it. The secret is removed
/// before capping so a key cut in half by the cap cannot leak its first part.
pub fn redact(text: &str, secret: Option<&str>) -> String {
    let s = match secret.filter(|k| k.len() >= 4) {
        Some(k) => crate::small::replace_all(text.trim(), k, "[redacted]"),
        None => text.trim().to_string(),
    };
    // One walk to the byte offset of character BODY_CAP (if there are more), instead of
    // counting every character first.
    // The cut is a character boundary (from `char_indices`).
    if let Some((cut, _)) = s.char_indices().nth(BODY_CAP) {
        let mut capped = String::from(s.get(..cut).unwrap_or_default());
        capped.push('…');
        return capped;
    }
    s
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

// std's trait (core's is Rust 1.81+, past the crate's 1.80); the no_std default entry needs none.
#[cfg(any(not(target_arch = "wasm32"), feature = "std", feature = "mcp"))]
impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_errors_cap_the_body_and_never_show_the_key() {
        let key = "sk-secret-123456";
        let body = format!("{{\"error\":\"bad key {key}\"}}{}", "x".repeat(500));
        let e = Error::provider_http(400, &body, Some(key));
        assert_eq!(e.code(), "provider_http");
        assert!(!e.message.contains(key));
        assert!(e.message.contains("[redacted]"));
        assert!(e.message.chars().count() <= "LLM 400: ".len() + BODY_CAP + 1);
        let withheld = " (the provider's reply is withheld: it can echo a key)";
        assert_eq!(
            Error::provider_http(401, key, Some(key)).message,
            format!("LLM 401: check apiKey: the provider did not accept it{withheld}")
        );
        assert_eq!(
            Error::provider_http(403, key, Some(key)).message,
            format!("LLM 403: check apiKey: the provider accepted it but refused this request (the model, project or region it may use){withheld}")
        );
        for none in [None, Some("")] {
            assert_eq!(
                Error::provider_http(401, "x", none).message,
                format!("LLM 401: no apiKey was given: set createClient({{ apiKey }}), or the auth header in headers{withheld}")
            );
            // A keyless 403 is what Ollama and LM Studio answer an origin they do not allow.
            let m = Error::provider_http(403, "Forbidden", none).message;
            assert!(m.contains("OLLAMA_ORIGINS=chrome-extension://*") && m.contains("LM Studio"), "{m}");
        }
        // As `str::replace`: every occurrence, left to right, multi-byte text around it kept.
        assert_eq!(redact("é abcdabcd é abc", Some("abcd")), "é [redacted][redacted] é abc");
        assert_eq!(redact("aaaaa", Some("aaaa")), "[redacted]a");
    }

    #[test]
    fn browser_fetch_failures_say_why_and_retries_are_counted() {
        for text in BROWSER_FETCH_TEXTS {
            let e = Error::new(Code::Transport, format!("fetch failed: {text}")).fetch_failure();
            assert!(e.is_browser_fetch_failure() && e.message == format!("fetch failed: {text}{BROWSER_FETCH_HINT}"), "{e:?}");
        }
        for other in ["fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)", "fetch failed: redirect refused"] {
            let e = Error::new(Code::Transport, other).fetch_failure();
            assert!(!e.is_browser_fetch_failure() && e.message == other);
        }
        assert!(!Error::new(Code::Store, "fetch failed: Failed to fetch").fetch_failure().is_browser_fetch_failure());
        assert_eq!(Error::bad_input("x").after_attempts(1).message, "x");
        assert_eq!(Error::bad_input("x").after_attempts(3).message, "x (after 3 attempts)");
    }

    #[test]
    fn what_a_host_threw_keeps_an_abort_a_conflict_and_a_bad_state() {
        let thrown = |name, code| Error::thrown(name, code, || "it broke".into(), Code::Store, "store.save failed");
        for name in ["AbortError", "TimeoutError"] {
            let e = thrown(Some(name), Some("conflict"));
            assert_eq!((e.code, e.message.as_str()), (Code::Aborted, "store.save failed: aborted"));
        }
        let e = thrown(Some("ToolnexusError"), Some("conflict"));
        assert_eq!((e.code, e.message.as_str()), (Code::Conflict, "it broke"), "a refused save stays a conflict");
        let e = thrown(Some("ToolnexusError"), Some("bad_state"));
        assert_eq!((e.code, e.message.as_str()), (Code::BadState, "it broke"), "a refused state stays bad_state");
        let e = thrown(Some("TypeError"), Some("bad_input"));
        assert_eq!((e.code, e.message.as_str()), (Code::Store, "store.save failed: it broke"));
        assert_eq!(thrown(None, None).message, "store.save failed: it broke");
    }
}
