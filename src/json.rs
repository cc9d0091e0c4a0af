//! Reading small JSON objects field by field. Each `serde_json::from_value::<T>` compiles a whole
//! deserializer into the wasm; the handful of shapes the edge reads from hosts (requests,
//! answers, relay calls and results, tool declarations, stored states) are read here instead.

use serde_json::{Map, Value};

// Messages are joined with `concat` rather than `format!`: each `format!` site compiles its own
// argument table into the wasm, and these run for every field of every host shape.
fn must(what: &str, key: &str, be: &str) -> String {
    [what, ".", key, " must be ", be].concat()
}

pub type Fields<'a> = &'a Map<String, Value>;

pub fn object<'a>(v: &'a Value, what: &str) -> Result<Fields<'a>, String> {
    v.as_object().ok_or_else(|| [what, " must be an object"].concat())
}

/// A string field; `null` or absent is `None`.
pub fn opt_str(o: Fields, key: &str, what: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(must(what, key, "a string")),
    }
}

pub fn str_or_empty(o: Fields, key: &str, what: &str) -> Result<String, String> {
    Ok(opt_str(o, key, what)?.unwrap_or_default())
}

pub fn opt_bool(o: Fields, key: &str, what: &str) -> Result<Option<bool>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(must(what, key, "a boolean")),
    }
}

pub fn opt_object(o: Fields, key: &str, what: &str) -> Result<Option<Map<String, Value>>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m.clone())),
        Some(_) => Err(must(what, key, "an object")),
    }
}

pub fn array<'a>(o: Fields<'a>, key: &str, what: &str) -> Result<&'a Vec<Value>, String> {
    o.get(key).and_then(Value::as_array).ok_or_else(|| must(what, key, "an array"))
}

// ---- writing ----------------------------------------------------------------------------------
// Request bodies are written by hand into one growing `String`, byte for byte what serde_json's
// compact writer gives. serde_json (without `std`, so without `to_writer`) writes every token
// through a separate call at opt-level z and starts from a 128-byte buffer; a body is written
// once or twice per model call over the whole transcript, so this is on every run's path.

/// `s` as a JSON string, escaped as serde_json escapes: `"` `\` and the C0 controls (`\b \t \n
/// \f \r` by name, the rest as `\u00XX`); everything else, non-ASCII included, as is.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Any JSON value, compact (numbers as serde_json writes them).
pub fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_str(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, x);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write_value(out, x);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_serde_json_writes() {
        let v = serde_json::json!({
            "s": "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f} é 👋 </script>",
            "n": [0, -1, 1.5, 1e300, 18446744073709551615u64, -9223372036854775808i64, 0.1],
            "o": {"z": null, "a": true, "m": false, "e": {}, "l": []},
            "": "",
        });
        let mut out = String::new();
        write_value(&mut out, &v);
        assert_eq!(out, serde_json::to_string(&v).unwrap());
    }
}
