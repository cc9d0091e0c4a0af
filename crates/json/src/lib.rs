//! The JSON text work of toolnexus-wasm: a reader of JSON text (`parse`) and the writers every
//! request body and result goes through. JSON only: reading host objects field by field lives
//! with its users (`src/json.rs` in the main crate, which re-exports this one). Its own crate so
//! that it can be built for speed while the rest of the wasm is built for size (the release
//! profile in the main Cargo.toml).

mod parse;

#[cfg(feature = "differential")]
pub use parse::check_against_serde_json;
pub use parse::{parse, ParseError};
use serde_json::{Map, Value};

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
    // From the last digit back; no index (a panic path): u64::MAX has 20 digits.
    let mut buf = [0u8; 20];
    let mut len = 0;
    for d in buf.iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in buf.iter().skip(buf.len() - len) {
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
        // Written in place: `to_string` makes a String first, and its `expect` on the `Display`
        // result links a panic path.
        Value::Number(n) => {
            let _ = core::fmt::Write::write_fmt(out, format_args!("{n}"));
        }
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
