//! The options of every client method, and the keys of tool objects and of `createToolkit`'s
//! options, checked by key with the hints of `createClient`'s checker (the parent module): one
//! rule and one message shape for every options object of the API.

use super::{in_other_case, refuse, stray, BODY_FIELDS, OPTIONS};
use crate::error::Result;
use crate::ops::ClientOp;
use crate::prelude::*;

/// What each client method reads from its options (the prompt's second argument, a resume's
/// only one, `translate`'s request, `discard`'s second), and the typings' name of that shape.
/// The edge hands over the keys whose value is not `undefined` (`runOptions` in
/// src/wasm/host.js); any other key is refused here, as `createClient`'s are, so that
/// `run(prompt, { tools })` cannot quietly offer the model nothing.
fn call_shape(op: ClientOp) -> (&'static [&'static str], &'static str) {
    match op {
        ClientOp::Run => (&["toolkit", "history", "signal"], "RunOptions"),
        // Without an id `ask` is `run`, and continues `history` as `run` does.
        ClientOp::Ask => (&["toolkit", "id", "onText", "history", "signal"], "AskOptions"),
        ClientOp::Stream => (&["toolkit", "id", "history", "signal"], "StreamOptions"),
        ClientOp::RunWithAnswer => (&["toolkit", "state", "history", "pending", "answer", "signal"], "ResumeOptions"),
        ClientOp::AskWithAnswer => (&["toolkit", "id", "pending", "answer", "signal"], "AskWithAnswerOptions"),
        ClientOp::StreamWithAnswer => (&["toolkit", "id", "state", "history", "pending", "answer", "signal"], "StreamWithAnswerOptions"),
        ClientOp::Translate | ClientOp::TranslateStream => (
            &["messages", "tools", "toolkit", "toolChoice", "tool_choice", "system", "maxTokens", "max_tokens", "signal"],
            "TranslateRequest",
        ),
        _ => (&["keepHistory"], "Client.discard"),
    }
}

/// Where a key a method does not read belongs: another library's name for one of its options,
/// a sibling method's option, or a `createClient` option (set once per client, not per call).
fn call_hint(op: ClientOp, key: &str, allowed: &[&'static str]) -> Option<String> {
    use ClientOp::*;
    let resume = matches!(op, RunWithAnswer | AskWithAnswer | StreamWithAnswer);
    let h = match key {
        "tools" => "{ toolkit: createToolkit({ tools }) }",
        "maxSteps" | "stopWhen" => "createClient({ maxTurns })",
        "system" => "createClient({ systemPrompt })",
        "messages" => "history",
        "abortSignal" => "signal",
        "maxRetries" => "createClient({ retries })",
        "timeout" => "createClient({ timeoutMs })",
        "provider" => "createClient({ style })",
        "onText" => "ask(prompt, { onText }) (stream(prompt) gives every event)",
        "keepHistory" => "discard(id, { keepHistory })",
        "id" if op == Run => "ask(prompt, { id }) (run never uses the store)",
        "id" if op == RunWithAnswer => "askWithAnswer({ id, answer }) (runWithAnswer never uses the store)",
        "answer" | "pending" | "state" if !resume && op != Translate && op != TranslateStream => match op {
            Run => "runWithAnswer({ state, answer })",
            Ask => "askWithAnswer({ id, answer })",
            _ => "streamWithAnswer({ state, answer })",
        },
        "state" | "history" if op == AskWithAnswer => {
            "runWithAnswer({ state, answer }) (askWithAnswer reads the conversation from the store)"
        }
        _ if OPTIONS.contains(&key) => return Some(format!("createClient({{ {key} }})")),
        _ if BODY_FIELDS.contains(&key) => return Some(format!("createClient({{ requestParams: {{ {key} }} }})")),
        _ => in_other_case(key, allowed)?,
    };
    Some(h.to_string())
}

/// Checks the keys of a client method's options (see [`call_shape`]).
pub fn check_call_options(op: ClientOp, keys: &[String]) -> Result<()> {
    let (allowed, see) = call_shape(op);
    let Some(key) = stray(keys, allowed) else { return Ok(()) };
    let name = ClientOp::NAMES.get(op as usize).copied().unwrap_or("discard");
    let what = if see == "TranslateRequest" { format!("{name} request") } else { format!("{name} options") };
    Err(refuse(&what, "option", key, call_hint(op, key, allowed).as_deref(), see))
}

/// The keys of a tool object (`defineTool`'s definition, a `relayTool`, or a tool of a source).
/// `run` and `needsApproval` are functions, which the edge hands over as `true`.
pub const TOOL_KEYS: &[&str] = &["name", "description", "inputSchema", "jsonSchema", "source", "needsApproval", "run", "agent"];

/// Checks the keys of a tool object named `what` (`tools[2]`); other libraries' names of its
/// members get this package's.
pub fn check_tool_keys(what: &str, keys: &[String]) -> Result<()> {
    let Some(key) = stray(keys, TOOL_KEYS) else { return Ok(()) };
    let hint = match key {
        "parameters" | "input_schema" | "schema" | "inputschema" | "argsSchema" => Some("inputSchema"),
        "execute" | "handler" | "fn" | "call" | "invoke" => Some("run"),
        "type" | "function" => Some("defineTool({ name, description, inputSchema, run }) (this is the provider's wire format)"),
        "requiresApproval" | "needApproval" | "approval" => Some("needsApproval"),
        _ => in_other_case(key, TOOL_KEYS),
    };
    Err(refuse(what, "key", key, hint, "ToolDefinition"))
}

/// Checks the keys of `createToolkit`'s options object (an array of tools has none).
pub fn check_toolkit_keys(keys: &[String]) -> Result<()> {
    let Some(key) = stray(keys, &["tools"]) else { return Ok(()) };
    let hint = if key.eq_ignore_ascii_case("tools") { Some("tools") } else { None };
    Err(refuse("createToolkit options", "option", key, hint, "createToolkit"))
}
