#!/usr/bin/env bash
# Bounded fuzzing of every cargo-fuzz target in fuzz/ (libFuzzer, nightly only), one target after
# another on one core, and the executions of each.
#
#   scripts/fuzz.sh [seconds-per-target] [target ...]      default: 60 s, every target
#
# Each target grows a working corpus in fuzz/work/<target>/ (not committed), reading the committed
# seeds in fuzz/corpus/<target>/; a crash leaves its input in fuzz/artifacts/<target>/, where
# `cargo test` (tests/fuzz_replay.rs) replays it once committed. Exits 1 when any target crashed.
# Without a nightly toolchain it says so and exits 0: the corpus replay in `cargo test` still runs.
#
# FUZZ_SANITIZER=address|none (default none: the core has no unsafe code, and without ASan a
# target runs several times more inputs per second; panics, overflow checks and debug assertions
# are caught either way).
set -euo pipefail
cd "$(dirname "$0")/.."

secs="${1:-60}"
shift || true
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [seconds-per-target] [target ...]" >&2
  exit 2
fi

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz.sh: no nightly Rust toolchain on this machine; skipping the fuzz run (cargo test still replays fuzz/corpus and fuzz/artifacts)"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz from crates.io"
  cargo install cargo-fuzz --locked
fi

if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in fuzz/fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi

sanitizer="${FUZZ_SANITIZER:-none}"
flags=(--sanitizer "$sanitizer" --debug-assertions)
echo "== fuzz: ${#targets[@]} targets, ${secs} s each (nightly, sanitizer $sanitizer, debug assertions on)"
if [ "${#targets[@]}" -eq 1 ]; then
  cargo +nightly fuzz build "${flags[@]}" "${targets[0]}"
else
  cargo +nightly fuzz build "${flags[@]}"
fi

mkdir -p fuzz/work/logs
total=0
failed=()
printf '%-18s %14s %8s %12s\n' target executions seconds "exec/s"
for t in "${targets[@]}"; do
  mkdir -p "fuzz/work/$t" "fuzz/artifacts/$t"
  log="fuzz/work/logs/$t.log"
  # No -jobs/-workers: libFuzzer then fuzzes in this one process, on one core.
  status=0
  cargo +nightly fuzz run "${flags[@]}" "$t" "fuzz/work/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  runs=${runs:-0}
  total=$((total + runs))
  printf '%-18s %14s %8s %12s\n' "$t" "$runs" "$secs" "$((runs / secs))"
  if [ "$status" -ne 0 ]; then
    failed+=("$t")
    echo "!! $t crashed (exit $status); see $log and fuzz/artifacts/$t/:" >&2
    grep -E "panicked at|^SUMMARY|Test unit written" "$log" | head -5 >&2 || true
  fi
done
printf '%-18s %14s\n' total "$total"

if [ "${#failed[@]}" -gt 0 ]; then
  echo "!! crashes in: ${failed[*]}" >&2
  exit 1
fi
