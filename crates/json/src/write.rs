//! Writing JSON text into one growing `String`, byte for byte what serde_json's compact writer
//! gives: the request bodies, states, results and events. serde_json (without `std`, so without
//! `to_writer`) writes every token through a separate call and starts from a small buffer; a
//! body is written once or twice per model call over the whole transcript, so this is on every
//! run's path.
//!
//! [`write_obj`] and [`write_arr`] (and [`Obj::obj`], [`Obj::arr`], ... inside them) open a
//! container, hand its writer to a closure and close it: commas, key escaping and the closing
//! bracket are the writer's, so no caller can produce text that is not JSON.

use alloc::string::String;
use serde_json::{Map, Value};

/// An object being written: each method adds one `"key":value` field.
pub struct Obj<'a> {
    out: &'a mut String,
    empty: bool,
}

/// An array being written: each method adds one element.
pub struct Arr<'a> {
    out: &'a mut String,
    empty: bool,
}

/// Writes `{…}` into `out`, its fields added by `f`.
pub fn write_obj(out: &mut String, f: impl FnOnce(&mut Obj)) {
    out.push('{');
    f(&mut Obj { out: &mut *out, empty: true });
    out.push('}');
}

/// Writes `[…]` into `out`, its elements added by `f`.
pub fn write_arr(out: &mut String, f: impl FnOnce(&mut Arr)) {
    out.push('[');
    f(&mut Arr { out: &mut *out, empty: true });
    out.push(']');
}

impl Obj<'_> {
    /// `,"key":` (no comma first): the key escaped as any string.
    fn key(&mut self, key: &str) -> &mut String {
        if !core::mem::replace(&mut self.empty, false) {
            self.out.push(',');
        }
        write_str(self.out, key);
        self.out.push(':');
        self.out
    }

    pub fn str(&mut self, key: &str, v: &str) -> &mut Self {
        write_str(self.key(key), v);
        self
    }

    /// The field only when there is a value.
    pub fn str_opt(&mut self, key: &str, v: Option<&str>) -> &mut Self {
        if let Some(v) = v {
            self.str(key, v);
        }
        self
    }

    pub fn u64(&mut self, key: &str, n: u64) -> &mut Self {
        write_u64(self.key(key), n);
        self
    }

    /// The field only when there is a value.
    pub fn u64_opt(&mut self, key: &str, n: Option<u64>) -> &mut Self {
        if let Some(n) = n {
            self.u64(key, n);
        }
        self
    }

    pub fn bool(&mut self, key: &str, b: bool) -> &mut Self {
        self.key(key).push_str(if b { "true" } else { "false" });
        self
    }

    pub fn value(&mut self, key: &str, v: &Value) -> &mut Self {
        write_value(self.key(key), v);
        self
    }

    /// A nested object, its fields added by `f`.
    pub fn obj(&mut self, key: &str, f: impl FnOnce(&mut Obj)) -> &mut Self {
        write_obj(self.key(key), f);
        self
    }

    /// A nested array, its elements added by `f`.
    pub fn arr(&mut self, key: &str, f: impl FnOnce(&mut Arr)) -> &mut Self {
        write_arr(self.key(key), f);
        self
    }
}

impl Arr<'_> {
    fn next(&mut self) -> &mut String {
        if !core::mem::replace(&mut self.empty, false) {
            self.out.push(',');
        }
        self.out
    }

    pub fn str(&mut self, v: &str) -> &mut Self {
        write_str(self.next(), v);
        self
    }

    pub fn value(&mut self, v: &Value) -> &mut Self {
        write_value(self.next(), v);
        self
    }

    /// An object element, its fields added by `f`.
    pub fn obj(&mut self, f: impl FnOnce(&mut Obj)) -> &mut Self {
        write_obj(self.next(), f);
        self
    }

    /// An array element, its elements added by `f`.
    pub fn arr(&mut self, f: impl FnOnce(&mut Arr)) -> &mut Self {
        write_arr(self.next(), f);
        self
    }
}

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
        // Written in place: `to_string` would make a String first.
        Value::Number(n) => {
            let _ = core::fmt::Write::write_fmt(out, format_args!("{n}"));
        }
        Value::String(s) => write_str(out, s),
        Value::Array(a) => write_arr(out, |w| {
            for x in a {
                w.value(x);
            }
        }),
        Value::Object(m) => write_object(out, m),
    }
}

/// An object, compact, as `write_value` writes it.
pub fn write_object(out: &mut String, m: &Map<String, Value>) {
    write_obj(out, |o| {
        for (k, x) in m {
            o.value(k, x);
        }
    });
}
