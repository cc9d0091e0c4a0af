//! `httpTool`: an HTTP endpoint as a tool, with the reference's semantics. A call's arguments
//! fill `{placeholder}`s in the URL (percent-encoded, then consumed); the rest go to the query
//! string for GET or when listed in `query`, else into the body (JSON by default, a form, or the
//! `body` argument as raw text). A non-2xx status is the error result `HTTP <status>: <body>`;
//! `resultMode` is `text`, `json` (the body re-serialised when it is JSON, else the text as a JSON
//! string) or `status+text`; `metadata.status` carries the status. Header values take `${NAME}`
//! from an `env` map (a host has no `process.env`), which the tool's definition never includes.

use crate::error::{Error, Result};
use crate::json;
use crate::sources::options::expand_env;
use crate::sources::text::js_string;
use crate::tool::{sanitize_name, ToolResult};
use serde_json::{Map, Value};

pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;

#[derive(Clone, Debug, PartialEq)]
pub struct HttpToolDef {
    pub name: String,
    pub description: String,
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub query: Vec<String>,
    /// `json`, `form` or `raw`.
    pub body: String,
    pub input_schema: Option<Value>,
    pub timeout_ms: f64,
    /// `text`, `json` or `status+text`.
    pub result_mode: String,
    pub env: Map<String, Value>,
    /// The largest reply read (`maxBytes`).
    pub max_bytes: usize,
}

/// One request to make.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpCall {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

fn one_of(v: Option<String>, allowed: &[&str], key: &str) -> Result<String> {
    let v = v.unwrap_or_else(|| allowed[0].to_string());
    if allowed.contains(&v.as_str()) {
        return Ok(v);
    }
    Err(Error::bad_input(format!("httpTool(definition).{key} must be one of: {}", allowed.join(", "))))
}

impl HttpToolDef {
    pub fn from_json(v: &Value) -> Result<HttpToolDef> {
        let what = "httpTool(definition)";
        let bad = Error::bad_input;
        let o = json::object(v, what).map_err(bad)?;
        let req = |key: &str| -> Result<String> {
            json::opt_str(o, key, what)
                .map_err(bad)?
                .filter(|s| !s.is_empty())
                .ok_or_else(|| bad(format!("{what}.{key} is required (a non-empty string)")))
        };
        let name = req("name")?;
        let url = req("url")?;
        let method = json::opt_str(o, "method", what).map_err(bad)?.unwrap_or_else(|| "GET".into()).to_ascii_uppercase();
        let mut headers = Vec::new();
        if let Some(h) = json::opt_object(o, "headers", what).map_err(bad)? {
            for (k, v) in h {
                let v = v.as_str().ok_or_else(|| bad(format!("{what}.headers.{k} must be a string")))?;
                headers.push((k, v.to_string()));
            }
        }
        let mut query = Vec::new();
        match o.get("query") {
            None | Some(Value::Null) => {}
            Some(Value::Array(q)) => {
                for k in q {
                    query.push(k.as_str().ok_or_else(|| bad(format!("{what}.query must be an array of strings")))?.to_string());
                }
            }
            Some(_) => return Err(bad(format!("{what}.query must be an array of strings"))),
        }
        let env = json::opt_object(o, "env", what).map_err(bad)?.unwrap_or_default();
        crate::sources::options::check_headers(&headers, &env, what)?;
        let input_schema = match o.get("inputSchema") {
            None | Some(Value::Null) => None,
            Some(s @ Value::Object(_)) => Some(s.clone()),
            Some(_) => return Err(bad(format!("{what}.inputSchema must be a JSON object"))),
        };
        // `timeout` is the reference's name; `timeoutMs` this package's.
        let timeout = o.get("timeoutMs").or_else(|| o.get("timeout")).filter(|t| !t.is_null());
        let timeout_ms = crate::sources::options::millis(timeout, what, "timeoutMs", DEFAULT_TIMEOUT_MS)?;
        Ok(HttpToolDef {
            name,
            description: json::str_or_empty(o, "description", what).map_err(bad)?,
            method,
            url,
            headers,
            query,
            body: one_of(json::opt_str(o, "body", what).map_err(bad)?, &["json", "form", "raw"], "body")?,
            input_schema,
            timeout_ms,
            result_mode: one_of(json::opt_str(o, "resultMode", what).map_err(bad)?, &["text", "json", "status+text"], "resultMode")?,
            env,
            max_bytes: crate::sources::options::max_bytes(o.get("maxBytes"), what)?,
        })
    }

    /// `{ name, description, inputSchema, source: "http" }`; no schema is an empty object schema
    /// that allows no extra properties.
    pub fn declaration(&self) -> Value {
        let schema = self.input_schema.clone().unwrap_or_else(|| {
            json::obj(vec![("type", "object".into()), ("properties", Value::Object(Map::new())), ("additionalProperties", false.into())])
        });
        json::obj(vec![
            ("name", sanitize_name(&self.name).into()),
            ("description", self.description.as_str().into()),
            ("inputSchema", schema),
            ("source", "http".into()),
        ])
    }

    /// The definition as data (to save and rebuild from): everything but `env`.
    pub fn definition(&self) -> Value {
        let mut f = vec![
            ("name", self.name.as_str().into()),
            ("description", self.description.as_str().into()),
            ("method", self.method.as_str().into()),
            ("url", self.url.as_str().into()),
        ];
        if !self.headers.is_empty() {
            f.push(("headers", Value::Object(self.headers.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect())));
        }
        if !self.query.is_empty() {
            f.push(("query", Value::Array(self.query.iter().map(|q| Value::String(q.clone())).collect())));
        }
        f.push(("body", self.body.as_str().into()));
        if let Some(s) = &self.input_schema {
            f.push(("inputSchema", s.clone()));
        }
        f.push(("timeoutMs", self.timeout_ms.into()));
        f.push(("resultMode", self.result_mode.as_str().into()));
        if self.max_bytes != crate::sources::options::DEFAULT_MAX_BYTES {
            f.push(("maxBytes", (self.max_bytes as f64).into()));
        }
        json::obj(f)
    }

    /// The request for one call's arguments; an error (for the model) when a placeholder's value
    /// would make a `.` or `..` path segment: `/` is encoded, but `..` (or `%2e%2e`, which URL
    /// parsers read the same) would still climb out of the configured path with the credentials.
    pub fn request(&self, args: &Value) -> std::result::Result<HttpCall, String> {
        let mut a: Map<String, Value> = args.as_object().cloned().unwrap_or_default();
        // 1. {placeholders} in the URL, consumed
        let mut url = String::with_capacity(self.url.len());
        let mut filled = Vec::new(); // where each placeholder's value starts in `url`
        let mut rest = self.url.as_str();
        while let Some(open) = rest.find('{') {
            let after = rest.get(open + 1..).unwrap_or("");
            let close = after
                .find('}')
                .filter(|&n| n > 0 && after.get(..n).is_some_and(|k| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')));
            url.push_str(rest.get(..open).unwrap_or(""));
            match close {
                Some(n) => {
                    let key = after.get(..n).unwrap_or("");
                    let v = a.shift_remove(key).filter(|v| !v.is_null()).map(|v| js_string(&v)).unwrap_or_default();
                    filled.push((url.len(), key.to_string()));
                    url.push_str(&percent(&v, false));
                    rest = after.get(n + 1..).unwrap_or("");
                }
                None => {
                    url.push('{');
                    rest = after;
                }
            }
        }
        url.push_str(rest);
        if let Some(key) = climbing(&url, &filled) {
            return Err(format!("HTTP tool {}: argument {key} would change the URL path (a . or .. segment)", self.name));
        }
        // 2. the query string
        let get = self.method == "GET";
        let mut qs = String::new();
        let keys: Vec<String> = a.keys().cloned().collect();
        for k in keys {
            if get || self.query.contains(&k) {
                let v = a.shift_remove(&k).unwrap_or(Value::Null);
                form_pair(&mut qs, &k, &js_string(&v));
            }
        }
        if !qs.is_empty() {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str(&qs);
        }
        // 3. the body
        let mut headers: Vec<(String, String)> = self.headers.iter().map(|(k, v)| (k.clone(), expand_env(v, &self.env))).collect();
        let mut body = None;
        if !get && self.method != "HEAD" && !a.is_empty() {
            let mut content_type = |ct: &str| {
                // As the reference: only an exact `Content-Type` key counts as already set.
                if !headers.iter().any(|(k, _)| k == "Content-Type") {
                    headers.push(("Content-Type".into(), ct.into()));
                }
            };
            body = Some(match self.body.as_str() {
                "form" => {
                    content_type("application/x-www-form-urlencoded");
                    let mut f = String::new();
                    for (k, v) in &a {
                        form_pair(&mut f, k, &js_string(v));
                    }
                    f
                }
                "raw" => a.get("body").filter(|v| !v.is_null()).map(js_string).unwrap_or_default(),
                _ => {
                    content_type("application/json");
                    json::to_text(&Value::Object(a))
                }
            });
        }
        Ok(HttpCall { method: self.method.clone(), url, headers, body })
    }

    /// The result for a response (`text` is the whole body).
    pub fn result(&self, status: u16, text: &str) -> ToolResult {
        let mut meta = Map::new();
        meta.insert("status".into(), status.into());
        let st = status.to_string();
        if !(200..300).contains(&status) {
            return ToolResult { output: format!("HTTP {st}: {text}"), is_error: true, metadata: Some(meta), parts: Vec::new() };
        }
        let output = match self.result_mode.as_str() {
            "status+text" => format!("{st}\n{text}"),
            "json" => json::to_text(&crate::sources::text::parse(text.as_bytes()).unwrap_or_else(|| Value::String(text.into()))),
            _ => text.to_string(),
        };
        ToolResult { output, is_error: false, metadata: Some(meta), parts: Vec::new() }
    }
}

/// The first placeholder (by where its value starts in `url`) that lies in a path segment which
/// is a dot segment as a URL parser reads it (`.`, `..`, with `%2e` for any dot).
fn climbing(url: &str, filled: &[(usize, String)]) -> Option<String> {
    let after_scheme = crate::small::find(url, "://").map_or(0, |i| i + 3);
    let path_at = url.get(after_scheme..).and_then(|r| r.find('/')).map_or(url.len(), |i| after_scheme + i);
    let path_end = url.get(path_at..).and_then(|r| r.find(['?', '#'])).map_or(url.len(), |i| path_at + i);
    for (at, key) in filled {
        if *at < path_at || *at > path_end {
            continue;
        }
        let start = url.get(..*at).and_then(|p| p.rfind('/')).map_or(path_at, |i| i + 1);
        let end = url.get(*at..path_end).and_then(|p| p.find('/')).map_or(path_end, |i| at + i);
        let seg = url.get(start..end).unwrap_or("").to_ascii_lowercase().replace("%2e", ".");
        if seg == "." || seg == ".." {
            return Some(key.clone());
        }
    }
    None
}

/// `encodeURIComponent` (`form: false`) or the form encoding of `URLSearchParams` (`form: true`:
/// space is `+`, and `!'()~` are escaped too).
pub fn percent(s: &str, form: bool) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'_' | b'.' | b'*')
            || (!form && matches!(b, b'!' | b'~' | b'\'' | b'(' | b')'));
        if keep {
            out.push(b as char);
        } else if form && b == b' ' {
            out.push('+');
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
    out
}

fn form_pair(out: &mut String, k: &str, v: &str) {
    if !out.is_empty() {
        out.push('&');
    }
    out.push_str(&percent(k, true));
    out.push('=');
    out.push_str(&percent(v, true));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn def(v: Value) -> HttpToolDef {
        HttpToolDef::from_json(&v).unwrap()
    }

    #[test]
    fn placeholders_fill_the_url_and_get_arguments_go_to_the_query() {
        let d = def(
            json!({"name": "weather", "url": "https://api.test/v1/{city}/now?units=metric", "headers": {"x-key": "k-${KEY}"}, "env": {"KEY": "s3"}}),
        );
        let c = d.request(&json!({"city": "São Paulo/Centro", "lang": "pt br", "n": 2.5, "flag": true, "list": [1, null, "a"]})).unwrap();
        assert_eq!(c.method, "GET");
        assert_eq!(c.url, "https://api.test/v1/S%C3%A3o%20Paulo%2FCentro/now?units=metric&lang=pt+br&n=2.5&flag=true&list=1%2C%2Ca");
        assert_eq!(c.headers, vec![("x-key".to_string(), "k-s3".to_string())]);
        assert_eq!(c.body, None);
        // a missing placeholder is empty; an unclosed or non-word brace stays
        let d = def(json!({"name": "t", "url": "https://a.test/{id}/{x-y}/{", "method": "delete"}));
        let c = d.request(&json!({})).unwrap();
        assert_eq!((c.method.as_str(), c.url.as_str(), c.body), ("DELETE", "https://a.test//{x-y}/{", None));
    }

    #[test]
    fn a_placeholder_value_cannot_climb_out_of_the_path() {
        let d = def(json!({"name": "t", "url": "https://a.test/v1/items/{id}/detail?x={q}"}));
        for id in ["..", "."] {
            let e = d.request(&json!({"id": id})).unwrap_err();
            assert_eq!(e, "HTTP tool t: argument id would change the URL path (a . or .. segment)");
        }
        assert_eq!(d.request(&json!({"id": "../.."})).unwrap().url, "https://a.test/v1/items/..%2F../detail?x=");
        assert_eq!(d.request(&json!({"id": "a.b", "q": ".."})).unwrap().url, "https://a.test/v1/items/a.b/detail?x=..");
        let d = def(json!({"name": "t", "url": "https://a.test/v1/{a}{b}/x"}));
        assert!(d.request(&json!({"a": ".", "b": "."})).is_err(), "two values make one segment");
        assert!(d.request(&json!({"a": ".", "b": "x"})).is_ok());
        // `%` is encoded, so a value cannot spell `%2e` either
        assert_eq!(d.request(&json!({"a": "%2e", "b": "%2e"})).unwrap().url, "https://a.test/v1/%252e%252e/x");
    }

    #[test]
    fn bodies_are_json_form_or_raw_and_listed_arguments_go_to_the_query() {
        let d = def(json!({"name": "t", "method": "post", "url": "https://a.test/items/{id}", "query": ["dry"]}));
        let c = d.request(&json!({"id": 7, "dry": false, "title": "Mug", "tags": ["a"]})).unwrap();
        assert_eq!(c.url, "https://a.test/items/7?dry=false");
        assert_eq!(c.body.as_deref(), Some(r#"{"title":"Mug","tags":["a"]}"#));
        assert_eq!(c.headers, vec![("Content-Type".to_string(), "application/json".to_string())]);
        let d = def(
            json!({"name": "t", "method": "PUT", "url": "https://a.test/f", "body": "form", "headers": {"Content-Type": "text/x-mine"}}),
        );
        let c = d.request(&json!({"a b": "c&d", "n": 1, "o": {"k": 1}})).unwrap();
        assert_eq!(c.body.as_deref(), Some("a+b=c%26d&n=1&o=%5Bobject+Object%5D"));
        assert_eq!(c.headers, vec![("Content-Type".to_string(), "text/x-mine".to_string())]);
        let d = def(json!({"name": "t", "method": "POST", "url": "https://a.test/raw", "body": "raw"}));
        assert_eq!(d.request(&json!({"body": "plain text", "other": 1})).unwrap().body.as_deref(), Some("plain text"));
        assert_eq!(d.request(&json!({})).unwrap().body, None, "no arguments left, no body");
    }

    #[test]
    fn results_by_status_and_mode() {
        let d = def(json!({"name": "t", "url": "https://a.test"}));
        let r = d.result(404, "nope");
        assert_eq!((r.output.as_str(), r.is_error), ("HTTP 404: nope", true));
        assert_eq!(r.metadata.unwrap()["status"], 404);
        assert_eq!(d.result(200, "hi").output, "hi");
        let j = def(json!({"name": "t", "url": "https://a.test", "resultMode": "json"}));
        assert_eq!(j.result(200, "{ \"a\" : [1, 2] }").output, r#"{"a":[1,2]}"#);
        assert_eq!(j.result(200, "not json").output, r#""not json""#);
        let s = def(json!({"name": "t", "url": "https://a.test", "resultMode": "status+text"}));
        assert_eq!(s.result(201, "made").output, "201\nmade");
    }

    #[test]
    fn definitions_are_checked_declared_and_kept_as_data() {
        let bad = |v: Value| HttpToolDef::from_json(&v).unwrap_err().message;
        assert_eq!(bad(json!({"url": "https://a"})), "httpTool(definition).name is required (a non-empty string)");
        assert_eq!(bad(json!({"name": "t"})), "httpTool(definition).url is required (a non-empty string)");
        assert_eq!(bad(json!({"name": "t", "url": "u", "body": "xml"})), "httpTool(definition).body must be one of: json, form, raw");
        assert_eq!(
            bad(json!({"name": "t", "url": "u", "resultMode": "x"})),
            "httpTool(definition).resultMode must be one of: text, json, status+text"
        );
        assert_eq!(
            bad(json!({"name": "t", "url": "u", "timeout": -1})),
            "httpTool(definition).timeoutMs must be a positive number of milliseconds, at most 2147483647"
        );
        // a fractional deadline is whole milliseconds, never "no deadline"
        assert_eq!(def(json!({"name": "t", "url": "u", "timeoutMs": 500.5})).timeout_ms, 501.0);
        assert_eq!(def(json!({"name": "t", "url": "u", "timeoutMs": 0.2})).timeout_ms, 1.0);
        assert!(HttpToolDef::from_json(&json!({"name": "t", "url": "u", "timeoutMs": 0})).is_err());
        assert!(HttpToolDef::from_json(&json!({"name": "t", "url": "u", "timeoutMs": 1e12})).is_err());
        let d = def(
            json!({"name": "get price", "description": "d", "url": "u", "timeout": 500, "headers": {"a": "${S}"}, "env": {"S": "secret"}}),
        );
        assert_eq!(d.timeout_ms, 500.0);
        assert_eq!(
            d.declaration(),
            json!({"name": "get_price", "description": "d", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "source": "http"})
        );
        let data = d.definition();
        assert!(!data.to_string().contains("secret"));
        assert_eq!(HttpToolDef::from_json(&data).unwrap(), HttpToolDef { env: Map::new(), ..d });
    }
}
