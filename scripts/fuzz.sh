#!/usr/bin/env bash
# Fuzzes the parsers (board files: seed 002 JSON + CSV and pictures; race rules files) for
# about SECONDS seconds: loops the property tests of tests/fuzz_inputs.rs with many cases
# per round (PEGCHAIN_FUZZ_CASES, default 20000) and prints the cases run per target.
# Each round draws new inputs (a new PEGCHAIN_FUZZ_SEED; the test suite uses seed 0). Stops at
# the first failure, which proptest shrinks and shows with the seed that reproduces it.
# Usage: scripts/fuzz.sh SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
seconds=${1:?usage: scripts/fuzz.sh SECONDS}
cases=${PEGCHAIN_FUZZ_CASES:-20000}
log=$(mktemp)
trap 'rm -f "$log" "$log.round"' EXIT
cargo test --release --test fuzz_inputs --no-run 2>/dev/null
end=$((SECONDS + seconds))
rounds=0
while ((SECONDS < end)); do
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  if ! PEGCHAIN_FUZZ_SEED=$seed PEGCHAIN_FUZZ_CASES=$cases cargo test --release --test fuzz_inputs fuzz_ -- --nocapture \
    >"$log.round" 2>&1; then
    grep -E -A12 "panicked" "$log.round" || cat "$log.round"
    echo "fuzz: a failure, above (round $((rounds + 1)), PEGCHAIN_FUZZ_SEED=$seed)"
    exit 1
  fi
  cat "$log.round" >>"$log"
  rounds=$((rounds + 1))
done
echo "fuzz: $rounds rounds in ${SECONDS}s"
awk '/^fuzz target/ { sub(":", "", $3); n[$3] += $4; a[$3] += $6 }
     END { for (t in n) printf "fuzz target %s: %d cases, %d accepted\n", t, n[t], a[t] }' "$log" | sort
