//! Every recording is a fuzz seed: JSON bodies as they are in `fuzz/corpus/reply_<style>/`, SSE
//! bodies in `fuzz/corpus/stream_<style>/` behind the chunking seed byte the stream targets read
//! first (`fuzz/src/chunks.rs`). `cargo test --test fuzz_replay` runs them through the targets.

use crate::manifest::*;

pub const SEED_BYTE: u8 = 7;

pub fn seed_path(e: &Entry) -> Option<(String, Vec<u8>)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus");
    Some(if e.stream {
        let mut bytes = vec![SEED_BYTE];
        bytes.extend(e.bytes());
        (format!("{root}/stream_{}/wire-{}.sse", e.style, e.stem()), bytes)
    } else {
        (format!("{root}/reply_{}/wire-{}.json", e.style, e.stem()), e.bytes())
    })
}

#[test]
fn every_recording_is_a_fuzz_seed() {
    let mut n = 0;
    for e in entries() {
        let Some((path, want)) = seed_path(&e) else { continue };
        let got = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: no seed {path}: {err}", e.file));
        assert!(got == want, "{path} is not {} as recorded", e.file);
        n += 1;
    }
    assert_eq!(n, 66);
}
