//! Skills as data: `{ name, description?, body, resources?, base? }` (`content` is read as
//! `body` too), offered to the model as one `skill` tool that loads a skill's instructions on
//! demand, plus a catalog for the system prompt. The shapes follow the reference (a
//! `<skill_content>` block with the skill's base and, when it lists resources, a `<skill_files>`
//! block; the catalog lists described skills by name); the prose is this package's own. There is
//! no filesystem discovery: a host that keeps skills in storage passes them as data.

use crate::error::{Error, Result};
use crate::json;
use crate::tool::ToolResult;
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: String,
    pub description: Option<String>,
    pub body: String,
    pub resources: Vec<String>,
    pub base: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skills {
    /// In the order given; a later skill with a name already taken is dropped.
    pub skills: Vec<Skill>,
    /// How many resources a loaded skill lists (0: 10, -1: no list).
    pub sample_limit: i64,
}

const DESCRIPTION: &str = "Load the full instructions of one of the skills listed in the system prompt, \
when the task matches it. Pass its exact name; the instructions (and the resources they refer to) come back.";
const PREAMBLE: &str =
    "Skills are packaged instructions for particular tasks.\nWhen a task matches a skill below, load it with the skill tool first.";

impl Skills {
    /// `skills` and `{ filter?, sampleLimit? }`: `filter` maps names to booleans (any `true`: only
    /// those; else the `false` ones are dropped).
    pub fn from_json(list: &Value, options: &Value) -> Result<Skills> {
        let what = "skillTool(skills)";
        let list = list.as_array().ok_or_else(|| Error::bad_input(format!("{what}: skills must be an array")))?;
        let mut skills: Vec<Skill> = Vec::new();
        for (i, s) in list.iter().enumerate() {
            let at = format!("{what}[{i}]");
            let o = json::object(s, &at).map_err(Error::bad_input)?;
            let name = json::opt_str(o, "name", &at).map_err(Error::bad_input)?.filter(|n| !n.is_empty());
            let name = name.ok_or_else(|| Error::bad_input(format!("{at}.name is required (a non-empty string)")))?;
            if skills.iter().any(|k| k.name == name) {
                continue;
            }
            let body = match json::opt_str(o, "body", &at).map_err(Error::bad_input)? {
                Some(b) => b,
                None => json::str_or_empty(o, "content", &at).map_err(Error::bad_input)?,
            };
            let mut resources = Vec::new();
            for r in o.get("resources").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
                resources.push(r.as_str().ok_or_else(|| Error::bad_input(format!("{at}.resources must be strings")))?.to_string());
            }
            let base = json::opt_str(o, "base", &at).map_err(Error::bad_input)?.filter(|b| !b.is_empty());
            let base = base.unwrap_or_else(|| format!("skill://{name}/"));
            let description = json::opt_str(o, "description", &at).map_err(Error::bad_input)?;
            skills.push(Skill { name, description, body, resources, base });
        }
        if let Some(filter) = options.get("filter").and_then(Value::as_object).filter(|f| !f.is_empty()) {
            let any_true = filter.values().any(|v| v == &Value::Bool(true));
            skills.retain(|s| match filter.get(&s.name) {
                Some(Value::Bool(b)) => *b,
                _ => !any_true,
            });
        }
        let sample_limit = options.get("sampleLimit").and_then(Value::as_i64).unwrap_or(0);
        Ok(Skills { skills, sample_limit })
    }

    pub fn declaration() -> Value {
        let name = json::obj(vec![("type", "string".into()), ("description", "The skill's name".into())]);
        let schema = json::obj(vec![
            ("type", "object".into()),
            ("properties", json::obj(vec![("name", name)])),
            ("required", Value::Array(vec!["name".into()])),
            ("additionalProperties", false.into()),
        ]);
        json::obj(vec![("name", "skill".into()), ("description", DESCRIPTION.into()), ("inputSchema", schema), ("source", "skill".into())])
    }

    /// Loads skill `args.name`; an unknown name is an error result listing the available ones.
    pub fn run(&self, args: &Value) -> ToolResult {
        let name = args.get("name").filter(|v| !v.is_null()).map(crate::sources::text::js_string).unwrap_or_default();
        let Some(s) = self.skills.iter().find(|s| s.name == name) else {
            let mut names: Vec<&str> = self.skills.iter().map(|s| s.name.as_str()).collect();
            crate::small::sort_by(&mut names, |a, b| a.cmp(b));
            let list = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            return ToolResult::error(format!("Skill \"{name}\" not found. Available skills: {list}"));
        };
        let limit = if self.sample_limit == 0 { 10 } else { self.sample_limit };
        let mut lines: Vec<String> = vec![
            format!("<skill_content name=\"{}\">", s.name),
            format!("# Skill: {}", s.name),
            String::new(),
            s.body.trim().to_string(),
            String::new(),
            format!("Base of this skill: {}", s.base),
            "Paths in this skill are relative to that base.".into(),
        ];
        if limit != -1 && !s.resources.is_empty() {
            let take = if limit > 0 { (limit as usize).min(s.resources.len()) } else { s.resources.len() };
            let files: Vec<String> = s.resources[..take].iter().map(|f| format!("<file>{f}</file>")).collect();
            lines.push("Resources (a sample):".into());
            lines.push(String::new());
            lines.push("<skill_files>".into());
            lines.push(files.join("\n"));
            lines.push("</skill_files>".into());
        }
        lines.push("</skill_content>".into());
        let mut meta = Map::new();
        meta.insert("name".into(), s.name.as_str().into());
        meta.insert("dir".into(), s.base.as_str().into());
        ToolResult { output: lines.join("\n"), is_error: false, metadata: Some(meta), parts: Vec::new() }
    }

    /// The catalog for the system prompt: described skills sorted by name.
    pub fn prompt(&self) -> String {
        let mut described: Vec<&Skill> = self.skills.iter().filter(|s| s.description.is_some()).collect();
        if described.is_empty() {
            return "No skills are available.".into();
        }
        crate::small::sort_by(&mut described, |a, b| a.name.cmp(&b.name));
        let mut out = format!("{PREAMBLE}\n\n## Available Skills");
        for s in described {
            out.push_str("\n- **");
            out.push_str(&s.name);
            out.push_str("**: ");
            out.push_str(s.description.as_deref().unwrap_or(""));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn skills(v: Value, o: Value) -> Skills {
        Skills::from_json(&v, &o).unwrap()
    }

    #[test]
    fn a_skill_loads_with_its_base_and_resources() {
        let s = skills(
            json!([{"name": "pdf", "description": "Fill PDF forms", "body": "  Use the form tool.\n", "resources": ["scripts/fill.py", "ref.md"]},
                   {"name": "pdf", "description": "dup", "body": "x"},
                   {"name": "notes", "content": "Write notes.", "base": "kv://skills/notes/"}]),
            json!({"sampleLimit": 1}),
        );
        assert_eq!(s.skills.len(), 2, "first wins");
        let r = s.run(&json!({"name": "pdf"}));
        assert_eq!(
            r.output,
            "<skill_content name=\"pdf\">\n# Skill: pdf\n\nUse the form tool.\n\nBase of this skill: skill://pdf/\n\
             Paths in this skill are relative to that base.\nResources (a sample):\n\n<skill_files>\n<file>scripts/fill.py</file>\n</skill_files>\n</skill_content>"
        );
        assert_eq!(Value::Object(r.metadata.unwrap()), json!({"name": "pdf", "dir": "skill://pdf/"}));
        let n = s.run(&json!({"name": "notes"}));
        assert!(n.output.contains("Write notes.\n\nBase of this skill: kv://skills/notes/") && !n.output.contains("<skill_files>"));
        let e = s.run(&json!({"name": "nope"}));
        assert_eq!((e.output.as_str(), e.is_error), ("Skill \"nope\" not found. Available skills: notes, pdf", true));
    }

    #[test]
    fn the_catalog_lists_described_skills_and_filters_apply() {
        let list = json!([{"name": "b", "description": "Bee", "body": ""}, {"name": "a", "description": "Ay", "body": ""}, {"name": "c", "body": ""}]);
        let p = skills(list.clone(), json!({})).prompt();
        assert!(p.ends_with("## Available Skills\n- **a**: Ay\n- **b**: Bee"), "{p}");
        assert_eq!(skills(list.clone(), json!({"filter": {"a": true}})).skills.len(), 1);
        assert_eq!(
            skills(list.clone(), json!({"filter": {"a": false}})).skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["b", "c"]
        );
        assert_eq!(skills(json!([]), json!({})).prompt(), "No skills are available.");
        assert_eq!(
            Skills::from_json(&json!([{"body": "x"}]), &json!({})).unwrap_err().message,
            "skillTool(skills)[0].name is required (a non-empty string)"
        );
        assert_eq!(Skills::declaration()["inputSchema"]["required"], json!(["name"]));
    }
}
