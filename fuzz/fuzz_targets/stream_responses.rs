#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolnexus_fuzz::stream_responses(data));
