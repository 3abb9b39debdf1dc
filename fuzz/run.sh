#!/usr/bin/env bash
# Runs the libFuzzer target for SECONDS (default 1800) and keeps going after a finding, so that one run
# collects every crash (fuzz/artifacts/) and prints libFuzzer's final statistics (executions).
# Needs a nightly toolchain and `cargo install cargo-fuzz`. Usage: fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-1800}"
corpus=corpus/parse_check_play
mkdir -p "$corpus" artifacts/parse_check_play
# Seed the corpus with every shipped variant, each prefixed with a move count and move picks.
for f in ../variants/*.sow ../variants/reference/*.sow; do
  out="$corpus/seed-$(basename "$f")"
  [ -e "$out" ] || { printf '\x10\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f'; cat "$f"; } > "$out"
done
exec cargo +nightly fuzz run parse_check_play "$corpus" -- \
  -dict=sow.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1 \
  -artifact_prefix=artifacts/parse_check_play/
