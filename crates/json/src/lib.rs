//! The JSON text work of toolnexus-wasm (which re-exports this crate as `json`): a reader of JSON
//! text (`parse`), the writers every request body and result goes through, and readers of small
//! objects field by field. Its own crate so that it can be built for speed while the rest of the
//! wasm is built for size (the release profile in the main Cargo.toml).
//!
//! Reading small JSON objects field by field. Each `serde_json::from_value::<T>` compiles a whole
//! deserializer into the wasm; the handful of shapes the edge reads from hosts (requests,
//! answers, relay calls and results, tool declarations, stored states) are read here instead.

mod parse;

#[cfg(feature = "differential")]
pub use parse::check_against_serde_json;
pub use parse::{parse, ParseError};
use serde_json::{Map, Value};

/// `parts.join(sep)` (and `concat` with `""`) by a plain loop: `alloc`'s generic joiner is
/// about 1 KB of wasm for a few error texts and metric names.
pub fn join(parts: &[&str], sep: &str) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len() + sep.len()).sum());
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(p);
    }
    out
}

// Messages are joined rather than `format!`ted: each `format!` site compiles its own argument
// table into the wasm, and these run for every field of every host shape.
fn must(what: &str, key: &str, be: &str) -> String {
    join(&[what, ".", key, " must be ", be], "")
}

pub type Fields<'a> = &'a Map<String, Value>;

/// An object of these fields in this order: what `json!` builds, without a serde round per field
/// and without the `to_value(..).unwrap()` each `json!` field brings (its panic path links the
/// `Debug` of serde_json's error and of `str`).
pub fn obj(fields: Vec<(&str, Value)>) -> Value {
    let mut o = Map::with_capacity(fields.len());
    for (k, v) in fields {
        o.insert(k.into(), v);
    }
    Value::Object(o)
}

pub fn object<'a>(v: &'a Value, what: &str) -> Result<Fields<'a>, String> {
    v.as_object().ok_or_else(|| join(&[what, " must be an object"], ""))
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
        // `get`, not `&s[..]`: the cuts sit next to ASCII bytes, always on a boundary, and an
        // index that can panic links core's slice error path (its `Debug` of `char` and ranges).
        out.push_str(s.get(start..i).unwrap_or_default());
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
    out.push_str(s.get(start..).unwrap_or_default());
    out.push('"');
}

/// An unsigned integer, as serde_json writes it (no formatting machinery).
pub fn write_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

/// `,"key":` (or `"key":` first in an object) for a key that needs no escaping.
pub fn write_key(out: &mut String, key: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
}

/// A value as compact JSON text, the bytes of `Value::to_string` (whose `Display` runs
/// serde_json's serializer a second time, over `core::fmt`).
pub fn to_text(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v);
    out
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
        Value::Object(m) => write_object(out, m),
    }
}

/// An object, compact, as `write_value` writes it.
pub fn write_object(out: &mut String, m: &Map<String, Value>) {
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

    #[test]
    fn writes_integers_as_serde_json() {
        for n in [0u64, 7, 10, 99, 1_000_000, u64::MAX] {
            let mut out = String::new();
            write_u64(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }
}
