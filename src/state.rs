//! The durable documents: a pending `RunResult` (what `run` returns and `runWithAnswer` takes) and
//! the `ConversationState` a store keeps per conversation id. Both carry `schemaVersion`; older
//! versions would be migrated here, newer ones are refused clearly.
//! Frozen fixtures of each released version live in `tests/fixtures/state/` and must keep loading.
//! Neither ever holds a key or a function.

use crate::dialect;
use crate::error::{Error, Result};
use crate::json;
use crate::json::str_in;
use crate::message::{Message, ToolOutput};
use crate::prelude::*;
use crate::provider::Style;
use crate::suspend::Request;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a `ConversationStore` saves under a conversation id. Small and plain: the transcript in
/// its style's dialect, and when the conversation is halted the request to answer and the calls
/// still waiting for a result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationState {
    pub schema_version: u32,
    pub style: Style,
    pub messages: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Request>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outstanding: Vec<Outstanding>,
    /// Counts the saves of this conversation: every save is the loaded revision plus one, so a
    /// store that checks can refuse a write based on a state that is no longer the newest (the
    /// rule is `conversation::check_revision`).
    /// Absent (0) in documents written before revisions existed.
    #[serde(default)]
    pub revision: u64,
    /// Set while a resume runs: the id of the request a resume claimed (saved, at the next
    /// revision, before the answer runs anything). A claimed conversation cannot be resumed
    /// again; `discard` is the way out of a claim a crash left behind (docs/decisions/resume-claim.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed: Option<String>,
    /// The halted (or waiting) children of the halted turn's agent calls (schema version 3).
    #[serde(skip)]
    pub children: Vec<Child>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outstanding {
    pub id: String,
    pub name: String,
}

impl ConversationState {
    /// `transcript` as it stands, halted on `pending` when given. The outstanding calls are the
    /// calls of the last tool turn that have no result.
    pub fn new(style: Style, transcript: &[Message], pending: Option<Request>) -> Self {
        let outstanding = match (&pending, crate::message::last_tool_turn(transcript)) {
            (Some(_), Some(turn)) => (turn.calls.iter().zip(&turn.results).filter(|(_, r)| r.is_none()))
                .map(|(c, _)| Outstanding { id: c.id.clone(), name: c.name.clone() })
                .collect(),
            _ => Vec::new(),
        };
        ConversationState {
            schema_version: SCHEMA_VERSION,
            style,
            messages: dialect::render(transcript, style),
            pending,
            outstanding,
            revision: 0,
            claimed: None,
            children: Vec::new(),
        }
    }

    /// This state with the children of its halted turn.
    pub fn with_children(mut self, children: Vec<Child>) -> Self {
        self.children = children;
        self
    }

    pub(crate) fn from_json(v: &Value) -> core::result::Result<Self, String> {
        let what = "state";
        let o = json::object(v, what)?;
        let outstanding = match o.get("outstanding") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) => {
                let mut list = Vec::new();
                for x in json::array(o, "outstanding", what)? {
                    let f = json::object(x, "state.outstanding[]")?;
                    list.push(Outstanding { id: json::str_or_empty(f, "id", what)?, name: json::str_or_empty(f, "name", what)? });
                }
                list
            }
        };
        Ok(ConversationState {
            schema_version: o.get("schemaVersion").and_then(Value::as_u64).unwrap_or(0) as u32,
            style: Style::parse(&json::str_or_empty(o, "style", what)?).map_err(|e| e.message)?,
            messages: json::array(o, "messages", what)?.clone(),
            pending: match o.get("pending") {
                None | Some(Value::Null) => None,
                Some(p) => Some(Request::from_json(p, "state.pending")?),
            },
            outstanding,
            revision: o.get("revision").and_then(Value::as_u64).unwrap_or(0),
            claimed: json::opt_str(o, "claimed", what)?,
            children: read_children(o, what)?,
        })
    }

    /// The JSON text its `Serialize` derive writes, by hand (a store saves one per turn).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        json::write_obj(&mut out, |o| self.write_fields(o));
        out
    }

    /// Its members, into an object being written (a store's document, or a child's state in
    /// its parent's).
    pub fn write_fields(&self, o: &mut json::Obj) {
        o.u64("schemaVersion", u64::from(schema_version(self.schema_version, &self.children)));
        o.str("style", self.style.as_str());
        o.arr("messages", |a| {
            for m in &self.messages {
                a.value(m);
            }
        });
        if let Some(p) = &self.pending {
            o.value("pending", &p.to_value());
        }
        if !self.outstanding.is_empty() {
            o.arr("outstanding", |a| {
                for c in &self.outstanding {
                    a.obj(|o| {
                        o.str("id", &c.id).str("name", &c.name);
                    });
                }
            });
        }
        o.u64("revision", self.revision).str_opt("claimed", self.claimed.as_deref());
        write_children(o, &self.children);
    }
}

/// Reads a stored conversation and checks it is one this build can continue: a known version, a
/// readable transcript, and no call left without a result unless the conversation is halted on
/// exactly those calls (a hand-edited or half-written document is refused, not replayed).
pub fn load_conversation(v: &Value) -> Result<(ConversationState, Vec<Message>)> {
    check_version(v, "conversation state")?;
    let state = ConversationState::from_json(v).map_err(|e| Error::bad_state(format!("conversation state is invalid: {e}")))?;
    // Whatever the reader refuses in a stored document is a broken state, not the caller's input.
    let transcript = dialect::read(&state.messages).map_err(|e| Error::bad_state(e.message))?;
    let open = unanswered(&transcript);
    match (&state.pending, open.is_empty()) {
        (None, false) => Err(Error::bad_state(format!(
            "conversation state is inconsistent: calls {} have no result and no request is pending",
            crate::small::join(&open, ", ")
        ))),
        (Some(_), true) => Err(Error::bad_state("conversation state is inconsistent: a request is pending but no call is waiting")),
        (Some(p), false) if p.id.is_empty() => Err(Error::bad_state("conversation state has a pending request without an id")),
        _ => Ok((state, transcript)),
    }
}

/// Ids of calls with no result anywhere after their assistant turn.
fn unanswered(transcript: &[Message]) -> Vec<&str> {
    let mut open: Vec<&str> = Vec::new();
    for m in transcript {
        match m {
            Message::Assistant(t) => {
                for c in &t.calls {
                    open.push(c.id.as_str());
                }
            }
            Message::Tool(outs) => open.retain(|id| !outs.iter().any(|o: &ToolOutput| o.call_id == *id)),
            _ => {}
        }
    }
    open
}

fn check_version(v: &Value, what: &str) -> Result<()> {
    let obj: &Map<String, Value> = v.as_object().ok_or_else(|| Error::bad_state(format!("{what} must be a JSON object")))?;
    let version = match obj.get("schemaVersion") {
        Some(Value::Number(n)) => n.as_u64().ok_or_else(|| Error::bad_state("schemaVersion must be a positive integer"))?,
        None => return Err(Error::bad_state(format!("{what} has no schemaVersion"))),
        Some(_) => return Err(Error::bad_state("schemaVersion must be a positive integer")),
    };
    if version == 0 || version > u64::from(MAX_SCHEMA_VERSION) {
        return Err(Error::bad_state(format!(
            "unsupported state schemaVersion {version}: this build reads versions 1 to {MAX_SCHEMA_VERSION}; upgrade toolnexus-wasm"
        )));
    }
    // Version 2 added reasoning state to assistant messages (thinking blocks, thought
    // signatures, reasoning items, each message tagged with `reasoningOrigin`). A version 1
    // document has none, and every member it has means the same in version 2: it migrates as it
    // is. The bump is for the other direction: a version 1 reader would drop the reasoning and
    // resume into a request the provider refuses, so it must refuse a version 2 document.
    Ok(())
}

/// The parts of a pending state that resume needs.
#[derive(Debug)]
pub struct Halted {
    pub messages: Vec<Value>,
    pub pending: Request,
    pub children: Vec<Child>,
}

pub fn load(state: &Value) -> Result<Halted> {
    if !state.is_object() {
        return Err(Error::bad_state("state must be a JSON object (a pending RunResult)"));
    }
    if state.get("schemaVersion").is_none() {
        return Err(Error::bad_state("state has no schemaVersion; pass a RunResult returned by run/runWithAnswer"));
    }
    check_version(state, "state")?;
    let obj = state.as_object().ok_or_else(|| Error::internal("checked above"))?;
    let status = str_in(obj, "status").unwrap_or("");
    if status != "pending" {
        return Err(Error::bad_state(format!("state has status \"{status}\"; only a \"pending\" result can be resumed")));
    }
    let messages = obj.get("messages").and_then(Value::as_array).ok_or_else(|| Error::bad_state("state has no messages array"))?.clone();
    let pending = obj
        .get("pending")
        .filter(|p| p.is_object())
        .ok_or_else(|| Error::bad_state("state has no pending request"))
        .and_then(|p| Request::from_json(p, "state.pending").map_err(Error::bad_state))?;
    let children = read_children(obj, "state").map_err(|e| Error::bad_state(format!("state is invalid: {e}")))?;
    Ok(Halted { messages, pending, children })
}

/// Bumped whenever the serialised shape changes; `load` migrates older versions.
pub const SCHEMA_VERSION: u32 = 2;
/// The newest version this build reads: version 3 is a version 2 document with halted agent
/// children (`children`), which only such documents are written as ([`schema_version`]).
pub const MAX_SCHEMA_VERSION: u32 = CHILDREN_VERSION;

/// The schema version of a document with halted children. A version 2 reader would ignore
/// `children` and run a halted child again from its start, so such a document must be refused
/// there; one without children means the same in both and stays version 2, so a release from
/// before agents keeps reading every state that does not use them.
pub const CHILDREN_VERSION: u32 = 3;

/// The version a document with `children` is written as.
pub fn schema_version(base: u32, children: &[Child]) -> u32 {
    if children.is_empty() {
        base
    } else {
        base.max(CHILDREN_VERSION)
    }
}

/// The parent's copy of a child that is halted (or saved while it ran): the child's own
/// conversation state (its transcript in its dialect, the request it waits on, its own halted
/// children), keyed by the parent's delegate call. Stored as that state's own document, so one
/// reader and one writer serve a root and its children at every depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Child {
    pub call_id: String,
    pub agent: String,
    pub state: ConversationState,
}

impl Child {
    /// The request this child waits on, as its parent surfaces it.
    pub fn request(&self) -> Option<Request> {
        Some(self.state.pending.clone()?.surfaced(&self.agent, &self.call_id))
    }

    /// The request `id` this child or one of its own children is halted on, as its parent
    /// surfaces it: an answer may be for any of them, in any order.
    pub fn find(&self, id: &str) -> Option<Request> {
        let mut found = self.state.pending.as_ref().filter(|p| p.id == id).cloned();
        for c in &self.state.children {
            if found.is_some() {
                break;
            }
            found = c.find(id);
        }
        Some(found?.surfaced(&self.agent, &self.call_id))
    }
}

/// `children` of a state, when there are any: `[{ callId, agent, state }]`.
pub fn write_children(o: &mut json::Obj, children: &[Child]) {
    if !children.is_empty() {
        o.arr("children", |a| {
            for c in children {
                a.obj(|o| {
                    o.str("callId", &c.call_id).str("agent", &c.agent).obj("state", |o| c.state.write_fields(o));
                });
            }
        });
    }
}

/// `children` of a state (absent: none). Each child's state is read as a state is; JSON's own
/// nesting limit bounds how deep they go.
pub fn read_children(o: &Map<String, Value>, what: &str) -> core::result::Result<Vec<Child>, String> {
    let mut out = Vec::new();
    if matches!(o.get("children"), None | Some(Value::Null)) {
        return Ok(out);
    }
    for c in json::array(o, "children", what)? {
        let (Some(call_id), Some(agent)) = (json::str_at(c, "callId"), json::str_at(c, "agent")) else {
            return Err(format!("{what}.children[] must be {{ callId, agent, state }}"));
        };
        let state = ConversationState::from_json(c.get("state").unwrap_or(&Value::Null))?;
        out.push(Child { call_id: call_id.into(), agent: agent.into(), state });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_hand_written_text_is_what_serde_writes() {
        let t = vec![Message::User("u".into())];
        let mut s = ConversationState::new(Style::Gemini, &t, None);
        s.revision = 7;
        assert_eq!(s.to_json(), serde_json::to_string(&s).unwrap());
        s.pending = Some(Request { id: "p".into(), kind: "tool_call".into(), ..Request::default() });
        s.outstanding = vec![Outstanding { id: "c".into(), name: "n\"".into() }];
        assert_eq!(s.to_json(), serde_json::to_string(&s).unwrap());
        s.claimed = Some("p".into());
        assert_eq!(s.to_json(), serde_json::to_string(&s).unwrap());
        let back = ConversationState::from_json(&serde_json::from_str(&s.to_json()).unwrap()).unwrap();
        assert_eq!(back, s, "a claim survives the store");
    }

    #[test]
    fn unknown_versions_and_non_pending_states_are_refused() {
        let ok = json!({"schemaVersion": 1, "status": "pending", "messages": [], "pending": {"id": "p"}});
        assert_eq!(load(&ok).unwrap().pending.id, "p");
        for bad in [
            json!({"schemaVersion": 99, "status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": "1", "status": "pending", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "done", "messages": [], "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "pending", "messages": {}, "pending": {"id": "p"}}),
            json!({"schemaVersion": 1, "status": "pending", "messages": []}),
            json!([1, 2]),
        ] {
            assert_eq!(load(&bad).unwrap_err().code(), "bad_state", "{bad}");
        }
        let msg = load(&json!({"schemaVersion": 99})).unwrap_err().message;
        assert!(msg.contains("99") && msg.contains("upgrade"), "{msg}");
    }
}
