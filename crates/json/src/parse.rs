//! JSON text to `serde_json::Value`, by a small recursive-descent reader of our own.
//!
//! serde_json's text deserializer drives every token through serde's visitor traits and tracks
//! lines and columns for its errors; it is large (docs/decisions/small-std.md) and took a large
//! share of each run's time (two provider replies, the tool arguments, the host's data). This
//! reader gives the same values for every input serde_json accepts (the tests compare them) and
//! refuses what it refuses, including a lone surrogate escape and nesting deeper than 127.
//!
//! Numbers follow serde_json's default (without `float_roundtrip`): integers that fit are
//! `u64`/`i64` exactly, anything else is an `f64` from its digits and exponent, exact when the
//! digits fit in 53 bits and the exponent is small, otherwise within an ulp or two, as there.

use alloc::{string::String, vec::Vec};
use serde_json::{Map, Number, Value};

/// serde_json's recursion limit (127 levels of arrays and objects): deeper input is refused
/// rather than allowed to exhaust the stack (a stack overflow would trap the wasm instance).
const MAX_DEPTH: u32 = 127;

/// Why a text is not JSON, and the byte offset where that was found.
#[derive(Debug, PartialEq)]
pub struct ParseError {
    pub what: &'static str,
    pub at: usize,
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut at = String::new();
        super::write_u64(&mut at, self.at as u64);
        f.write_str(self.what)?;
        f.write_str(" at byte ")?;
        f.write_str(&at)
    }
}

type R<T> = Result<T, ParseError>;

/// Parses one JSON value; only whitespace may follow it.
pub fn parse(text: &str) -> R<Value> {
    let mut p = Reader { s: text, b: text.as_bytes(), i: 0, depth: 0 };
    let v = p.value()?;
    p.ws();
    match p.i < p.b.len() {
        true => p.fail("trailing characters"),
        false => Ok(v),
    }
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
}

impl Reader<'_> {
    fn fail<T>(&self, what: &'static str) -> R<T> {
        Err(ParseError { what, at: self.i })
    }

    #[inline(always)]
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn ws(&mut self) {
        while matches!(self.peek(), b' ' | b'\n' | b'\r' | b'\t') {
            self.i += 1;
        }
    }

    /// Skips whitespace, then takes `c` if it is next.
    #[inline(always)]
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let hit = self.peek() == c;
        self.i += usize::from(hit);
        hit
    }

    fn value(&mut self) -> R<Value> {
        self.ws();
        match self.peek() {
            b'{' => self.nested(true),
            b'[' => self.nested(false),
            b'"' => self.string().map(Value::String),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'n' => self.word("null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            0 if self.i >= self.b.len() => self.fail("EOF while parsing a value"),
            _ => self.fail("expected value"),
        }
    }

    fn word(&mut self, w: &str, v: Value) -> R<Value> {
        match self.b.get(self.i..self.i + w.len()) == Some(w.as_bytes()) {
            true => {
                self.i += w.len();
                Ok(v)
            }
            false => self.fail("expected value"),
        }
    }

    /// An object (`{`) or an array (`[`), the opening byte not yet taken.
    fn nested(&mut self, object: bool) -> R<Value> {
        if self.depth >= MAX_DEPTH {
            return self.fail("recursion limit exceeded");
        }
        self.depth += 1;
        self.i += 1;
        let (close, mut map, mut list) = (if object { b'}' } else { b']' }, Map::new(), Vec::new());
        if !self.eat(close) {
            loop {
                if object {
                    self.ws();
                    if self.peek() != b'"' {
                        return self.fail("key must be a string");
                    }
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return self.fail("expected `:`");
                    }
                    // A repeated key keeps its first place and takes the last value, as
                    // serde_json's map does.
                    map.insert(key, self.value()?);
                } else {
                    list.push(self.value()?);
                }
                if self.eat(close) {
                    break;
                }
                if !self.eat(b',') {
                    return self.fail(if self.i >= self.b.len() { "EOF while parsing" } else { "expected `,` or a closing bracket" });
                }
            }
        }
        self.depth -= 1;
        Ok(if object { Value::Object(map) } else { Value::Array(list) })
    }

    /// A string, the opening quote not yet taken. Runs without escapes are copied as slices of
    /// the text (cut next to ASCII bytes, so always on a character boundary).
    fn string(&mut self) -> R<String> {
        self.i += 1;
        let mut out = String::new();
        let mut start = self.i;
        loop {
            let c = self.peek();
            match c {
                b'"' | b'\\' => {
                    out.push_str(self.s.get(start..self.i).unwrap_or_default());
                    self.i += 1;
                    if c == b'"' {
                        return Ok(out);
                    }
                    self.escape(&mut out)?;
                    start = self.i;
                }
                0..=0x1f if self.i >= self.b.len() => return self.fail("EOF while parsing a string"),
                0..=0x1f => return self.fail("control character in a string"),
                _ => self.i += 1,
            }
        }
    }

    /// One escape after its backslash.
    fn escape(&mut self, out: &mut String) -> R<()> {
        let c = self.peek();
        self.i += 1;
        let ch = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4()?;
                let code = match hi {
                    0xD800..=0xDBFF => {
                        if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                            return self.fail("lone leading surrogate in hex escape");
                        }
                        self.i += 2;
                        let lo = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return self.fail("lone leading surrogate in hex escape");
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return self.fail("lone trailing surrogate in hex escape"),
                    _ => hi,
                };
                match char::from_u32(code) {
                    Some(ch) => ch,
                    None => return self.fail("invalid unicode code point"),
                }
            }
            _ => {
                self.i -= 1;
                return self.fail("invalid escape");
            }
        };
        out.push(ch);
        Ok(())
    }

    fn hex4(&mut self) -> R<u32> {
        let mut n = 0;
        for _ in 0..4 {
            let d = match self.peek() {
                c @ b'0'..=b'9' => c - b'0',
                c @ b'a'..=b'f' => c - b'a' + 10,
                c @ b'A'..=b'F' => c - b'A' + 10,
                _ => return self.fail("invalid escape"),
            };
            n = n * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(n)
    }

    fn digits(&mut self) -> usize {
        let from = self.i;
        while self.peek().is_ascii_digit() {
            self.i += 1;
        }
        self.i - from
    }

    /// A number, digit for digit as serde_json reads one: the digits accumulate into a `u64`
    /// until the next one would overflow it; later integer digits only scale it, later
    /// fraction digits are dropped.
    fn number(&mut self) -> R<Value> {
        let negative = self.peek() == b'-';
        self.i += usize::from(negative);
        let (mut sig, mut scale) = (0u64, 0i64);
        // Takes `digits` into `sig` (and `scale`) until one would overflow it; the rest only
        // scale it (integer digits) or are dropped (fraction digits).
        let take = |sig: &mut u64, scale: &mut i64, digits: &[u8], fraction: bool| {
            let mut over = false;
            for &d in digits {
                match (over, sig.checked_mul(10).and_then(|s| s.checked_add(u64::from(d - b'0')))) {
                    (false, Some(s)) => {
                        *sig = s;
                        *scale -= i64::from(fraction);
                    }
                    _ => {
                        over = true;
                        *scale += i64::from(!fraction);
                    }
                }
            }
            over
        };
        // The digits just read (`get`: always in range).
        let int_start = self.i;
        let n = self.digits();
        if n == 0 || (n > 1 && self.b.get(int_start) == Some(&b'0')) {
            self.i = int_start + usize::from(n > 0);
            return self.fail("invalid number");
        }
        let over = take(&mut sig, &mut scale, self.b.get(int_start..self.i).unwrap_or_default(), false);
        let mut float = false;
        if self.peek() == b'.' {
            self.i += 1;
            let from = self.i;
            if self.digits() == 0 {
                return self.fail("invalid number");
            }
            // Overflow starts afresh, as in serde_json's `parse_decimal`: after an integer part
            // that overflowed at 1844674407370955161, one fraction digit up to 5 still fits.
            take(&mut sig, &mut scale, self.b.get(from..self.i).unwrap_or_default(), true);
            float = true;
        }
        if matches!(self.peek(), b'e' | b'E') {
            self.i += 1;
            let neg_exp = self.peek() == b'-';
            self.i += usize::from(matches!(self.peek(), b'+' | b'-'));
            let from = self.i;
            if self.digits() == 0 {
                return self.fail("invalid number");
            }
            // An `i32`, added to the digits' scale exactly, as serde_json does (a cap would be
            // wrong after a million digits). Past `i32` serde_json gives 0, or refuses a nonzero
            // significand with a positive exponent, whatever the scale.
            match self
                .b
                .get(from..self.i)
                .unwrap_or_default()
                .iter()
                .try_fold(0i32, |e, &d| e.checked_mul(10)?.checked_add(i32::from(d - b'0')))
            {
                Some(exp) => scale += i64::from(if neg_exp { -exp } else { exp }),
                None if sig != 0 && !neg_exp => return self.fail("number out of range"),
                None => sig = 0,
            }
            float = true;
        }
        if !float && !over {
            if !negative {
                return Ok(Value::Number(sig.into()));
            }
            // `-0` and values below `i64::MIN` are floats, as serde_json reads them.
            if sig != 0 && sig <= 1 << 63 {
                return Ok(Value::Number((sig.wrapping_neg() as i64).into()));
            }
        }
        let f = scaled(sig as f64, scale);
        match Number::from_f64(if negative { -f } else { f }) {
            Some(n) => Ok(Value::Number(n)),
            None => self.fail("number out of range"),
        }
    }
}

/// `m · 10^e`, as serde_json computes it: one multiplication or division by a correctly rounded
/// power of ten (exact up to 10^22, so a mantissa under 2^53 then gives the correctly rounded
/// value), below 10^-308 in steps.
fn scaled(mut m: f64, mut e: i64) -> f64 {
    loop {
        match POW10.get(e.unsigned_abs() as usize) {
            Some(&p) if e >= 0 => return m * p,
            Some(&p) => return m / p,
            None if m == 0.0 => return 0.0,
            None if e > 0 => return f64::INFINITY,
            None => {
                m /= 1e308;
                e += 308;
            }
        }
    }
}

/// 10^0 … 10^308, each the nearest f64 (serde_json's table; it leaves the wasm with its reader).
#[rustfmt::skip]
static POW10: [f64; 309] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47,
    1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63,
    1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
    1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95,
    1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111,
    1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119, 1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127,
    1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143,
    1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175,
    1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191,
    1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207,
    1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223,
    1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255,
    1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271,
    1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
    1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303,
    1e304, 1e305, 1e306, 1e307, 1e308,
];

/// Panics unless this reader and serde_json's agree on `text`: the same value (floats bit for
/// bit) or both a refusal. For the tests and the `json` fuzz
/// target (feature `differential`).
#[cfg(any(test, feature = "differential"))]
pub fn check_against_serde_json(text: &str) {
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                // Bit for bit: the reader computes a float exactly as serde_json does (the same
                // significand, scale and POW10 step), so even an ulp apart is a difference.
                x.is_f64() == y.is_f64() && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
            }
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
            (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((ka, a), (kb, b))| ka == kb && same(a, b)),
            _ => a == b,
        }
    }
    match (parse(text), serde_json::from_str::<Value>(text)) {
        (Ok(a), Ok(b)) => assert!(same(&a, &b), "{text:?}: ours {a:?}, serde_json {b:?}"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{text:?}: ours {a:?}, serde_json {b:?}"),
    }
}

#[cfg(test)]
mod tests;
