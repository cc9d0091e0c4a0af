//! The JSON text work of toolnexus-wasm: a reader of JSON text (`parse`) and the writers every
//! request body and result goes through. JSON only: reading host objects field by field lives
//! with its users (`src/json.rs` in the main crate, which re-exports this one). Its own crate so
//! that it can be built for speed while the rest of the wasm is built for size (the release
//! profile in the main Cargo.toml).

// `no_std` on wasm32: the default entry's wasm links no std at all (see src/lib.rs there).
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_std)]

extern crate alloc;

mod parse;
mod write;

#[cfg(feature = "differential")]
pub use parse::check_against_serde_json;
pub use parse::{parse, ParseError};
pub use write::*;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
    fn the_object_writer_writes_what_serde_json_writes() {
        let v = serde_json::json!({
            "model": "m\"1",
            "max_tokens": 4096,
            "stream": true,
            "store": false,
            "k\"\n\u{1}é": "key escaped",
            "empty": {},
            "none": [],
            "nested": {"a": [{"b": {"c": []}}, [], [[]], "x"], "o": {"p": {}}},
            "values": [null, 1.5, {"z": 1, "a": 2}],
        });
        let mut out = String::new();
        write_obj(&mut out, |o| {
            o.str("model", "m\"1").u64("max_tokens", 4096).u64_opt("absent", None).bool("stream", true);
            o.bool("store", false).str_opt("absent", None).str("k\"\n\u{1}é", "key escaped");
            o.obj("empty", |_| {}).arr("none", |_| {});
            o.obj("nested", |o| {
                o.arr("a", |a| {
                    a.obj(|o| {
                        o.obj("b", |o| {
                            o.arr("c", |_| {});
                        });
                    });
                    a.arr(|_| {}).arr(|a| {
                        a.arr(|_| {});
                    });
                    a.str("x");
                });
                o.obj("o", |o| {
                    o.obj("p", |_| {});
                });
            });
            o.arr("values", |a| {
                a.value(&Value::Null).value(&serde_json::json!(1.5)).value(&serde_json::json!({"z": 1, "a": 2}));
            });
        });
        assert_eq!(out, serde_json::to_string(&v).unwrap());
        let mut s = String::new();
        write_obj(&mut s, |_| {});
        assert_eq!(s, "{}");
        s.clear();
        write_arr(&mut s, |a| {
            a.str("").str("\u{7f}\u{1f}");
        });
        assert_eq!(s, serde_json::to_string(&serde_json::json!(["", "\u{7f}\u{1f}"])).unwrap());
        // Appends to what is there: a body is one growing String.
        let mut s = String::from("x");
        write_arr(&mut s, |_| {});
        assert_eq!(s, "x[]");
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
