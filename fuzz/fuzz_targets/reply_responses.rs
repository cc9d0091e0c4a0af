#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolnexus_fuzz::reply_responses(data));
