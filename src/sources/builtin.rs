//! The builtins that make sense over `fetch`, with the reference's names, schemas and results:
//! `webfetch` (GET a URL; text/markdown strip the HTML, html keeps it; here the body read is
//! capped, since a page or an extension has no disk to spill to), `question` (a pure suspension
//! of `kind: "question"`; re-run with the host's answer, its `data` is the result) and
//! `todowrite` (the list rendered back). The other seven (`bash`, `read`, `write`, `edit`,
//! `grep`, `glob`, `apply_patch`) need a filesystem or a process and are refused by name.

use crate::error::{Error, Result};
use crate::json;
use crate::suspend::{Answer, Request, ToolOutcome};
use crate::tool::ToolResult;
use serde_json::{Map, Value};

pub const AVAILABLE: [&str; 3] = ["webfetch", "question", "todowrite"];
/// What `webfetch` reads of a body by default.
pub const DEFAULT_MAX_BYTES: usize = 512 * 1024;
/// webfetch's deadline when the model gives none, and the most it may ask for, in seconds.
pub const DEFAULT_TIMEOUT_S: f64 = 30.0;
pub const MAX_TIMEOUT_S: f64 = 120.0;

fn ok(output: String, meta: Map<String, Value>) -> ToolResult {
    ToolResult { output, is_error: false, metadata: Some(meta), parts: Vec::new() }
}

fn err(output: String, meta: Option<Map<String, Value>>) -> ToolResult {
    ToolResult { output, is_error: true, metadata: meta, parts: Vec::new() }
}

/// Checks the names a host asked for (none: all three).
pub fn select(names: Option<&Value>) -> Result<Vec<&'static str>> {
    let Some(names) = names.filter(|n| !n.is_null()) else { return Ok(AVAILABLE.to_vec()) };
    let list = names.as_array().ok_or_else(|| Error::bad_input("builtinTools(names): names must be an array of strings"))?;
    let mut out = Vec::new();
    for n in list {
        let n = n.as_str().unwrap_or("");
        match AVAILABLE.iter().find(|a| **a == n) {
            Some(a) if !out.contains(a) => out.push(*a),
            Some(_) => {}
            None => {
                return Err(Error::bad_input(format!(
                    "builtinTools: \"{n}\" is not available over fetch (available: webfetch, question, todowrite)"
                )))
            }
        }
    }
    Ok(out)
}

/// `builtinTools(names, options)`'s data options: webfetch's body cap (`maxBytes`, default
/// [`DEFAULT_MAX_BYTES`]) and whether it may fetch loopback, private and link-local addresses
/// (`allowPrivate`, default false).
pub fn options(o: &Value) -> Result<(usize, bool)> {
    let max = match o.get("maxBytes") {
        None | Some(Value::Null) => DEFAULT_MAX_BYTES,
        Some(m) => {
            m.as_f64().filter(|m| *m >= 1.0).ok_or_else(|| Error::bad_input("builtinTools options.maxBytes must be a positive number"))?
                as usize
        }
    };
    let allow_private = match o.get("allowPrivate") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Error::bad_input("builtinTools options.allowPrivate must be a boolean")),
    };
    Ok((max, allow_private))
}

fn schema(props: Value, required: &str) -> Value {
    json::obj(vec![
        ("type", "object".into()),
        ("properties", props),
        ("required", Value::Array(vec![required.into()])),
        ("additionalProperties", false.into()),
    ])
}

fn s(t: &str) -> Value {
    json::obj(vec![("type", t.into())])
}

fn described(t: &str, d: &str) -> Value {
    json::obj(vec![("type", t.into()), ("description", d.into())])
}

/// `{ name, description, inputSchema, source: "builtin" }`.
pub fn declaration(name: &str) -> Value {
    let (description, input) = match name {
        "webfetch" => {
            let mut format = described("string", "Response format (default markdown)");
            if let Value::Object(o) = &mut format {
                o.insert("enum".into(), Value::Array(vec!["text".into(), "markdown".into(), "html".into()]));
            }
            let props = json::obj(vec![
                ("url", described("string", "URL to fetch")),
                ("format", format),
                ("timeout", described("number", "Timeout in seconds (default 30)")),
            ]);
            ("Fetch a web page with GET and return it as plain text, markdown or raw HTML.", schema(props, "url"))
        }
        "question" => {
            let options = json::obj(vec![("type", "array".into()), ("items", s("string"))]);
            let item = json::obj(vec![
                ("type", "object".into()),
                (
                    "properties",
                    json::obj(vec![("question", s("string")), ("header", s("string")), ("options", options), ("multiple", s("boolean"))]),
                ),
                ("required", Value::Array(vec!["question".into()])),
            ]);
            let qs = json::obj(vec![("type", "array".into()), ("description", "Questions to ask".into()), ("items", item)]);
            (
                "Ask the user one or more questions and wait for the answers (the host shows them and replies).",
                schema(json::obj(vec![("questions", qs)]), "questions"),
            )
        }
        _ => {
            let item = json::obj(vec![
                ("type", "object".into()),
                ("properties", json::obj(vec![("id", s("string")), ("text", s("string")), ("completed", s("boolean"))])),
                ("required", Value::Array(vec!["id".into(), "text".into(), "completed".into()])),
            ]);
            let todos = json::obj(vec![("type", "array".into()), ("description", "The full todo list to store".into()), ("items", item)]);
            (
                "Replace the whole todo list of this session; returns it rendered as a checklist.",
                schema(json::obj(vec![("todos", todos)]), "todos"),
            )
        }
    };
    json::obj(vec![("name", name.into()), ("description", description.into()), ("inputSchema", input), ("source", "builtin".into())])
}

fn array<'a>(args: &'a Value, key: &str) -> &'a [Value] {
    args.get(key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

/// `question`: the suspension on the first run; the answer's `data` (as JSON) once answered.
pub fn question(args: &Value, answer: Option<&Answer>) -> ToolOutcome {
    if let Some(a) = answer {
        let data = a.data.clone().map_or_else(|| Value::Object(Map::new()), Value::Object);
        return ToolOutcome::Result(ok(json::to_text(&data), Map::new()));
    }
    let questions = array(args, "questions");
    let mut lines = Vec::new();
    for q in questions {
        let mut line = q.get("question").and_then(Value::as_str).unwrap_or("").to_string();
        let opts = array(q, "options");
        if !opts.is_empty() {
            let texts: Vec<String> = opts.iter().map(crate::sources::text::js_string).collect();
            line.push_str(" (options: ");
            line.push_str(&texts.join(", "));
            line.push(')');
        }
        lines.push(line);
    }
    let mut data = Map::new();
    data.insert("questions".into(), Value::Array(questions.to_vec()));
    ToolOutcome::Suspend(Request { kind: "question".into(), prompt: lines.join("\n"), data: Some(data), ..Request::default() })
}

/// `todowrite`: `[x] text` / `[ ] text` per todo, or `(no todos)`.
pub fn todowrite(args: &Value) -> ToolResult {
    let todos = array(args, "todos");
    let mut lines = Vec::new();
    for t in todos {
        let done = t.get("completed").is_some_and(|c| !matches!(c, Value::Null | Value::Bool(false)) && c != &Value::from(0) && c != "");
        let text = t.get("text").filter(|v| !v.is_null()).map(crate::sources::text::js_string).unwrap_or_default();
        lines.push(format!("{}{text}", if done { "[x] " } else { "[ ] " }));
    }
    let rendered = lines.join("\n");
    let mut meta = Map::new();
    meta.insert("todos".into(), Value::Array(todos.to_vec()));
    ok(if rendered.is_empty() { "(no todos)".into() } else { rendered }, meta)
}

/// What one `webfetch` call asks for: the URL, the format and the timeout in ms.
pub fn webfetch_request(args: &Value) -> std::result::Result<(String, &'static str, f64), ToolResult> {
    let url = args.get("url").filter(|v| !v.is_null()).map(crate::sources::text::js_string).unwrap_or_default();
    if url.is_empty() {
        return Err(err("webfetch: url is required".into(), None));
    }
    let format = match args.get("format").and_then(Value::as_str) {
        Some("text") => "text",
        Some("html") => "html",
        _ => "markdown",
    };
    // The model's number: absent, not a number or not finite is the default; otherwise clamped
    // to 1..=120 s (the reference's cap) and whole milliseconds, so that 0, -1 or 1.2345 can
    // never mean "no deadline" (a fractional `AbortSignal.timeout` throws, 0 sets none).
    let secs = args.get("timeout").and_then(Value::as_f64).filter(|s| s.is_finite()).unwrap_or(DEFAULT_TIMEOUT_S);
    Ok((url, format, (secs.clamp(1.0, MAX_TIMEOUT_S) * 1000.0).round()))
}

/// Whether webfetch may fetch a URL, given its scheme and host as the WHATWG URL parser reads
/// them (the edge parses: `http://2130706433/` is `127.0.0.1` there). Only http and https, ever
/// (not `data:`, `file:`, `blob:`): the model names the URL, and a page from the user's machine
/// or network (loopback, private, link-local such as the cloud metadata address, `localhost`)
/// is refused unless the host allowed it (`allowPrivate`). `None` when allowed, else why not.
pub fn refused(scheme: &str, host: &str, allow_private: bool) -> Option<String> {
    if scheme != "http:" && scheme != "https:" {
        return Some(format!("webfetch: only http and https URLs are fetched (not {scheme})"));
    }
    if host.is_empty() {
        return Some("webfetch: the URL does not parse".into());
    }
    if !allow_private && private_host(host) {
        return Some(format!("webfetch: {host} is a local or private address (builtinTools option allowPrivate)"));
    }
    None
}

fn private_v4(o: [u8; 4]) -> bool {
    matches!(o, [0 | 10 | 127, ..] | [169, 254, ..] | [192, 168, ..] | [255, 255, 255, 255])
        || (o[0] == 172 && (16..32).contains(&o[1]))
        || (o[0] == 100 && (64..128).contains(&o[1]))
        || o[0] >= 224
}

fn private_host(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        let Some(g) = parse_v6(v6) else { return true }; // unreadable: refused
        let v4 = |a: u16, b: u16| [(a >> 8) as u8, a as u8, (b >> 8) as u8, b as u8];
        return g == [0; 8]
            || g == [0, 0, 0, 0, 0, 0, 0, 1]
            || (g[0] & 0xfe00) == 0xfc00
            || (g[0] & 0xffc0) == 0xfe80
            || (g[0] & 0xff00) == 0xff00
            || (g[..5] == [0; 5] && g[5] == 0xffff && private_v4(v4(g[6], g[7])))
            || (g[..6] == [0; 6] && private_v4(v4(g[6], g[7])));
    }
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() == 4 {
        let mut o = [0u8; 4];
        for (i, p) in parts.iter().enumerate() {
            match p.parse::<u8>() {
                Ok(n) if !p.is_empty() => o[i] = n,
                _ => return false, // a name, not an address
            }
        }
        return private_v4(o);
    }
    false
}

/// Eight groups of an IPv6 address as the URL parser writes it (hex, `::` once, no dotted tail).
fn parse_v6(s: &str) -> Option<[u16; 8]> {
    let group = |p: &str| u16::from_str_radix(p, 16).ok().filter(|_| !p.is_empty() && p.len() <= 4);
    let (head, tail) = match s.find("::") {
        Some(i) => (s.get(..i)?, Some(s.get(i + 2..)?)),
        None => (s, None),
    };
    let list = |p: &str| -> Option<Vec<u16>> {
        if p.is_empty() {
            Some(Vec::new())
        } else {
            p.split(':').map(group).collect()
        }
    };
    let t = match tail {
        Some(t) => list(t)?,
        None => Vec::new(),
    };
    let h = list(head)?;
    if h.len() + t.len() > 8 || (tail.is_none() && h.len() != 8) {
        return None;
    }
    let mut g = [0u16; 8];
    g[..h.len()].copy_from_slice(&h);
    g[8 - t.len()..].copy_from_slice(&t);
    Some(g)
}

/// The result of a fetched page; `truncated` when the body was cut at the cap.
pub fn webfetch_result(status: u16, body: &str, format: &str, truncated: bool) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("status".into(), status.into());
    if !(200..300).contains(&status) {
        return err(format!("HTTP {status}"), Some(meta));
    }
    meta.insert("format".into(), format.into());
    if truncated {
        meta.insert("truncated".into(), true.into());
    }
    let output = if format == "html" { body.to_string() } else { strip_html(body) };
    ok(output, meta)
}

/// The reference's light HTML → text: scripts, styles and tags dropped, spaces before a line
/// end removed, three or more line ends made two, trimmed. Linear in the page: once a search
/// for `</script>`, `</style>` or `>` finds nothing from some point, it finds nothing from any
/// later point either, so each is searched for at most once past its last match (a page of
/// repeated `<script` was quadratic: minutes at the 512 KiB cap).
pub fn strip_html(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    let (mut no_script_end, mut no_style_end, mut no_gt) = (false, false, false);
    while i < html.len() {
        let rest = lower.get(i..).unwrap_or("");
        if rest.starts_with("<script") && !no_script_end {
            match crate::small::find(rest, "</script>") {
                Some(end) => {
                    i += end + "</script>".len();
                    continue;
                }
                None => no_script_end = true,
            }
        } else if rest.starts_with("<style") && !no_style_end {
            match crate::small::find(rest, "</style>") {
                Some(end) => {
                    i += end + "</style>".len();
                    continue;
                }
                None => no_style_end = true,
            }
        }
        if rest.starts_with('<') && !no_gt {
            // `<>` is text, as before: only a tag with something inside is dropped.
            match rest.get(1..).and_then(|r| r.find('>')) {
                Some(0) => {}
                Some(end) => {
                    i += end + 2;
                    continue;
                }
                None => no_gt = true,
            }
        }
        let ch = html.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    // `[ \t]+\n` → `\n`, then `\n{3,}` → `\n\n`
    let lines: Vec<&str> = out.split('\n').map(|l| l.trim_end_matches([' ', '\t'])).collect();
    let tidy = lines.join("\n");
    let mut collapsed = String::with_capacity(tidy.len());
    let mut newlines = 0;
    for ch in tidy.chars() {
        if ch == '\n' {
            newlines += 1;
            if newlines > 2 {
                continue;
            }
        } else {
            newlines = 0;
        }
        collapsed.push(ch);
    }
    collapsed.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_checked_and_declared() {
        assert_eq!(select(None).unwrap(), AVAILABLE.to_vec());
        assert_eq!(select(Some(&json!(["todowrite", "todowrite"]))).unwrap(), vec!["todowrite"]);
        assert_eq!(
            select(Some(&json!(["bash"]))).unwrap_err().message,
            "builtinTools: \"bash\" is not available over fetch (available: webfetch, question, todowrite)"
        );
        let d = declaration("webfetch");
        assert_eq!((d["name"].as_str(), d["source"].as_str()), (Some("webfetch"), Some("builtin")));
        assert_eq!(d["inputSchema"]["properties"]["format"]["enum"], json!(["text", "markdown", "html"]));
        assert_eq!(declaration("question")["inputSchema"]["required"], json!(["questions"]));
        assert_eq!(declaration("todowrite")["inputSchema"]["properties"]["todos"]["items"]["required"], json!(["id", "text", "completed"]));
    }

    #[test]
    fn options_are_checked() {
        assert_eq!(options(&json!({})).unwrap(), (DEFAULT_MAX_BYTES, false));
        assert_eq!(options(&json!({"maxBytes": 10, "allowPrivate": true})).unwrap(), (10, true));
        assert_eq!(options(&json!({"maxBytes": 0})).unwrap_err().message, "builtinTools options.maxBytes must be a positive number");
        assert_eq!(options(&json!({"allowPrivate": 1})).unwrap_err().message, "builtinTools options.allowPrivate must be a boolean");
    }

    #[test]
    fn stripping_is_linear_on_hostile_pages() {
        // Each of these was quadratic: every `<` searched the rest of the page for its end.
        for unit in ["<script", "<style", "<", "<script><"] {
            let page = unit.repeat(DEFAULT_MAX_BYTES / unit.len());
            let t = std::time::Instant::now();
            let out = strip_html(&page);
            // Generous for a debug build on a busy machine; quadratic took minutes here.
            assert!(t.elapsed() < std::time::Duration::from_secs(3), "{unit:?}: {:?}", t.elapsed());
            assert!(out.len() <= page.len());
        }
        assert_eq!(strip_html("a<script>x"), "ax", "an unclosed script is a tag, as before");
        assert_eq!(strip_html("a <> b <i>c</i> <script>x</script>d <style"), "a <> b c d <style");
    }

    #[test]
    fn webfetch_refuses_other_schemes_and_private_addresses() {
        for (scheme, host) in [("data:", ""), ("file:", ""), ("blob:", "x"), ("javascript:", "")] {
            assert!(refused(scheme, host, true).is_some(), "{scheme}");
        }
        let private = [
            "localhost",
            "a.localhost",
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.9.9",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "[::1]",
            "[::]",
            "[fd00::1]",
            "[fe80::1]",
            "[::ffff:7f00:1]",
            "[::ffff:a9fe:a9fe]",
            "localhost.",
        ];
        for h in private {
            assert!(refused("http:", h, false).is_some(), "{h}");
            assert_eq!(refused("http:", h, true), None, "{h} allowed");
        }
        for h in ["example.com", "8.8.8.8", "172.32.0.1", "[2606:4700::1111]", "10.example", "1.2.3.4.5"] {
            assert_eq!(refused("https:", h, false), None, "{h}");
        }
        assert_eq!(
            refused("http:", "127.0.0.1", false).unwrap(),
            "webfetch: 127.0.0.1 is a local or private address (builtinTools option allowPrivate)"
        );
    }

    #[test]
    fn question_suspends_then_returns_the_answer() {
        let args =
            json!({"questions": [{"question": "Size?", "options": ["S", "M"]}, {"question": "Colour?", "header": "c", "options": []}]});
        let ToolOutcome::Suspend(req) = question(&args, None) else { panic!("no suspension") };
        assert_eq!((req.kind.as_str(), req.prompt.as_str()), ("question", "Size? (options: S, M)\nColour?"));
        assert_eq!(req.data.unwrap()["questions"], args["questions"]);
        let a =
            Answer { id: "x".into(), ok: true, data: Some(json!({"answers": ["M", "blue"]}).as_object().unwrap().clone()), reason: None };
        let out = |a: &Answer| match question(&args, Some(a)) {
            ToolOutcome::Result(r) => r.output,
            ToolOutcome::Suspend(_) => panic!("suspended again"),
        };
        assert_eq!(out(&a), r#"{"answers":["M","blue"]}"#);
        let none = Answer { id: "x".into(), ok: true, data: None, reason: None };
        assert_eq!(out(&none), "{}");
    }

    #[test]
    fn todowrite_renders_the_list() {
        let r = todowrite(
            &json!({"todos": [{"id": "1", "text": "Buy milk", "completed": true}, {"id": "2", "text": "Call", "completed": false}]}),
        );
        assert_eq!(r.output, "[x] Buy milk\n[ ] Call");
        assert_eq!(r.metadata.unwrap()["todos"].as_array().unwrap().len(), 2);
        assert_eq!(todowrite(&json!({})).output, "(no todos)");
    }

    #[test]
    fn webfetch_strips_html_and_reports_status() {
        let page =
            "<html><head><STYLE>p{}</STYLE><script>x()</script></head>\n<body><h1>Title</h1>  \n\n\n\n<p>Body &amp; more</p></body></html>";
        assert_eq!(strip_html(page), "Title\n\nBody &amp; more");
        let r = webfetch_result(200, page, "markdown", true);
        assert_eq!(r.output, "Title\n\nBody &amp; more");
        assert_eq!(Value::Object(r.metadata.unwrap()), json!({"status": 200, "format": "markdown", "truncated": true}));
        assert_eq!(webfetch_result(200, "<b>x</b>", "html", false).output, "<b>x</b>");
        let e = webfetch_result(500, "boom", "text", false);
        assert_eq!((e.output.as_str(), e.is_error), ("HTTP 500", true));
        assert_eq!(webfetch_request(&json!({})).unwrap_err().output, "webfetch: url is required");
        assert_eq!(
            webfetch_request(&json!({"url": "https://a", "format": "text", "timeout": 2})).unwrap(),
            ("https://a".into(), "text", 2000.0)
        );
        let ms = |t: Value| webfetch_request(&json!({"url": "https://a", "timeout": t})).unwrap().2;
        assert_eq!(
            [ms(json!(1.2345)), ms(json!(0)), ms(json!(-1)), ms(json!(1e9)), ms(json!("x"))],
            [1235.0, 1000.0, 1000.0, 120000.0, 30000.0]
        );
    }
}
