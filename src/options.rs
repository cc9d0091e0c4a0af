//! The data part of a client's options (`createClient({ style, baseUrl, model, ... })`), read and
//! checked from JSON data. The host's functions and objects (`fetch`, hooks, `store`, ...) are
//! read by the edge; everything here is a rule a native test can reach.

use crate::error::{Error, Result};
use crate::prelude::*;
use crate::provider::ProviderConfig;
use crate::retry::{DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_RETRIES, DEFAULT_RETRY_BASE_MS};
use crate::run::{LoopConfig, DEFAULT_MAX_TURNS};
use crate::small::{self, whole};
use crate::style::Style;
use serde_json::{Map, Value};

/// A client's settings: what the loop needs, what the driver needs, and the run deadline.
pub struct ClientOptions {
    pub cfg: LoopConfig,
    pub policy: CallPolicy,
    pub timeout_ms: Option<f64>,
    /// The most bytes a model reply's body may have, whole or streamed.
    pub max_response_bytes: f64,
}

/// The longest delay a host timer honours (`setTimeout` takes a signed 32-bit count of
/// milliseconds and fires at once beyond it): the bound of `timeoutMs`, `retryBaseMs` and every
/// computed retry delay.
pub const MAX_TIMER_MS: f64 = 2_147_483_647.0;

/// How model calls are made, whatever they are for (the loop's turns or a translation): the
/// driver's side of a client's options (it reads them; it lives here, below the driver, so the
/// options never import upward). The machine never sees it.
#[derive(Clone, Debug)]
pub struct CallPolicy {
    /// Model calls ask for SSE replies; text deltas become events as they arrive.
    pub stream: bool,
    /// Retries after a failed model call (`0` means none).
    pub retries: u32,
    pub retry_base_ms: f64,
    /// The longest wait a provider may ask for (`maxRetryAfterMs`); asking for more fails the
    /// attempt without a retry.
    pub max_retry_after_ms: f64,
    /// Shallow-merged into every request body (`requestParams`).
    pub request_params: Option<Map<String, Value>>,
}

/// 8 MiB: far above any chat reply, and a small part of a 128 MB Worker isolate.
pub const DEFAULT_MAX_RESPONSE_BYTES: f64 = 8_388_608.0;

const WHAT: &str = "createClient options";

mod calls;
pub use calls::{check_call_options, check_tool_keys, check_toolkit_keys, TOOL_KEYS};

/// A slot's key: its own (a `hooks` member's), else its row's name.
macro_rules! slot_key {
    ($key:literal $name:literal) => {
        $key
    };
    ($name:literal) => {
        $name
    };
}

/// Every `createClient` option, in one place: its name, its TypeScript type exactly as the
/// typings write it, its default (a `DEFAULT_*` constant the reader below uses, or `None`), and
/// what it is. The reader refuses any other key. The typings' `ClientOptions` and the table in the
/// package README are checked against these rows by type and default (`options_table_*` below),
/// so an option cannot be read without being typed and documented, or typed without being read.
/// The edge reads the host's functions and the store (`hostOptions` in src/wasm/js/options.js); this
/// module reads the data. A new option is one row here and its reading; the tests name every
/// place that then disagrees. The types and docs are compiled for the tests only: the wasm keeps
/// the names ([`OPTIONS`]).
/// Rows under `js { ... }` are options the JS layer reads and removes before the rest reach the
/// core (pkg-template/api.js): typed and documented like the others, but not in [`OPTIONS`], so
/// the core refuses them if they ever arrive (a secret is never read here).
/// Rows read by the edge name their slots (`=> [Slot]`, or `=> [Slot = "key", ...]` for an
/// object of functions like `hooks`): [`HostSlot`] is derived from them, in the table's order.
macro_rules! options_table {
    ($($name:literal $(($optional:tt))? $(=> [$($slot:ident $(= $key:literal)?),+])? : $ts:literal, $default:expr, $doc:literal;)+
     js { $($js_name:literal : $js_ts:literal, $js_doc:literal;)* }) => {
        pub const OPTIONS: &[&str] = &[$($name),+];

        /// The slots of the array `hostOptions` (src/wasm/js/options.js) returns: a client's host
        /// functions and its store, read once: one array crossing instead of a getter import per
        /// field (why: docs/decisions/edge.md, "Positional records"). Derived from the table's rows
        /// that the edge reads; host.js builds its array from the list of [`HostSlot::NAMES`]
        /// (`HOST_SLOTS`), which a test here checks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum HostSlot { $($($($slot,)+)?)+ }

        impl HostSlot {
            /// Every slot, in the order of `hostOptions`' array.
            pub const ALL: &'static [HostSlot] = &[$($($(HostSlot::$slot,)+)?)+];
            pub const COUNT: usize = Self::ALL.len();
            /// The option (or `hooks` member) each slot holds, in that order.
            pub const NAMES: &'static [&'static str] = &[$($($(slot_key!($($key)? $name),)+)?)+];

            /// The slot's index in `hostOptions`' array.
            pub fn at(self) -> u32 {
                self as u32
            }
        }

        #[cfg(test)]
        pub(crate) struct OptionRow {
            pub name: &'static str,
            pub required: bool,
            pub ts: &'static str,
            /// The default as the README writes it.
            pub default: Option<String>,
            pub doc: &'static str,
        }

        #[cfg(test)]
        pub(crate) fn option_rows() -> Vec<OptionRow> {
            let mut rows = vec![$(OptionRow { name: $name, required: true $(&& !$optional)?, ts: $ts, default: $default, doc: $doc }),+];
            rows.extend([$(OptionRow { name: $js_name, required: false, ts: $js_ts, default: None, doc: $js_doc }),*]);
            rows
        }
    };
}

options_table! {
    "baseUrl"(true): "string", None, "The provider's API root; by `style`: `https://api.openai.com/v1` (openai, responses), `https://api.anthropic.com`, `https://generativelanguage.googleapis.com`.";
    "style": "Style", None, "`\"openai\"`, `\"responses\"`, `\"anthropic\"` or `\"gemini\"`.";
    "model": "string", None, "The model (one URL path segment for Gemini).";
    "apiKey"(true): "string", None, "Never in results, states, errors or logs.";
    "headers"(true): "{ [name: string]: string }", None, "Extra headers; they override the defaults.";
    "systemPrompt"(true): "string", None, "The system prompt.";
    "maxTurns"(true): "number", Some(DEFAULT_MAX_TURNS.to_string()), "Model round trips per run.";
    "retries"(true): "number", Some(DEFAULT_RETRIES.to_string()), "Retries of a failed provider call (429, 5xx, network); 0 = none.";
    "retryBaseMs"(true): "number", Some(ms(DEFAULT_RETRY_BASE_MS)), "Backoff base: `retryBaseMs * 2^attempt` plus jitter.";
    "maxRetryAfterMs"(true): "number", Some(ms(DEFAULT_MAX_RETRY_AFTER_MS)), "The longest wait a provider may ask for before a retry.";
    "timeoutMs"(true): "number", None, "A deadline for the whole run, store calls included.";
    "maxResponseBytes"(true): "number", Some(ms(DEFAULT_MAX_RESPONSE_BYTES)), "Longest model reply body, whole or streamed.";
    "requestParams"(true): "{ [key: string]: unknown }", None, "Merged into every request body (`temperature`, `max_tokens`, ...).";
    // read by the edge
    "waitFor"(true) => [WaitFor]: "(request: Suspension, ctx: { signal?: AbortSignal }) => Answer | undefined | Promise<Answer | undefined>", None, "Resolves suspensions in-process; without it a suspension halts the run.";
    "store"(true) => [Store]: "ConversationStore", Some("memoryStore()".to_string()), "Where `ask` (and `stream` with an id) keep conversations.";
    "onMetric"(true) => [OnMetric]: "(event: MetricEvent) => void", None, "Gets `llm`, `tool` and `run` events.";
    "fetch"(true) => [Fetch]: "(url: string, init: { method: string; headers: { [name: string]: string }; body: string; signal?: AbortSignal }, call?: { callPath: string }) => Promise<Response | { status: number; text(): Promise<string> }>", Some("globalThis.fetch".to_string()), "A fetch to use instead of the global one; an agent tool's child's model call gets a third argument, `{ callPath }`: its delegate calls' ids (`d1/d7`).";
    "onError"(true) => [OnError]: "(info: ErrorInfo) => \"retry\" | \"fail\" | void | Promise<\"retry\" | \"fail\" | void>", None, "Decides each failed attempt: `\"retry\"` or `\"fail\"`.";
    "hooks"(true) => [BeforeLlm = "beforeLLM", AfterLlm = "afterLLM", BeforeTool = "beforeTool", AfterTool = "afterTool"]: "Hooks", None, "`{ beforeLLM, afterLLM, beforeTool, afterTool }`.";
    "bodyTransform"(true) => [BodyTransform]: "(body: { [key: string]: unknown }) => { [key: string]: unknown } | void | Promise<{ [key: string]: unknown } | void>", None, "Called with each request body (after `requestParams`); may return a new one.";
    js {
        "stateSecret": "string | string[]", "HMAC-SHA256 key for halted and stored states, at least 16 characters (a list rotates: the first signs, any verifies). Read by the JS layer; never reaches the wasm.";
    }
}

/// A default number as the README writes it (whole numbers without a fraction).
#[cfg(test)]
fn ms(n: f64) -> String {
    format!("{n}")
}

/// Other libraries' spellings (the AI SDK's, OpenAI's clients') and what to write here instead:
/// a migrating user's `tools` or `temperature` would otherwise vanish without a word.
const HINTS: &[(&str, &str)] = &[
    ("tools", "run(prompt, { toolkit })"),
    ("toolkit", "run(prompt, { toolkit })"),
    ("history", "run(prompt, { history })"),
    ("id", "ask(prompt, { id })"),
    ("signal", "run(prompt, { signal })"),
    ("messages", "run(prompt, { history })"),
    ("maxRetries", "retries"),
    ("system", "systemPrompt"),
    ("maxSteps", "maxTurns"),
    ("timeout", "timeoutMs"),
    ("provider", "style"),
];

/// The AI SDK's call settings: provider body fields, which go through `requestParams`.
const BODY_FIELDS: &[&str] = &["temperature", "maxTokens", "max_tokens", "topP", "seed", "stopSequences"];

/// The refusal of a key that `what` does not read: `did you mean <hint>?` when something near
/// was probably meant, else the typings' name for the whole shape (`see`). Every options object
/// and tool object of the API is refused through here, so they all read alike.
fn refuse(what: &str, noun: &str, key: &str, hint: Option<&str>, see: &str) -> Error {
    Error::bad_input(match hint {
        Some(h) => format!("{what}: unknown {noun} \"{key}\"; did you mean {h}?"),
        None => format!("{what}: unknown {noun} \"{key}\" (see {see})"),
    })
}

/// The first of `keys` that is not in `allowed`.
fn stray<'k>(keys: &'k [String], allowed: &[&str]) -> Option<&'k str> {
    keys.iter().map(String::as_str).find(|k| !allowed.contains(k))
}

/// A key that differs from one of `allowed` only in case (`baseURL`, `toolKit`).
fn in_other_case<'a>(key: &str, allowed: &[&'a str]) -> Option<&'a str> {
    allowed.iter().find(|k| k.eq_ignore_ascii_case(key)).copied()
}

/// The refusal of a `createClient` option this package does not read, with what was probably
/// meant: a known spelling from elsewhere, or an option that differs only in case (`baseURL`).
fn unknown(key: &str) -> Error {
    let hint = HINTS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, h)| *h)
        .or_else(|| BODY_FIELDS.contains(&key).then_some("requestParams: { ... } (the provider's request body)"))
        .or_else(|| in_other_case(key, OPTIONS));
    refuse(WHAT, "option", key, hint, "ClientOptions")
}

/// The API root of each style's provider, used when `baseUrl` is left out (each style's request
/// builder adds the rest: `/chat/completions`, `/responses`, `/v1/messages`,
/// `/v1beta/models/<model>:generateContent`).
pub fn default_base_url(style: Style) -> &'static str {
    match style {
        Style::OpenAi | Style::Responses => "https://api.openai.com/v1",
        Style::Anthropic => "https://api.anthropic.com",
        Style::Gemini => "https://generativelanguage.googleapis.com",
    }
}

/// The endpoint paths the request builders append: a `baseUrl` ending in one would be sent to
/// `.../chat/completions/chat/completions` and answered 404.
const ENDPOINTS: &[&str] = &["/chat/completions", "/responses", "/messages", ":generateContent", ":streamGenerateContent"];

/// A given `baseUrl`, refused with the fix when it has no scheme (a bare host goes nowhere) or
/// when it already ends in the endpoint path the client adds.
fn checked_base_url(style: Style, url: String) -> Result<String> {
    let example = default_base_url(style);
    if url.is_empty() {
        return Err(Error::bad_input(format!("{WHAT}.baseUrl is empty: leave it out for {example}, or give the provider's API root")));
    }
    let scheme = url.split_once(':').filter(|(_, rest)| rest.starts_with("//")).map(|(s, _)| s);
    if !scheme.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))) {
        return Err(Error::bad_input(format!("{WHAT}.baseUrl \"{url}\" has no scheme: write \"https://{url}\" (e.g. {example})")));
    }
    let end = url.bytes().position(|b| b == b'?' || b == b'#').unwrap_or(url.len());
    let path = url.get(..end).unwrap_or_default().trim_end_matches('/');
    for end in ENDPOINTS {
        if let Some(root) = path.strip_suffix(end) {
            // What to write: the root before the endpoint (for Gemini, before `/models/<model>`).
            let root = small::split_once(root, "/models/").map_or(root, |(r, _)| r);
            return Err(Error::bad_input(format!(
                "{WHAT}.baseUrl ends with the endpoint path \"{end}\", which the client adds itself: write \"{root}\""
            )));
        }
    }
    Ok(url)
}

fn opt_string(o: &Map<String, Value>, key: &str) -> Result<Option<String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Error::bad_input(format!("{WHAT}.{key} must be a string"))),
    }
}

fn req_string(o: &Map<String, Value>, key: &str) -> Result<String> {
    opt_string(o, key)?.filter(|s| !s.is_empty()).ok_or_else(|| Error::bad_input(format!("{WHAT}.{key} is required (a non-empty string)")))
}

/// A present key's number that passes `ok`; an absent key is `None`. Anything else (null, a
/// string, out of range) is refused with `err`.
fn number(o: &Map<String, Value>, key: &str, ok: fn(f64) -> bool, err: &str) -> Result<Option<f64>> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => v.as_f64().filter(|n| ok(*n)).map(Some).ok_or_else(|| Error::bad_input(err)),
    }
}

impl ClientOptions {
    /// Reads the options from their JSON text (`None`: no options, refused as not an object).
    /// Text that does not parse is what the edge gives for a value that is not JSON data.
    pub fn from_json_text(text: Option<&str>) -> Result<ClientOptions> {
        let data = match text {
            None => Value::Null,
            Some(t) => crate::json::parse(t).map_err(|_| Error::bad_input("createClient options are not JSON data"))?,
        };
        ClientOptions::from_json(&data)
    }

    /// Reads the options object (as JSON data; keys holding functions are ignored here).
    pub fn from_json(v: &Value) -> Result<ClientOptions> {
        let Value::Object(o) = v else {
            return Err(Error::bad_input("createClient needs an options object"));
        };
        if let Some(k) = o.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
            return Err(unknown(k));
        }
        let style = Style::parse(&req_string(o, "style")?)?;
        let mut headers = Vec::new();
        match o.get("headers") {
            None | Some(Value::Null) => {}
            Some(Value::Object(h)) => {
                for (k, v) in h {
                    let v = v.as_str().ok_or_else(|| Error::bad_input(format!("headers.{k} must be a string")))?;
                    headers.push((k.clone(), v.to_string()));
                }
            }
            Some(_) => return Err(Error::bad_input("headers must be an object of strings")),
        }
        let max_turns =
            number(o, "maxTurns", |n| n >= 1.0 && whole(n) && n <= f64::from(u32::MAX), "maxTurns must be a whole number of at least 1")?;
        let retries = number(o, "retries", |n| (0.0..=100.0).contains(&n) && whole(n), "retries must be a whole number from 0 to 100")?;
        let timer = |n: f64| n > 0.0 && n <= MAX_TIMER_MS;
        let retry_base_ms = number(o, "retryBaseMs", timer, "retryBaseMs must be a number of milliseconds from 1 to 2147483647")?;
        // The longest wait a provider may ask for; 0 refuses any.
        let max_retry_after_ms = number(
            o,
            "maxRetryAfterMs",
            |n| n.clamp(0.0, MAX_TIMER_MS) == n,
            "maxRetryAfterMs must be a number of milliseconds from 0 to 2147483647",
        )?;
        // JSON.stringify writes Infinity and NaN as null: null is refused with them.
        let timeout_ms = number(o, "timeoutMs", timer, "timeoutMs must be a number of milliseconds from 1 to 2147483647")?;
        let max_response_bytes = number(
            o,
            "maxResponseBytes",
            |n| n >= 1.0 && whole(n) && n <= 9_007_199_254_740_991.0,
            "maxResponseBytes must be a whole number of at least 1",
        )?;
        let request_params = match o.get("requestParams") {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m.clone()),
            Some(_) => return Err(Error::bad_input("requestParams must be an object")),
        };
        let base_url = match opt_string(o, "baseUrl")? {
            None => default_base_url(style).to_string(),
            Some(url) => checked_base_url(style, url)?,
        };
        let model = req_string(o, "model")?;
        crate::provider::check_model(style, &model)?;
        Ok(ClientOptions {
            cfg: LoopConfig {
                provider: ProviderConfig { base_url, style, model, api_key: opt_string(o, "apiKey")?, headers },
                system_prompt: opt_string(o, "systemPrompt")?.unwrap_or_default(),
                max_turns: max_turns.map_or(DEFAULT_MAX_TURNS, |n| n as u32),
            },
            policy: CallPolicy {
                stream: false,
                retries: retries.map_or(DEFAULT_RETRIES, |n| n as u32),
                retry_base_ms: retry_base_ms.unwrap_or(DEFAULT_RETRY_BASE_MS),
                max_retry_after_ms: max_retry_after_ms.unwrap_or(DEFAULT_MAX_RETRY_AFTER_MS),
                request_params,
            },
            timeout_ms,
            max_response_bytes: max_response_bytes.unwrap_or(DEFAULT_MAX_RESPONSE_BYTES),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The README's options table as the rows say it must read (`|` escaped inside cells).
    fn readme_table() -> String {
        let cell = |t: &str| t.replace('|', "\\|");
        let mut out = String::from("| option | type | default | what it is |\n|---|---|---|---|\n");
        for r in option_rows() {
            let name = if r.required { format!("`{}`", r.name) } else { format!("`{}?`", r.name) };
            let default = r.default.as_deref().map_or("—".to_string(), |d| format!("`{d}`"));
            out.push_str(&format!("| {name} | `{}` | {default} | {} |\n", cell(r.ts), cell(r.doc)));
        }
        out
    }

    #[test]
    fn options_table_matches_the_typings_by_type() {
        let dts = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/wasm/types.d.ts")).unwrap();
        let body = &dts[dts.find("export interface ClientOptions {").unwrap()..];
        let body = &body[..body.find("\n}").unwrap()];
        // Each member is one line `  name?: type;` (JSDoc lines start with `/**`, ` *` or `*/`).
        let mut typed: Vec<(String, bool, String)> = body
            .lines()
            .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with(['/', '*']) && l.ends_with(';'))
            .map(|l| {
                let (name, ty) = l.trim().trim_end_matches(';').split_once(": ").unwrap();
                (name.trim_end_matches('?').to_string(), !name.ends_with('?'), ty.to_string())
            })
            .collect();
        let mut rows: Vec<(String, bool, String)> = option_rows().iter().map(|r| (r.name.into(), r.required, r.ts.into())).collect();
        typed.sort();
        rows.sort();
        assert_eq!(typed, rows, "src/wasm/types.d.ts ClientOptions against OPTIONS in src/options.rs");
        // The JS layer's rows come last and are not the core's to read.
        assert_eq!(OPTIONS, option_rows().iter().map(|r| r.name).take(OPTIONS.len()).collect::<Vec<_>>());
        assert!(
            read(json!({"style": "openai", "baseUrl": "http://x", "model": "m", "stateSecret": "s"})).is_err(),
            "read by the JS layer only"
        );
    }

    /// `hostOptions` returns the values of its object `slots` (src/wasm/js/options.js), one per
    /// key: the keys must be the slots derived from the edge's rows, in order, so a swap or a
    /// missing option fails here.
    #[test]
    fn host_js_lists_the_host_slots_in_this_order() {
        let js = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/wasm/js/options.js")).unwrap();
        let marker = "  const slots = {\n";
        let body = &js[js.find(marker).expect("options.js builds `slots`") + marker.len()..];
        let body = &body[..body.find("\n  };").unwrap()];
        let names: Vec<&str> = body.lines().map(|l| l.trim().split(':').next().unwrap()).collect();
        assert_eq!(names, HostSlot::NAMES);
        assert_eq!(HostSlot::ALL.len(), HostSlot::NAMES.len());
        for (i, slot) in HostSlot::ALL.iter().enumerate() {
            assert_eq!(slot.at() as usize, i);
        }
        // Every slot but the hooks' is a row of the table.
        let hooks = ["beforeLLM", "afterLLM", "beforeTool", "afterTool"];
        assert!(HostSlot::NAMES.iter().all(|n| OPTIONS.contains(n) || hooks.contains(n)));
    }

    #[test]
    fn options_table_matches_the_package_readme() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/README.md")).unwrap();
        let (start, end) = ("<!-- options: generated from src/options.rs, checked by its tests -->\n", "<!-- /options -->");
        let at = readme.find(start).expect("pkg-template/README.md has the options table") + start.len();
        let table = &readme[at..at + readme[at..].find(end).unwrap()];
        assert_eq!(table, readme_table(), "pkg-template/README.md's options table; it should read:\n{}", readme_table());
    }

    fn read(v: Value) -> Result<ClientOptions> {
        ClientOptions::from_json(&v)
    }

    fn message(v: Value) -> String {
        read(v).err().unwrap().message
    }

    #[test]
    fn options_text() {
        let err = |t: Option<&str>| ClientOptions::from_json_text(t).err().unwrap().message;
        assert_eq!(err(Some("")), "createClient options are not JSON data");
        assert_eq!(err(None), "createClient needs an options object");
        assert!(ClientOptions::from_json_text(Some(r#"{"style":"openai","baseUrl":"http://x","model":"m"}"#)).is_ok());
    }

    #[test]
    fn defaults_and_values() {
        let o = read(json!({"style": "anthropic", "baseUrl": "http://x", "model": "m"})).unwrap();
        assert_eq!(o.cfg.max_turns, DEFAULT_MAX_TURNS);
        assert_eq!(o.policy.retries, DEFAULT_RETRIES);
        assert_eq!(o.policy.retry_base_ms, DEFAULT_RETRY_BASE_MS);
        assert!(o.timeout_ms.is_none() && o.policy.request_params.is_none() && o.cfg.provider.api_key.is_none());
        assert_eq!(o.max_response_bytes, DEFAULT_MAX_RESPONSE_BYTES);
        let o = read(json!({"style": "openai", "baseUrl": "http://x", "model": "m", "apiKey": "k", "headers": {"a": "b"},
            "maxTurns": 3, "retries": 0, "retryBaseMs": 5, "timeoutMs": 100, "requestParams": {"t": 1}, "systemPrompt": "s"}))
        .unwrap();
        assert_eq!((o.cfg.max_turns, o.policy.retries, o.policy.retry_base_ms, o.timeout_ms), (3, 0, 5.0, Some(100.0)));
        assert_eq!(o.cfg.provider.headers, vec![("a".to_string(), "b".to_string())]);
        assert_eq!((o.cfg.system_prompt.as_str(), o.cfg.provider.api_key.as_deref()), ("s", Some("k")));
        assert_eq!(o.policy.request_params.unwrap()["t"], 1);
    }

    #[test]
    fn refusals() {
        let base = |k: &str, v: Value| {
            let mut o = json!({"style": "openai", "baseUrl": "http://x", "model": "m"});
            o[k] = v;
            o
        };
        assert_eq!(message(json!(3)), "createClient needs an options object");
        assert_eq!(message(json!({"baseUrl": "http://u", "model": "m"})), "createClient options.style is required (a non-empty string)");
        assert!(message(base("style", json!("x"))).starts_with("style must be"));
        assert_eq!(message(base("model", json!(""))), "createClient options.model is required (a non-empty string)");
        assert_eq!(message(base("apiKey", json!(1))), "createClient options.apiKey must be a string");
        assert_eq!(message(base("headers", json!({"a": 1}))), "headers.a must be a string");
        assert_eq!(message(base("headers", json!([]))), "headers must be an object of strings");
        for bad in [json!(0), json!(1.5), json!(null), json!("3")] {
            assert_eq!(message(base("maxTurns", bad)), "maxTurns must be a whole number of at least 1");
        }
        assert_eq!(message(base("retries", json!(101))), "retries must be a whole number from 0 to 100");
        // Timer-safe bounds: 0 < n <= 2^31 - 1; JSON.stringify writes Infinity and NaN as null.
        for key in ["retryBaseMs", "timeoutMs"] {
            for bad in [json!(0), json!(-1), json!(2_147_483_648.0), Value::Null, json!("1"), json!(true)] {
                assert_eq!(message(base(key, bad)), format!("{key} must be a number of milliseconds from 1 to 2147483647"));
            }
            for good in [0.5, 1.0, MAX_TIMER_MS] {
                assert!(read(base(key, json!(good))).is_ok(), "{key}: {good}");
            }
        }
        for bad in [json!(0), json!(-5), json!(1.5), json!("8"), json!(null), json!(1e300)] {
            assert_eq!(message(base("maxResponseBytes", bad)), "maxResponseBytes must be a whole number of at least 1");
        }
        assert_eq!(read(base("maxResponseBytes", json!(1024))).unwrap().max_response_bytes, 1024.0);
        assert_eq!(message(base("requestParams", json!([1]))), "requestParams must be an object");
        for bad in [json!(-1), json!(2_147_483_648u64), json!("5"), json!(null)] {
            assert_eq!(message(base("maxRetryAfterMs", bad)), "maxRetryAfterMs must be a number of milliseconds from 0 to 2147483647");
        }
    }

    #[test]
    fn max_retry_after_ms() {
        let with = |v: Value| read(json!({"style": "openai", "baseUrl": "http://x", "model": "m", "maxRetryAfterMs": v})).unwrap();
        assert_eq!(with(json!(0)).policy.max_retry_after_ms, 0.0);
        assert_eq!(with(json!(2_147_483_647u64)).policy.max_retry_after_ms, 2_147_483_647.0);
        let o = read(json!({"style": "openai", "baseUrl": "http://x", "model": "m"})).unwrap();
        assert_eq!(o.policy.max_retry_after_ms, DEFAULT_MAX_RETRY_AFTER_MS);
    }

    #[test]
    fn urls_are_checked_when_the_client_is_made() {
        let make = |style: &str, base: &str, model: &str| read(json!({"style": style, "baseUrl": base, "model": model}));
        assert!(make("gemini", "http://x", "gemini-2.0-flash").is_ok());
        assert!(make("openai", "http://x/v1", "openai/gpt-4o").is_ok(), "a gateway's vendor/model stays in the body");
        for model in ["../../admin/x", "a/b", "a?b", "a#b", "..", "a\\b", "x\u{0}"] {
            let e = make("gemini", "http://x", model).err().unwrap();
            assert_eq!(e.code(), "bad_input", "{model}");
            assert_eq!(e.message, "createClient options.model must be one URL path segment", "{model}");
        }
        assert!(make("anthropic", "http://x", "m/..?#").is_ok(), "a body field: no URL rule");
    }

    #[test]
    fn base_url_defaults_by_style_and_is_refused_without_a_scheme_or_with_the_endpoint() {
        let url = |style: &str, base: Option<&str>| {
            let mut o = json!({"style": style, "model": "m"});
            if let Some(b) = base {
                o["baseUrl"] = json!(b);
            }
            read(o).map(|o| o.cfg.provider.base_url)
        };
        assert_eq!(url("openai", None).unwrap(), "https://api.openai.com/v1");
        assert_eq!(url("responses", None).unwrap(), "https://api.openai.com/v1");
        assert_eq!(url("anthropic", None).unwrap(), "https://api.anthropic.com");
        assert_eq!(url("gemini", None).unwrap(), "https://generativelanguage.googleapis.com");
        assert_eq!(url("openai", Some("http://localhost:8080/v1/")).unwrap(), "http://localhost:8080/v1/");
        let refused = |style: &str, base: &str| {
            let e = url(style, Some(base)).unwrap_err();
            assert_eq!(e.code(), "bad_input");
            e.message
        };
        assert_eq!(
            refused("openai", "api.openai.com/v1"),
            "createClient options.baseUrl \"api.openai.com/v1\" has no scheme: write \"https://api.openai.com/v1\" (e.g. https://api.openai.com/v1)"
        );
        assert!(refused("openai", "://x").contains("has no scheme"));
        assert_eq!(
            refused("openai", "https://api.openai.com/v1/chat/completions"),
            "createClient options.baseUrl ends with the endpoint path \"/chat/completions\", which the client adds itself: write \"https://api.openai.com/v1\""
        );
        assert!(refused("responses", "https://api.openai.com/v1/responses/").ends_with("write \"https://api.openai.com/v1\""));
        assert!(refused("anthropic", "https://api.anthropic.com/v1/messages").ends_with("write \"https://api.anthropic.com/v1\""));
        assert!(refused("gemini", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=x")
            .ends_with("\":generateContent\", which the client adds itself: write \"https://generativelanguage.googleapis.com/v1beta\""));
        assert!(refused("gemini", "")
            .starts_with("createClient options.baseUrl is empty: leave it out for https://generativelanguage.googleapis.com"));
    }

    #[test]
    fn unknown_options_are_refused_with_a_hint() {
        let with = |k: &str| {
            let mut o = json!({"style": "openai", "baseUrl": "http://x", "model": "m"});
            o[k] = json!(1);
            let e = read(o).err().unwrap();
            assert_eq!(e.code(), "bad_input");
            e.message
        };
        assert_eq!(with("baseURL"), "createClient options: unknown option \"baseURL\"; did you mean baseUrl?");
        assert_eq!(with("maxRetries"), "createClient options: unknown option \"maxRetries\"; did you mean retries?");
        assert!(with("tools").ends_with("did you mean run(prompt, { toolkit })?"));
        assert!(with("toolkit").ends_with("did you mean run(prompt, { toolkit })?"));
        assert!(with("temperature").ends_with("did you mean requestParams: { ... } (the provider's request body)?"));
        assert!(with("max_tokens").contains("requestParams"));
        // An option in another case.
        assert!(with("systemprompt").ends_with("did you mean systemPrompt?"));
        assert!(with("APIKEY").ends_with("did you mean apiKey?"));
        // Nothing near: the refusal names the typings' list.
        let m = with("colour");
        assert_eq!(m, "createClient options: unknown option \"colour\" (see ClientOptions)");
        // (The edge hands functions over as `true`: see optionsJson in src/wasm/host.js.)
        let mut all = json!({"style": "openai", "baseUrl": "http://x", "model": "m", "apiKey": "k", "headers": {},
            "systemPrompt": "s", "maxTurns": 2, "retries": 1, "retryBaseMs": 1, "maxRetryAfterMs": 5, "timeoutMs": 9, "maxResponseBytes": 9, "requestParams": {}, "hooks": {}});
        for k in OPTIONS {
            if all.get(k).is_none() {
                all[*k] = json!(true);
            }
        }
        assert_eq!(all.as_object().unwrap().len(), OPTIONS.len());
        assert!(read(all).is_ok());
    }
}
