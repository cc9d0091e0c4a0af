//! The provider-neutral transcript. The loop only ever works on these types; `dialect` renders
//! them in any provider's dialect and reads any back (the views and readers live in the provider
//! folders), so a conversation is not locked to the style that started it.
//!
//! User messages and tool results may carry images (`part`); assistant turns are text, calls and
//! the provider's opaque reasoning state ([`Reasoning`]: thinking blocks, thought signatures,
//! reasoning items), kept verbatim and replayed only to the provider and model that made it.
//! Deliberately not modelled: non-image media (refused when read, never dropped).

use crate::error::Error;
use crate::json::str_at;
use crate::part::{has_image, read_parts, text_of, Part};
use crate::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    System(String),
    User(String),
    /// A user message with at least one image: its parts in order (text-only ones are `User`).
    UserParts(Vec<Part>),
    Assistant(AssistantTurn),
    /// The results answering one assistant turn's calls, in call order.
    Tool(Vec<ToolOutput>),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AssistantTurn {
    pub text: String,
    pub calls: Vec<ToolCall>,
    /// The provider's opaque reasoning state for this turn, if it sent any.
    pub reasoning: Option<Reasoning>,
}

/// Reasoning state a provider requires back verbatim in later requests (Anthropic `thinking` /
/// `redacted_thinking` blocks, Gemini thought parts and signatures, OpenAI Responses `reasoning`
/// items and server-run tool items). It is tagged with the provider and model that produced it:
/// sent to any other, it is a 400, so it is replayed only to the same (see
/// [`AssistantTurn::reasoning_for`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reasoning {
    /// `"anthropic"`, `"gemini"` or `"openai"` (the Responses API): whose format `items` are in.
    pub provider: String,
    /// The model it came from; empty when unknown (a history that did not say), which matches
    /// any model of `provider`.
    pub model: String,
    /// Opaque items exactly as received, each with the number of the turn's calls before it
    /// (0: before the text and the first call). Their order among themselves is kept.
    pub items: Vec<(usize, Value)>,
    /// Gemini: the `thoughtSignature` of the turn's text part.
    pub text_signature: Option<String>,
}

/// The member of a rendered assistant message (a result's `messages`, a saved state) that says
/// whose reasoning it carries: `{ provider, model }`. Never sent to a provider.
pub const ORIGIN_KEY: &str = "reasoningOrigin";

impl Reasoning {
    pub fn new(provider: &str) -> Reasoning {
        Reasoning { provider: provider.to_string(), ..Reasoning::default() }
    }

    /// Whether this is for `provider` and, when given, `model` (a request); `None` accepts any
    /// model of the provider (a rendering for the state or a result).
    pub fn is_for(&self, provider: &str, model: Option<&str>) -> bool {
        self.provider == provider && model.map_or(true, |m| self.model.is_empty() || self.model == m)
    }

    /// Copies into `out` the items that come right before call `k` (or, for `k == 0`, before
    /// the text).
    pub fn push_before(&self, k: usize, out: &mut Vec<Value>) {
        for (at, v) in &self.items {
            if *at == k {
                out.push(v.clone());
            }
        }
    }

    /// Copies into `out` the items after the last of the turn's `calls` calls (none when it has
    /// no calls: then every item comes before the text).
    pub fn push_after(&self, calls: usize, out: &mut Vec<Value>) {
        for (at, v) in &self.items {
            if calls > 0 && *at >= calls {
                out.push(v.clone());
            }
        }
    }

    /// `{ provider, model }`: how a rendered message says whose reasoning it carries.
    pub fn origin_value(&self) -> Value {
        crate::json::obj(vec![("provider", self.provider.as_str().into()), ("model", self.model.as_str().into())])
    }

    /// Reads `{ provider, model }` written by [`Reasoning::origin_value`].
    pub fn from_origin(v: Option<&Value>) -> Option<Reasoning> {
        let v = v?;
        let provider = str_at(v, "provider")?;
        let mut r = Reasoning::new(provider);
        r.model = str_at(v, "model").unwrap_or_default().to_string();
        Some(r)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.text_signature.is_none()
    }
}

impl AssistantTurn {
    /// This turn's reasoning state if it may go to `provider` (and `model`, for a request);
    /// foreign reasoning is dropped, never replayed.
    pub fn reasoning_for(&self, provider: &str, model: Option<&str>) -> Option<&Reasoning> {
        self.reasoning.as_ref().filter(|r| r.is_for(provider, model))
    }

    /// Whether the turn holds nothing at all: no text, calls or reasoning.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.calls.is_empty() && self.reasoning.as_ref().map_or(true, Reasoning::is_empty)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolCall {
    /// The provider's call id: the key that pairs a call with its result.
    pub id: String,
    pub name: String,
    /// The arguments exactly as the provider sent them: OpenAI's raw string, or the serialised
    /// `input` object for Anthropic.
    pub arguments: String,
    /// Gemini's `thoughtSignature` on this call's part, verbatim. Like [`Reasoning`] it belongs to
    /// the turn's reasoning origin and is sent back only to the same provider and model.
    pub signature: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    pub call_id: String,
    pub name: String,
    pub output: String,
    pub is_error: bool,
    /// What the result carries beside its text (images), in order.
    pub parts: Vec<Part>,
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::User(text.to_string())
    }
}

impl Message {
    /// A user message of these parts: `UserParts` when one is an image, else `User` with the
    /// text joined.
    pub fn user(parts: Vec<Part>) -> Message {
        if has_image(&parts) {
            return Message::UserParts(parts);
        }
        Message::User(text_of(&parts))
    }

    /// A prompt as `run` / `ask` / `stream` take it: a string, or a non-empty array of text and
    /// image parts.
    pub fn prompt(v: &Value) -> crate::error::Result<Message> {
        match v {
            Value::String(s) => Ok(Message::User(s.clone())),
            Value::Array(a) if !a.is_empty() => read_parts(v, "prompt").map(Message::user).map_err(Error::bad_input),
            _ => Err(Error::bad_input("prompt must be a string or an array of parts")),
        }
    }
}

impl ToolCall {
    /// The arguments as a JSON object. `""`, `null` and whitespace mean `{}`; anything else that
    /// is not a JSON object is an error the loop feeds back to the model as a tool result.
    pub fn input(&self) -> Result<Map<String, Value>, String> {
        let raw = self.arguments.trim();
        if raw.is_empty() || raw == "null" {
            return Ok(Map::new());
        }
        match crate::json::parse(raw) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(other) => Err(format!("arguments must be a JSON object, got {}", kind_of(&other))),
            Err(e) => Err(format!("arguments are not valid JSON ({e})")),
        }
    }

    /// The arguments as an object for wire formats that need one; invalid arguments become `{}`
    /// there because their error result has already been fed back.
    pub fn input_or_empty(&self) -> Map<String, Value> {
        self.input().unwrap_or_default()
    }
}

pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub prompt_tokens: u64,
    /// Everything the model wrote, its reasoning included (as every provider but Gemini counts
    /// it; Gemini's thoughts are added in).
    pub completion_tokens: u64,
    pub total_tokens: u64,
    /// The part of `completion_tokens` spent on reasoning, where the provider says (OpenAI
    /// `reasoning_tokens`, Gemini `thoughtsTokenCount`; Anthropic does not). Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reasoning_tokens: u64,
    /// The part of `prompt_tokens` read from the provider's prompt cache (OpenAI and Responses
    /// `cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini `cachedContentTokenCount`).
    /// Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read_tokens: u64,
    /// The part of `prompt_tokens` written to the cache (Anthropic `cache_creation_input_tokens`;
    /// the others do not charge or report writes). Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// What is left of `self` after `other` (saturating at zero).
    pub fn minus(self, other: &Usage) -> Usage {
        Usage {
            prompt_tokens: self.prompt_tokens.saturating_sub(other.prompt_tokens),
            completion_tokens: self.completion_tokens.saturating_sub(other.completion_tokens),
            total_tokens: self.total_tokens.saturating_sub(other.total_tokens),
            reasoning_tokens: self.reasoning_tokens.saturating_sub(other.reasoning_tokens),
            cache_read_tokens: self.cache_read_tokens.saturating_sub(other.cache_read_tokens),
            cache_write_tokens: self.cache_write_tokens.saturating_sub(other.cache_write_tokens),
        }
    }

    /// Counts come from the provider and are not trusted: they saturate instead of overflowing.
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(other.prompt_tokens);
        self.completion_tokens = self.completion_tokens.saturating_add(other.completion_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
        self.reasoning_tokens = self.reasoning_tokens.saturating_add(other.reasoning_tokens);
        self.cache_read_tokens = self.cache_read_tokens.saturating_add(other.cache_read_tokens);
        self.cache_write_tokens = self.cache_write_tokens.saturating_add(other.cache_write_tokens);
    }

    /// The optional counts with their names, written only when not 0.
    fn optional(&self) -> [(&'static str, u64); 3] {
        [
            ("reasoningTokens", self.reasoning_tokens),
            ("cacheReadTokens", self.cache_read_tokens),
            ("cacheWriteTokens", self.cache_write_tokens),
        ]
    }

    /// The usage object's members, as [`Usage::to_json`] gives them.
    pub fn write(&self, u: &mut crate::json::Obj) {
        u.u64("promptTokens", self.prompt_tokens).u64("completionTokens", self.completion_tokens).u64("totalTokens", self.total_tokens);
        for (name, n) in self.optional() {
            if n > 0 {
                u.u64(name, n);
            }
        }
    }

    /// `{ promptTokens, completionTokens, totalTokens, reasoningTokens?, cacheReadTokens?,
    /// cacheWriteTokens? }`, as the `Serialize`
    /// derive writes it.
    pub fn to_json(self) -> Value {
        let mut fields = vec![
            ("promptTokens", self.prompt_tokens.into()),
            ("completionTokens", self.completion_tokens.into()),
            ("totalTokens", self.total_tokens.into()),
        ];
        for (name, n) in self.optional() {
            if n > 0 {
                fields.push((name, n.into()));
            }
        }
        crate::json::obj(fields)
    }
}

/// Appends one tool result, merged into the `Tool` message just before it if there is one (a
/// history may give each result as its own message).
pub(crate) fn push_result(out: &mut Vec<Message>, call_id: String, output: String, is_error: bool, parts: Vec<Part>) {
    let o = ToolOutput { call_id, name: String::new(), output, is_error, parts };
    match out.last_mut() {
        Some(Message::Tool(outs)) => outs.push(o),
        _ => out.push(Message::Tool(vec![o])),
    }
}

/// Appends a user message of `parts`, unless it is empty text and not `keep_empty`.
pub(crate) fn push_user(out: &mut Vec<Message>, parts: Vec<Part>, keep_empty: bool) {
    let m = Message::user(parts);
    if keep_empty || !matches!(&m, Message::User(t) if t.is_empty()) {
        out.push(m);
    }
}

/// Where the transcript's last assistant turn with calls is, and which of its calls already
/// have a result after it. Used by resume and by the balancing rule.
#[derive(Debug, PartialEq)]
pub struct OpenTurn {
    pub index: usize,
    pub calls: Vec<ToolCall>,
    /// One slot per call, in call order: the result found in the transcript, if any.
    pub results: Vec<Option<ToolOutput>>,
}

/// Finds the last assistant turn that has tool calls and collects the results that follow it.
pub fn last_tool_turn(messages: &[Message]) -> Option<OpenTurn> {
    let index = messages.iter().rposition(|m| matches!(m, Message::Assistant(t) if !t.calls.is_empty()))?;
    let Some(Message::Assistant(turn)) = messages.get(index) else { return None };
    let mut results: Vec<Option<ToolOutput>> = crate::small::nones(turn.calls.len());
    for m in messages.get(index + 1..).unwrap_or_default() {
        if let Message::Tool(outs) = m {
            for o in outs {
                if let Some(slot) = turn.calls.iter().position(|c| c.id == o.call_id).and_then(|i| results.get_mut(i)) {
                    slot.get_or_insert_with(|| o.clone());
                }
            }
        }
    }
    Some(OpenTurn { index, calls: turn.calls.clone(), results })
}

/// The provider must never see a call without a result. Any assistant
/// turn whose calls are not all answered gets explicit error results for the missing ones, placed
/// right after the turn, so a transcript replayed after an abandoned halt is still valid.
pub fn balance(messages: &mut Vec<Message>) {
    let mut i = 0;
    while i < messages.len() {
        if let Message::Assistant(turn) = &messages[i] {
            if !turn.calls.is_empty() {
                let mut seen: Vec<String> = Vec::new();
                let mut j = i + 1;
                while let Some(Message::Tool(outs)) = messages.get(j) {
                    for o in outs {
                        seen.push(o.call_id.clone());
                    }
                    j += 1;
                }
                let mut missing: Vec<ToolOutput> = Vec::new();
                for c in turn.calls.iter().filter(|c| !seen.contains(&c.id)) {
                    missing.push(ToolOutput {
                        call_id: c.id.clone(),
                        name: c.name.clone(),
                        output: format!("no result supplied for {}", c.name),
                        is_error: true,
                        parts: Vec::new(),
                    });
                }
                if !missing.is_empty() {
                    if let Some(Message::Tool(outs)) = messages.get_mut(j - 1).filter(|_| j > i + 1) {
                        outs.append(&mut missing);
                    } else {
                        crate::small::insert(messages, i + 1, Message::Tool(missing));
                        j += 1;
                    }
                }
                i = j;
                continue;
            }
        }
        i += 1;
    }
}

/// The usage of each agent below a run, by path (`research`, `research/browse`): each agent's
/// own model calls, its children's under their own paths. The run's `usage` is the sum of its
/// own and all of these.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentUsage(pub Vec<(String, Usage)>);

impl AgentUsage {
    /// Adds `usage` to `path`'s entry (an agent called twice is one entry).
    pub fn add(&mut self, path: &str, usage: Usage) {
        match self.0.iter_mut().find(|(p, _)| p == path) {
            Some((_, u)) => u.add(usage),
            None => self.0.push((path.into(), usage)),
        }
    }

    /// Rolls a child segment's usage in under `agent`: its descendants' entries under
    /// `agent/…`, and what is left of its total (its own model calls) under `agent`.
    pub fn roll_in(&mut self, agent: &str, total: Usage, below: &AgentUsage) {
        let mut own = total;
        for (path, u) in &below.0 {
            own = own.minus(u);
            self.add(&format!("{agent}/{path}"), *u);
        }
        self.add(agent, own);
    }

    pub fn write(&self, o: &mut crate::json::Obj) {
        if !self.0.is_empty() {
            o.obj("agentUsage", |o| {
                for (path, u) in &self.0 {
                    o.value(path, &u.to_json());
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str) -> ToolCall {
        ToolCall { id: id.into(), name: format!("t_{id}"), arguments: "{}".into(), signature: None }
    }
    fn out(id: &str) -> ToolOutput {
        ToolOutput { call_id: id.into(), name: format!("t_{id}"), output: "ok".into(), is_error: false, parts: vec![] }
    }

    #[test]
    fn arguments_that_are_not_an_object_are_reported() {
        let mut c = call("a");
        c.arguments = "".into();
        assert!(c.input().unwrap().is_empty());
        c.arguments = "[1]".into();
        assert!(c.input().unwrap_err().contains("an array"));
        c.arguments = "{\"a\":".into();
        assert!(c.input().unwrap_err().contains("not valid JSON"));
    }

    #[test]
    fn balance_fills_missing_results_after_the_turn() {
        let mut m = vec![
            Message::User("u".into()),
            Message::Assistant(AssistantTurn { text: String::new(), calls: vec![call("a"), call("b")], reasoning: None }),
            Message::Tool(vec![out("a")]),
            Message::User("next".into()),
        ];
        balance(&mut m);
        let Message::Tool(outs) = &m[2] else { panic!("{m:?}") };
        assert_eq!(outs.len(), 2);
        assert!(outs[1].is_error && outs[1].call_id == "b");
        assert_eq!(m.len(), 4);

        let mut bare = vec![Message::Assistant(AssistantTurn { text: String::new(), calls: vec![call("x")], reasoning: None })];
        balance(&mut bare);
        assert!(matches!(&bare[1], Message::Tool(o) if o[0].call_id == "x"));
    }

    #[test]
    fn usage_sums_saturate_at_u64_max() {
        let mut u =
            Usage { prompt_tokens: u64::MAX, completion_tokens: 1, total_tokens: u64::MAX, reasoning_tokens: 0, ..Usage::default() };
        u.add(Usage { prompt_tokens: 1, completion_tokens: 2, total_tokens: u64::MAX, reasoning_tokens: 0, ..Usage::default() });
        assert_eq!(
            u,
            Usage { prompt_tokens: u64::MAX, completion_tokens: 3, total_tokens: u64::MAX, reasoning_tokens: 0, ..Usage::default() }
        );
    }

    #[test]
    fn last_tool_turn_maps_results_by_id() {
        let m = vec![
            Message::Assistant(AssistantTurn { text: String::new(), calls: vec![call("a"), call("b")], reasoning: None }),
            Message::Tool(vec![out("b")]),
        ];
        let t = last_tool_turn(&m).unwrap();
        assert_eq!(t.index, 0);
        assert!(t.results[0].is_none() && t.results[1].is_some());
    }
}
