//! The crate's JSON reader (`toolnexus_wasm::json::parse`) against serde_json's, which it
//! replaced: the same value for every text serde_json accepts, a refusal for every text it
//! refuses.

use serde_json::Value;

/// Floats whose exponent is past 10^22 may differ by a few ulps; everything else is exact.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x.to_bits() == y.to_bits() || (x - y).abs() <= x.abs().max(y.abs()) * 4.0 * f64::EPSILON
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((ka, a), (kb, b))| ka == kb && same(a, b)),
        _ => a == b,
    }
}

pub fn json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match (toolnexus_wasm::json::parse(text), serde_json::from_str::<Value>(text)) {
        (Ok(a), Ok(b)) => assert!(same(&a, &b), "{text:?}: ours {a:?}, serde_json {b:?}"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{text:?}: ours {a:?}, serde_json {b:?}"),
    }
}
