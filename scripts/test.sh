#!/usr/bin/env bash
# Runs every test (release build: GMP is built once, in about two minutes the first time),
# then prints the totals on one line. Arguments go to `cargo test` (e.g. -- --ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --release --workspace "$@" 2>&1 | tee "$log" || status=$?
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) s += $i } }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
exit "$status"
