//! The reader against serde_json's: the same value for every text serde_json accepts, a refusal
//! for every text it refuses.

use super::parse;

use super::check_against_serde_json as check;

#[test]
fn values_as_serde_json_reads_them() {
    for t in [
        "null",
        "true",
        "false",
        " \n\t\r 1 \n",
        "\"\"",
        "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
        "\"\\u00e9\\u0041\"",
        "\"\\ud83d\\ude00\"",
        "\"é 👋 </script>\"",
        "[]",
        "{}",
        "[1,[2,[3]]]",
        "{\"a\":1,\"b\":[true,null],\"c\":{\"d\":\"e\"}}",
        "{\"a\":1,\"a\":2}",
        "{\"b\":1,\"a\":2,\"b\":3}",
        "{ \"k\" : [ 1 , 2 ] }",
        "0",
        "-0",
        "1",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1.5",
        "-1.5",
        "0.1",
        "0.30000000000000004",
        "1e10",
        "1E+10",
        "1e-10",
        "-0.0",
        "0e0",
        "1e308",
        "1.7976931348623157e308",
        "2e308",
        "1e-308",
        "5e-324",
        "1e-400",
        "1e400",
        "0e400",
        "1e99999999999",
        "1e-99999999999",
        "0.000000000000000000000000001",
        "12345678901234567890.123",
        "1.2345678901234567890123e5",
        "9007199254740993",
        "4.35",
        "1e22",
        "1e23",
        "123e-20",
        "\"\u{7f}\"",
        "[\"\\u0000\"]",
    ] {
        check(t);
    }
}

#[test]
fn refuses_what_serde_json_refuses() {
    for t in [
        "",
        " ",
        "nul",
        "tru",
        "[",
        "]",
        "{",
        "}",
        "[1,]",
        "[,1]",
        "{\"a\":}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":1,}",
        "[1 2]",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "--1",
        "0x1",
        "NaN",
        "Infinity",
        "\"abc",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\ud800\"",
        "\"\\ud800\\u0041\"",
        "\"\\udc00\"",
        "\"a\nb\"",
        "\"\t\"",
        "1 2",
        "[1]]",
        "{}x",
        "\u{feff}1",
        "[1,2",
        "{\"a\":1",
        "\"\\",
        "\"\\u",
        "tRue",
        "nulll",
    ] {
        assert!(parse(t).is_err(), "{t:?} was accepted");
        check(t);
    }
}

#[test]
fn nesting_is_bounded_as_in_serde_json() {
    for depth in [1, 64, 127, 128, 129, 5000] {
        check(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        check(&format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)));
    }
}

#[test]
fn errors_say_where() {
    let e = parse("[1, x]").unwrap_err();
    assert_eq!((e.what, e.at), ("expected value", 4));
    assert_eq!(e.to_string(), "expected value at byte 4");
    assert_eq!(parse("{\"a\":1} 2").unwrap_err().what, "trailing characters");
}

/// Every cut of some valid texts, and every single-byte change: the two readers agree.
#[test]
fn agrees_on_cuts_and_mutations() {
    let texts = [
        r#"{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":20}}"#,
        r#"[-12.5e-3, 0, 1E2, "\u00e9\ud83d\ude00", {"": [null, true, false]}]"#,
    ];
    let bytes = b" \"\\/{}[],:0123456789-+.eEuxtfn\x01\x7f";
    for t in texts {
        for cut in 0..=t.len() {
            if let Some(s) = t.get(..cut) {
                check(s);
            }
        }
        for i in 0..t.len() {
            for &b in bytes {
                let mut m = t.as_bytes().to_vec();
                m[i] = b;
                if let Ok(s) = std::str::from_utf8(&m) {
                    check(s);
                }
            }
        }
    }
}

/// The same value as serde_json, floats bit for bit (`check` allows a few ulps, which hides a
/// reader that computes a float differently), or both a refusal.
fn exact(t: &str) {
    let short = t.get(..t.len().min(60)).unwrap_or(t);
    match (parse(t), serde_json::from_str::<serde_json::Value>(t)) {
        (Ok(a), Ok(b)) => {
            let bits = |v: &serde_json::Value| v.as_f64().map(f64::to_bits);
            assert!(a == b && bits(&a) == bits(&b), "{short}: ours {a:?}, serde_json {b:?}");
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{short}: ours {a:?}, serde_json {:?}", b.map(|_| ())),
    }
}

/// An integer part that overflowed u64 at 1844674407370955161 followed by 6..9: serde_json's
/// `parse_decimal` starts over with that significand and still takes one fraction digit 0..5
/// (the overflow is not carried into the fraction).
#[test]
fn a_fraction_digit_after_an_overflowed_integer_counts_as_in_serde_json() {
    for last in ['6', '7', '8', '9'] {
        for frac in ['0', '1', '2', '3', '4', '5', '9'] {
            for e in ["", "e-1", "e-20", "e-310", "e5", "e288"] {
                exact(&format!("1844674407370955161{last}.{frac}{e}"));
                exact(&format!("-1844674407370955161{last}.{frac}7{e}"));
            }
        }
    }
}

/// serde_json adds the exponent to the digit-count scale exactly (an i32), however many digits
/// came before: a million leading fraction zeros and an exponent of a million is 0.1, not 0 or
/// out of range. An exponent past i32 is 0, or out of range for a nonzero positive power.
#[test]
fn exponents_of_long_digit_strings_as_in_serde_json() {
    let n = 1_100_000;
    exact(&format!("0.{}1e{n}", "0".repeat(n)));
    exact(&format!("-0.{}1e{}", "0".repeat(n), n + 1));
    exact(&format!("1{}e-{n}", "0".repeat(n)));
    exact(&format!("1{}e-{}", "0".repeat(n), n + 5));
    for t in [
        "1e2147483647",
        "1e2147483648",
        "1e-2147483648",
        "-1e-99999999999",
        "0e99999999999",
        "-0.0e2147483648",
        "0.01e2147483648",
        "1e0000000000000000000000000000001",
    ] {
        exact(t);
    }
}

/// Random number texts of every shape: bit for bit serde_json's value.
#[test]
fn numbers_bit_for_bit() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut r = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    for _ in 0..300_000 {
        let mut t = String::new();
        if r(2) == 0 {
            t.push('-');
        }
        let digit = |d: u64| char::from(b'0' + d as u8);
        match r(25) {
            0 => t.push('0'),
            n => {
                t.push(digit(1 + r(9)));
                for _ in 1..n {
                    t.push(digit(r(10)));
                }
            }
        }
        if r(2) == 0 {
            t.push('.');
            for _ in 0..1 + r(25) {
                t.push(digit(r(10)));
            }
        }
        if r(2) == 0 {
            t.push_str(&format!("e{}", r(700) as i64 - 350));
        }
        exact(&t);
    }
}
