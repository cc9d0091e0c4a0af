//! Replays every committed fuzz input — the seed corpus in `fuzz/corpus/<target>/` and the crash
//! reproducers in `fuzz/artifacts/<target>/` — through the same functions the libFuzzer targets
//! run (`fuzz/src/lib.rs`), so the fuzzers' findings stay fixed under stable `cargo test` on a
//! machine without a nightly toolchain. `scripts/fuzz.sh` does the fuzzing itself.
//!
//! Native only: the fuzz crate is a dev-dependency on non-wasm targets (`wasm-pack test` builds
//! every test target for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use toolnexus_fuzz::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The regular files of a directory, sorted (none when it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    out.sort();
    out
}

fn replay(target: &str, f: fn(&[u8]), dir: &str) -> usize {
    let inputs = files(&fuzz_dir().join(dir).join(target));
    for path in &inputs {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if std::panic::catch_unwind(|| f(&bytes)).is_err() {
            panic!("fuzz target {target} fails on {} (reproduce: cargo +nightly fuzz run {target} {0})", path.display());
        }
    }
    inputs.len()
}

#[test]
fn every_target_has_a_binary_and_a_seed_corpus() {
    let bins: Vec<String> =
        files(&fuzz_dir().join("fuzz_targets")).iter().filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned())).collect();
    let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(bins.len(), names.len(), "fuzz_targets/ {bins:?} and TARGETS {names:?} differ");
    for (name, _) in TARGETS {
        assert!(bins.iter().any(|b| b == name), "no fuzz_targets/{name}.rs");
        assert!(!files(&fuzz_dir().join("corpus").join(name)).is_empty(), "no seed corpus in fuzz/corpus/{name}/");
    }
}

#[test]
fn the_seed_corpus_passes_every_target() {
    for (name, f) in TARGETS {
        replay(name, *f, "corpus");
    }
}

#[test]
fn every_crash_reproducer_stays_fixed() {
    for (name, f) in TARGETS {
        replay(name, *f, "artifacts");
    }
}

/// Found by the `sse` target (reproducer `fuzz/artifacts/sse/empty-chunk-between-cr-and-lf`): a
/// zero-length chunk between the `\r` and `\n` of one CRLF made the `\n` a second line ending,
/// so the blank line dispatched the event early and dropped its `event:` field.
#[test]
fn an_empty_chunk_between_cr_and_lf_ends_nothing() {
    use toolnexus_wasm::sse::SseDecoder;
    let mut d = SseDecoder::new();
    let mut events = Vec::new();
    for chunk in [&b"event: delta\r"[..], b"", b"\ndata: x\r", b"", b"", b"\n\r", b"", b"\n"] {
        events.extend(d.push(chunk));
    }
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].event.as_deref(), Some("delta"));
    assert_eq!(events[0].data, "x");
    assert!(d.is_clean_end());
}

/// Found by the `run_loop` target (reproducers `fuzz/artifacts/{run_loop,reply_openai}/
/// synthesised-id-collides-with-provider-id`): a call without an id got `call_<turn>_<index>`
/// even when another call of the turn already had that id from the provider, so two calls shared
/// one id and a result was lost on resume.
#[test]
fn a_synthesised_call_id_never_takes_an_id_the_provider_used() {
    let reply = br#"{"choices":[{"message":{"tool_calls":[
        {"id":"call_1_1","function":{"name":"lookup","arguments":"{}"}},
        {"function":{"name":"lookup","arguments":"{}"}},
        {"id":"call_1_1","function":{"name":"lookup","arguments":"{}"}},
        {"id":"call_1_2_1","function":{"name":"lookup","arguments":"{}"}}]}}]}"#;
    // The target parses the reply, feeds it to the loop and asserts the ids are unique.
    toolnexus_fuzz::reply_openai(reply);
}
