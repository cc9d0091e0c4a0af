//! Tool declarations, tool results and the toolkit (declarations only: the functions that run
//! host tools live with the host, behind the driver's `ToolExecutor`).

use crate::error::{Code, Error, Result};
use crate::json::obj;
use crate::part::{parts_value, read_parts, Part};
use crate::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

pub const SOURCE_RELAY: &str = "relay";
pub const SOURCE_NATIVE: &str = "native";
/// The `source` of an agent tool (`agentTool`)'s declaration.
pub const SOURCE_AGENT: &str = "agent";

/// Where a declared tool runs. Only `Relay` changes behaviour (declaration-only: the call is
/// handed to the caller); any other source is a host tool, and its name is only a metrics label.
/// Whether a call names a declared tool at all is a separate fact (`Invocation::known`), so no
/// source string doubles as an "unknown tool" marker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ToolSource {
    #[default]
    Native,
    Relay,
    /// A loop of its own (`agentTool`): the call runs a child agent over its own tools.
    Agent,
    Other(String),
}

impl ToolSource {
    pub fn as_str(&self) -> &str {
        match self {
            ToolSource::Native => SOURCE_NATIVE,
            ToolSource::Relay => SOURCE_RELAY,
            ToolSource::Agent => SOURCE_AGENT,
            ToolSource::Other(s) => s,
        }
    }
}

impl From<&str> for ToolSource {
    fn from(s: &str) -> Self {
        match s {
            SOURCE_NATIVE => ToolSource::Native,
            SOURCE_RELAY => ToolSource::Relay,
            SOURCE_AGENT => ToolSource::Agent,
            other => ToolSource::Other(other.to_string()),
        }
    }
}

impl From<String> for ToolSource {
    fn from(s: String) -> Self {
        match s.as_str() {
            SOURCE_NATIVE | SOURCE_RELAY | SOURCE_AGENT => ToolSource::from(s.as_str()),
            _ => ToolSource::Other(s),
        }
    }
}

/// On the wire a source is its plain string, as hosts write it.
impl Serialize for ToolSource {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ToolSource {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        String::deserialize(d).map(ToolSource::from)
    }
}

/// The builtin names a relay tool may never take, even though this
/// package ships no builtins: a future builtin must not capture a declaration-only tool.
pub const BUILTIN_NAMES: [&str; 10] = ["bash", "read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_schema")]
    pub input_schema: Value,
    #[serde(default)]
    pub source: ToolSource,
    /// What an agent tool runs (`source: "agent"`); shared, since every run clones its toolkit.
    #[serde(skip)]
    pub agent: Option<alloc::rc::Rc<AgentSpec>>,
}

/// What runs when an agent tool is called: a loop of its own over its own tools, with the
/// parent's provider settings unless it names others.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub system_prompt: String,
    pub tools: Toolkit,
    /// The parent's `maxTurns` when not given.
    pub max_turns: Option<u32>,
    pub model: Option<String>,
    pub style: Option<crate::style::Style>,
    pub base_url: Option<String>,
}

/// `defineTool`'s default schema.
pub fn default_schema() -> Value {
    obj(vec![("type", "object".into()), ("properties", Value::Object(Map::new())), ("additionalProperties", Value::Bool(false))])
}

/// `relayTool`'s default schema.
pub fn default_relay_schema() -> Value {
    obj(vec![("type", "object".into()), ("properties", Value::Object(Map::new()))])
}

impl ToolSpec {
    /// The `Value` its `Serialize` derive gives (`serde_json::to_value` links serde's whole
    /// value serializer for the few shapes the core hands to hooks).
    pub fn to_value(&self) -> Value {
        obj(vec![
            ("name", self.name.as_str().into()),
            ("description", self.description.as_str().into()),
            ("inputSchema", self.input_schema.clone()),
            ("source", self.source.as_str().into()),
        ])
    }

    /// A declaration as a host writes it: `{ name, description?, inputSchema?, source? }`.
    pub fn from_json(v: &Value, what: &str) -> core::result::Result<ToolSpec, String> {
        let o = crate::json::object(v, what)?;
        Ok(ToolSpec {
            name: crate::json::opt_str(o, "name", what)?.ok_or_else(|| format!("{what}.name is required"))?,
            description: crate::json::str_or_empty(o, "description", what)?,
            input_schema: o.get("inputSchema").filter(|s| !s.is_null()).cloned().unwrap_or_else(default_schema),
            source: crate::json::opt_str(o, "source", what)?.map(ToolSource::from).unwrap_or_default(),
            agent: None,
        })
    }

    pub fn is_relay(&self) -> bool {
        self.source == ToolSource::Relay
    }

    /// Checks a declaration: the name must pass [`check_name`] (never renamed: a relay host
    /// matches calls on the name it declared), the schema must be a JSON object.
    pub fn validated(self) -> Result<ToolSpec> {
        if self.name.is_empty() {
            return Err(Error::bad_input("a tool needs a non-empty name"));
        }
        check_name(&self.name, matches!(self.source, ToolSource::Native | ToolSource::Relay | ToolSource::Agent))?;
        if (self.source == ToolSource::Agent) != self.agent.is_some() {
            return Err(Error::bad_input(format!(
                "tool {}: an agent tool is made by agentTool() and only it has source \"agent\"",
                self.name
            )));
        }
        if !self.input_schema.is_object() {
            return Err(Error::bad_input(format!("tool {}: inputSchema must be a JSON object", self.name)));
        }
        Ok(self)
    }
}

/// The longest tool name every provider accepts (OpenAI's limit; Anthropic's is 128).
pub const MAX_NAME_LEN: usize = 64;

/// The rule for a tool's name, as the refusal states it.
pub const NAME_RULE: &str = "1 to 64 letters, digits, _ or - ([a-zA-Z0-9_-]{1,64}), the names every provider accepts";

/// Refuses a name a provider would reject (`bad_input` naming the rule and a name that passes).
/// `whole`: the length is checked too. It is for the names a host chose (`defineTool`,
/// `relayTool`); a remote source's names (MCP, HTTP, A2A) are sanitised by the source
/// ([`sanitize_name`]) and their length is the server's, which the host cannot change.
pub fn check_name(name: &str, whole: bool) -> Result<()> {
    // Bytes: any byte of a non-ASCII character is refused anyway, so a length in bytes is one in
    // characters whenever it matters.
    let bad_char = name.bytes().any(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
    let long = whole && name.len() > MAX_NAME_LEN;
    if !bad_char && !long {
        return Ok(());
    }
    // ASCII only: a byte offset is a character one.
    let fix = sanitize_name(name);
    let fix = fix.get(..MAX_NAME_LEN).unwrap_or(&fix);
    Err(Error::bad_input(format!("tool name \"{name}\" is refused: a tool name is {NAME_RULE}; try \"{fix}\"")))
}

/// Every character outside `[a-zA-Z0-9_-]` becomes `_`: remote sources' names (an MCP server's,
/// an A2A agent's), which are not the host's to choose.
pub fn sanitize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        out.push(if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' });
    }
    out
}

/// The declarations a run offers the model, in the order they were added. Cloning is cheap
/// (shared), because every run clones it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Toolkit {
    tools: alloc::rc::Rc<Vec<ToolSpec>>,
}

impl Toolkit {
    pub fn new(tools: Vec<ToolSpec>) -> Result<Toolkit> {
        let mut kit = Toolkit::default();
        let mut valid = Vec::with_capacity(tools.len());
        for t in tools {
            valid.push(t.validated()?);
        }
        let tools = valid;
        check_collisions(&tools)?;
        for t in tools {
            kit.push(t)?;
        }
        Ok(kit)
    }

    /// Adds one tool later; the collision guard applies here too.
    pub fn add(&mut self, tool: ToolSpec) -> Result<()> {
        let tool = tool.validated()?;
        check_collisions(core::slice::from_ref(&tool))?;
        self.push(tool)
    }

    fn push(&mut self, tool: ToolSpec) -> Result<()> {
        if self.get(&tool.name).is_some() {
            return Err(Error::bad_input(format!("duplicate tool name \"{}\"", tool.name)));
        }
        alloc::rc::Rc::make_mut(&mut self.tools).push(tool);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.tools.iter().find(|t| t.name == name)
    }

    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }
}

fn check_collisions(tools: &[ToolSpec]) -> Result<()> {
    let mut hits: Vec<&str> = Vec::new();
    for t in tools.iter().filter(|t| t.is_relay() && BUILTIN_NAMES.contains(&t.name.as_str())) {
        hits.push(&t.name);
    }
    crate::small::sort_by(&mut hits, |a, b| a.cmp(b));
    if hits.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        Code::RelayCollision,
        format!(
            "toolnexus: relay tool name collides with a built-in tool: [{}] — rename the relay tool \
             (the guard applies even with builtins disabled, so a future builtin cannot capture a \
             declaration-only tool)",
            crate::small::join(&hits, " ")
        ),
    ))
}

/// A host's output as text: a string as is, other JSON values as JSON text (not dropped).
pub(crate) fn output_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => crate::json::to_text(other),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub output: String,
    pub is_error: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Images (and text) sent to the model after `output`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

impl ToolResult {
    /// The `Value` its `Serialize` derive gives.
    pub fn to_value(&self) -> Value {
        let mut fields = vec![("output", self.output.as_str().into()), ("isError", self.is_error.into())];
        if let Some(m) = &self.metadata {
            fields.push(("metadata", Value::Object(m.clone())));
        }
        if !self.parts.is_empty() {
            fields.push(("parts", parts_value(&self.parts, &crate::part::NEUTRAL)));
        }
        obj(fields)
    }

    pub fn ok(output: impl Into<String>) -> Self {
        ToolResult { output: output.into(), is_error: false, metadata: None, parts: Vec::new() }
    }
    pub fn error(output: impl Into<String>) -> Self {
        ToolResult { output: output.into(), is_error: true, metadata: None, parts: Vec::new() }
    }

    /// `output` (text or JSON data, as text) with `parts` (a list of parts, when given), or an
    /// error result naming what is wrong with the parts: they are never dropped.
    pub fn with_parts(output: String, is_error: bool, parts: Option<&Value>) -> ToolResult {
        match parts.filter(|p| !p.is_null()).map(|p| read_parts(p, "parts")).transpose() {
            Ok(parts) => ToolResult { output, is_error, metadata: None, parts: parts.unwrap_or_default() },
            Err(e) => ToolResult::error(e),
        }
    }

    /// The result of a call to a tool no one declared (or, at a host, that has no function).
    pub fn unknown(name: &str) -> Self {
        ToolResult::error(format!("Unknown tool: {name}"))
    }

    /// A host tool's reply as the edge settles it: `kind` 0 a string `text`, 1 the JSON `text`
    /// of any other value, 2 the message of a throw; anything else (or `text` that does not
    /// parse) is a value that is not JSON data, an error result naming tool `name`.
    pub fn from_host_reply(name: &str, kind: Option<f64>, text: String) -> ToolResult {
        let not_data = || ToolResult::error(format!("tool {name} returned a value that is not JSON data"));
        use crate::ops::ToolReply;
        match kind.and_then(|k| ToolReply::of(k as u8)) {
            Some(ToolReply::Text) => ToolResult::from_return(Value::String(text)),
            Some(ToolReply::Json) => crate::json::parse(&text).map_or_else(|_| not_data(), ToolResult::from_return),
            Some(ToolReply::Threw) => ToolResult::error(text),
            _ => not_data(),
        }
    }

    /// Normalises whatever a host tool returned: a string is the output; an object with
    /// `output` and either `isError` (a boolean) or `parts` (an array: images for the model)
    /// passes through; anything else, a plain array included, is JSON text.
    pub fn from_return(value: Value) -> ToolResult {
        match value {
            Value::String(s) => ToolResult::ok(s),
            Value::Null => ToolResult::ok(""),
            Value::Object(ref m)
                if m.contains_key("output")
                    && (m.get("isError").is_some_and(Value::is_boolean) || m.get("parts").is_some_and(Value::is_array)) =>
            {
                let output = output_text(m.get("output"));
                let mut r = ToolResult::with_parts(output, matches!(m.get("isError"), Some(Value::Bool(true))), m.get("parts"));
                r.metadata = m.get("metadata").and_then(Value::as_object).cloned();
                r
            }
            other => ToolResult::ok(crate::json::to_text(&other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_replies() {
        let r = |k: f64, t: &str| ToolResult::from_host_reply("t", Some(k), t.into());
        assert_eq!((r(0.0, "[1]").output, r(0.0, "[1]").is_error), ("[1]".into(), false));
        assert_eq!((r(1.0, "[1]").output, r(1.0, "[1]").is_error), ("[1]".into(), false));
        assert_eq!((r(2.0, "boom").output, r(2.0, "boom").is_error), ("boom".into(), true));
        let not_data = "tool t returned a value that is not JSON data";
        assert_eq!((r(1.0, "{").output, r(1.0, "{").is_error), (not_data.into(), true));
        assert_eq!(ToolResult::from_host_reply("t", Some(3.0), String::new()).output, not_data);
        assert!(ToolResult::from_host_reply("t", None, String::new()).is_error);
    }
    use serde_json::json;

    fn relay(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            input_schema: default_relay_schema(),
            source: SOURCE_RELAY.into(),
            agent: None,
        }
    }

    #[test]
    fn collision_guard_names_every_clash_sorted() {
        let err = Toolkit::new(vec![relay("write"), relay("bash"), relay("click")]).unwrap_err();
        assert_eq!(err.code(), "relay_collision");
        assert_eq!(
            err.message,
            "toolnexus: relay tool name collides with a built-in tool: [bash write] — rename the relay tool \
             (the guard applies even with builtins disabled, so a future builtin cannot capture a declaration-only tool)"
        );
        let mut kit = Toolkit::new(vec![relay("click")]).unwrap();
        assert_eq!(kit.add(relay("grep")).unwrap_err().code(), "relay_collision");
        let mut native = relay("bash");
        native.source = SOURCE_NATIVE.into();
        kit.add(native).expect("a non-relay tool may shadow a builtin");
    }

    #[test]
    fn sources_read_and_write_as_their_strings() {
        for (s, src) in [("native", ToolSource::Native), ("relay", ToolSource::Relay), ("custom", ToolSource::Other("custom".into()))] {
            assert_eq!(ToolSource::from(s), src);
            assert_eq!(ToolSource::from(s.to_string()), src);
            assert_eq!(serde_json::to_value(&src).unwrap(), json!(s));
            assert_eq!(src.as_str(), s);
        }
        let spec = ToolSpec::from_json(&json!({"name": "t", "source": "custom"}), "tool").unwrap();
        assert_eq!(spec.source, ToolSource::Other("custom".into()));
        assert!(!spec.is_relay());
        assert_eq!(ToolSpec::from_json(&json!({"name": "t"}), "tool").unwrap().source, ToolSource::Native);
    }

    #[test]
    fn names_a_provider_would_reject_are_refused_never_renamed() {
        let e = Toolkit::new(vec![relay("look up price")]).unwrap_err();
        assert_eq!(e.code(), "bad_input");
        assert_eq!(
            e.message,
            "tool name \"look up price\" is refused: a tool name is 1 to 64 letters, digits, _ or - ([a-zA-Z0-9_-]{1,64}), \
             the names every provider accepts; try \"look_up_price\""
        );
        let long = "a".repeat(65);
        assert!(Toolkit::new(vec![relay(&long)]).unwrap_err().message.ends_with(&format!("try \"{}\"", &long[..64])));
        assert!(Toolkit::new(vec![relay(&long[..64]), relay("a-b_C9")]).is_ok());
        // A remote source's name is sanitised by the source; its length is the server's.
        let remote = ToolSpec { source: ToolSource::Other("mcp".into()), ..relay(&long) };
        assert!(Toolkit::new(vec![remote.clone()]).is_ok());
        assert!(Toolkit::new(vec![ToolSpec { name: "a.b".into(), ..remote }]).is_err(), "characters are checked for every source");
        assert_eq!(sanitize_name("a.b c"), "a_b_c");
        assert_eq!(Toolkit::new(vec![relay("x"), relay("x")]).unwrap_err().code(), "bad_input");
    }

    #[test]
    fn host_returns_are_normalised() {
        assert_eq!(ToolResult::from_return(json!("hi")), ToolResult::ok("hi"));
        assert_eq!(ToolResult::from_return(json!({"a": 1})), ToolResult::ok("{\"a\":1}"));
        assert_eq!(ToolResult::from_return(json!(3)), ToolResult::ok("3"));
        let r = ToolResult::from_return(json!({"output": "no", "isError": true, "metadata": {"k": 1}}));
        assert!(r.is_error && r.output == "no" && r.metadata.is_some());
        // only one of the two keys: not a result object, so it is JSON text
        assert_eq!(ToolResult::from_return(json!({"output": "x"})).output, "{\"output\":\"x\"}");
    }

    #[test]
    fn hand_values_equal_the_derives() {
        let spec = ToolSpec { description: "d".into(), ..relay("t") };
        assert_eq!(crate::json::to_text(&spec.to_value()), serde_json::to_string(&spec).unwrap());
        let mut meta = Map::new();
        meta.insert("k".into(), json!([1, "x"]));
        let parts = vec![Part::Text("t".into())];
        for r in [ToolResult::ok("a\"b"), ToolResult { output: "o".into(), is_error: true, metadata: Some(meta), parts }] {
            assert_eq!(crate::json::to_text(&r.to_value()), serde_json::to_string(&r).unwrap());
        }
    }
}
