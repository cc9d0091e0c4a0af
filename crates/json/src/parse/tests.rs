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
