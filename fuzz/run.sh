#!/usr/bin/env bash
# Runs a libFuzzer target (parse_check or play, see harness.rs) for SECONDS (default 1800) at the lowest
# priority, one job, and keeps going after a finding, so that one run collects every crash, hang and
# memory blow-up (artifacts/TARGET/) and prints libFuzzer's final statistics (executions, rate).
# New inputs go to runs/TARGET/ (not kept); the kept corpus corpus/TARGET/ is read, never written:
# fold a long run's finds into it with `cargo +nightly fuzz cmin TARGET` on both folders.
# Needs a nightly toolchain and `cargo install cargo-fuzz`. Usage: fuzz/run.sh TARGET [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: fuzz/run.sh parse_check|play [SECONDS]}"
seconds="${2:-1800}"
mkdir -p "runs/$target" "artifacts/$target"
# -timeout: one input's seconds of wall time (an input takes milliseconds, but at the lowest priority on
# a busy machine it may wait seconds for a core; a hang is a finding and never ends); -rss_limit_mb and
# -malloc_limit_mb: the memory one input may take (a blow-up is a finding).
# No sanitizer: the crate is safe Rust (address errors cannot happen outside `unsafe`), and without one
# the target runs several times faster; debug assertions and overflow checks stay on (cargo-fuzz's default).
exec nice -n 19 cargo +nightly fuzz run --sanitizer none "$target" "runs/$target" "corpus/$target" -- \
  -dict=sow.dict -max_total_time="$seconds" -timeout=30 -rss_limit_mb=1024 -malloc_limit_mb=512 \
  -max_len=16384 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1 \
  -artifact_prefix="artifacts/$target/"
