//! One model call, the same for the loop's turns and for `translate`: `beforeLLM` → the request
//! → `requestParams` → `bodyTransform` → send with retries → (stream assembly) → parse → the
//! caller takes the reply → `afterLLM` → one `llm` metric. What differs between callers (where
//! the request comes from, what happens to text deltas and to the reply) is a [`CallSubject`].

use super::{Env, StreamResponse, Tier};
use crate::error::{Code, Error, Result};
use crate::hooks::{merge_params, Hook};
use crate::message::{Message, Usage};
use crate::metrics::Metric;
use crate::prelude::*;
use crate::provider::{self, Delta, HttpRequest, HttpResponse, ModelReply, ProviderConfig, StreamAssembler};
use crate::retry::{backoff_ms, retry_after_ms, retryable_status, ErrorInfo};
use crate::tool::ToolSpec;
use serde_json::Value;

/// What a model call is made for. Methods take `&self`: the pipeline holds the subject across
/// awaits, and a subject keeps what it changes behind its own cells.
pub(crate) trait CallSubject {
    /// Zero-based model turn, for the hooks.
    fn turn(&self) -> u32;
    /// What `beforeLLM` sees: the transcript in the style's dialect and the declared tools.
    fn working_copies(&self) -> (Vec<Value>, Vec<ToolSpec>);
    /// `beforeLLM` replaced the messages and/or the declared tools.
    fn replace_working(&self, messages: Option<Vec<Message>>, tools: Option<Vec<ToolSpec>>);
    /// The request as built from the subject's current state.
    fn request(&self, stream: bool) -> HttpRequest;
    /// A streamed reply is about to deliver its deltas.
    fn opened(&self) {}
    /// One text or reasoning delta of a streamed reply.
    fn delta(&self, delta: Delta);
    /// Whether [`CallSubject::accept`] wants a whole reply's body as JSON even without `afterLLM`.
    fn keeps_raw(&self) -> bool {
        false
    }
    /// Takes the reply before `afterLLM` runs; `raw` is a whole reply's body as JSON.
    fn accept(&self, reply: ModelReply, raw: Option<&Value>) -> Result<()>;
}

pub(crate) fn hook_failed(name: &'static str) -> impl Fn(Error) -> Error {
    move |e| match e.code {
        Code::Aborted => e,
        _ => Error::new(Code::HostCallback, format!("{name} hook failed: {}", e.message)),
    }
}

/// Makes one model call for `subject` and reports one `llm` metric, whatever the outcome.
pub(crate) async fn model_call(provider: &ProviderConfig, subject: &dyn CallSubject, stream: bool, env: &Env<'_>) -> Result<()> {
    let t0 = (env.clock)();
    let outcome = call(provider, subject, stream, env).await;
    let usage = outcome.as_ref().copied().unwrap_or_default();
    env.emit(Metric::Llm {
        model: provider.model.clone(),
        status: if outcome.is_ok() { "ok" } else { "error" },
        ms: (env.clock)() - t0,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        cache_read_tokens: usage.cache_read_tokens,
        cache_write_tokens: usage.cache_write_tokens,
    });
    outcome.map(|_| ())
}

async fn call(provider: &ProviderConfig, subject: &dyn CallSubject, stream: bool, env: &Env<'_>) -> Result<Usage> {
    let req = shape(provider, subject, stream, env).await?;
    // One await of `with_retries` for both kinds of reply (each await site compiles the future's
    // polling again). It delivers a stream exactly when asked for one.
    let (reply, raw) = match with_retries(provider, req, env, stream).await? {
        Delivered::Stream(mut resp) => {
            subject.opened();
            let mut assembler = StreamAssembler::new(provider);
            while let Some(chunk) = resp.body.next_chunk().await? {
                let mut deltas = Vec::new();
                let pushed = assembler.push(&chunk, &mut deltas);
                for delta in deltas {
                    subject.delta(delta);
                }
                pushed?;
            }
            (assembler.finish()?, None)
        }
        Delivered::Whole(resp) => {
            let reply = provider::parse_response(provider, &resp)?;
            // The body is parsed again as plain JSON only for whoever reads it raw.
            let raw =
                (subject.keeps_raw() || env.hook(Hook::AfterLlm).is_some()).then(|| crate::json::parse(&resp.body).unwrap_or(Value::Null));
            (reply, raw)
        }
    };
    let usage = reply.usage;
    subject.accept(reply, raw.as_ref())?;
    if let Some(h) = env.hook(Hook::AfterLlm) {
        let response = raw.unwrap_or_else(|| crate::json::obj(vec![("streamed", Value::Bool(true)), ("usage", usage.to_json())]));
        h.after_llm(response, &provider.model, subject.turn()).await.map_err(hook_failed("afterLLM"))?;
    }
    Ok(usage)
}

/// The request as sent: base body → `beforeLLM` → `requestParams` → `bodyTransform`.
async fn shape(provider: &ProviderConfig, subject: &dyn CallSubject, stream: bool, env: &Env<'_>) -> Result<HttpRequest> {
    if let Some(h) = env.hook(Hook::BeforeLlm) {
        let (messages, tools) = subject.working_copies();
        if let Some(change) = h.before_llm(messages, &tools, &provider.model, subject.turn()).await.map_err(hook_failed("beforeLLM"))? {
            let messages = change.messages.map(|m| crate::dialect::read(&m)).transpose()?;
            subject.replace_working(messages, change.tools);
        }
    }
    let mut req = subject.request(stream);
    req.call_path = env.call_path.into();
    let params = env.policy.request_params.as_ref();
    let transform = env.hook(Hook::BodyTransform);
    if params.is_some() || transform.is_some() {
        let mut body: Value = crate::json::parse(&req.body).map_err(|e| Error::internal(e.to_string()))?;
        if let Some(p) = params {
            merge_params(&mut body, p);
        }
        if let Some(h) = transform {
            if let Some(b) = h.transform_body(body.clone()).await.map_err(hook_failed("bodyTransform"))? {
                body = b;
            }
        }
        req.body = crate::json::to_text(&body);
    }
    Ok(req)
}

enum Delivered {
    Whole(HttpResponse),
    Stream(StreamResponse),
}

/// Sends with retries: retryable statuses and network errors are retried up to `retries` times,
/// waiting what the provider asked for (`retry-after-ms`, `Retry-After`) up to
/// `max_retry_after_ms`, else exponential backoff with jitter;
/// `onError` may turn any failure into a retry or a failure, within the budget. Aborts are never
/// retried. For a stream only the request and its status are retried. Error text never holds
/// the provider's key.
async fn with_retries(provider: &ProviderConfig, req: HttpRequest, env: &Env<'_>, streaming: bool) -> Result<Delivered> {
    let (retries, base_ms) = (env.policy.retries, env.policy.retry_base_ms);
    let secret = provider.api_key.as_deref();
    let mut attempt = 0u32;
    loop {
        let (error, retry_after) = if streaming {
            match env.transport.open(&req).await {
                Ok(resp) if (200..300).contains(&resp.status) => return Ok(Delivered::Stream(resp)),
                Ok(mut resp) => {
                    let mut body = Vec::new();
                    while let Some(chunk) = resp.body.next_chunk().await? {
                        body.extend(chunk);
                    }
                    let text = String::from_utf8_lossy(&body).into_owned();
                    (provider::status_error(resp.status, &text, secret), resp.retry_after)
                }
                Err(e) => (e.fetch_failure(), None),
            }
        } else {
            match env.transport.send(&req).await {
                Ok(resp) if (200..300).contains(&resp.status) => return Ok(Delivered::Whole(resp)),
                Ok(resp) => (provider::status_error(resp.status, &resp.body, secret), resp.retry_after),
                Err(e) => (e.fetch_failure(), None),
            }
        };
        // A wait beyond the cap is not worth it for a loop someone is waiting on (a quota
        // reset hours away): the attempt fails now with the provider's error, unless `onError`
        // insists, and then the wait is the cap.
        let cap = env.policy.max_retry_after_ms;
        let asked = retry_after_ms(retry_after.as_deref());
        let retryable = match error.code {
            Code::ProviderHttp => error.status.is_some_and(retryable_status) && !asked.is_some_and(|ms| ms > cap),
            // A browser's opaque refusal (CORS, host_permissions, offline) fails the same again.
            Code::Transport => !error.is_browser_fetch_failure(),
            _ => return Err(error.after_attempts(attempt + 1)), // aborts and everything else are final
        };
        let info = ErrorInfo { error: error.message.clone(), status: error.status, attempt, retryable };
        let tier = match env.on_error {
            Some(policy) => policy.decide(&info).await?,
            None if retryable => Tier::Retry,
            None => Tier::Fail,
        };
        if tier == Tier::Fail || attempt >= retries {
            return Err(error.after_attempts(attempt + 1));
        }
        let wait = asked.map_or_else(|| backoff_ms(base_ms, attempt, (env.random)()), |ms| ms.min(cap));
        if let Some(s) = env.sleep {
            // Host timers take at most 2^31 - 1 ms and fire at once beyond it (or on NaN).
            s.sleep(if wait > 0.0 { wait.min(crate::options::MAX_TIMER_MS) } else { 0.0 }).await;
        }
        attempt = attempt.saturating_add(1);
    }
}
