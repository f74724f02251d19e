#!/usr/bin/env bash
# Runs every test (release build: GMP is built once, in about two minutes the first time)
# and checks the README's examples against real output, then prints the totals on one line.
# Arguments go to `cargo test` (e.g. -- --ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --browser --mpi
# The mpi feature where Open MPI is installed (its tests run mpirun with 1, 2 and 4 processes).
features=()
command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && features=(--features mpi)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --release --workspace "${features[@]}" "$@" 2>&1 | tee "$log" || status=$?
# The README's examples are real output: each one is run again and compared.
if python3 scripts/readme_examples.py --check; then
  echo "test result: ok. 1 passed; 0 failed; 0 ignored (README examples)" >> "$log"
else
  echo "test result: FAILED. 0 passed; 1 failed; 0 ignored (README examples)" >> "$log"
  status=1
fi
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) s += $i } }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
exit "$status"
