//! The crate's JSON reader (`toolnexus_json::parse`, which replaced serde_json's deserializer)
//! against serde_json's on whatever libFuzzer finds: the same value, or both a refusal.

pub fn json(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        toolnexus_json::check_against_serde_json(text);
    }
}
