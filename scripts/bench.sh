#!/usr/bin/env bash
# Speed figures: wall time of whole CLI runs (best of several), then criterion's
# library-level benchmarks. Compare figures as ratios within one run: machines are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo build --release --quiet
bin=./target/release/pegchain

# Best wall time of N runs of a command, in milliseconds.
best_ms() {
  local n=$1; shift
  local best=""
  for _ in $(seq "$n"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

echo "== CLI wall time (best of runs), $(nproc) cores"
printf '%-50s %8s  %s\n' "command" "ms" "target"
printf '%-50s %8s  %s\n' "exact --board triangle5 --start all" "$(best_ms 20 $bin exact --board triangle5 -q)" "< 20 ms"
printf '%-50s %8s  %s\n' "count --board triangle5 --start all" "$(best_ms 20 $bin count --board triangle5 -q)" ""
printf '%-50s %8s  %s\n' "exact --board triangle6 --start all" "$(best_ms 5 $bin exact --board triangle6 -q)" "< 2000 ms (issue 6: < 1000 ms)"
printf '%-50s %8s  %s\n' "count --board triangle6 --start all" "$(best_ms 3 $bin count --board triangle6 -q)" ""

echo
echo "== Random games on the 15-hole board (target: 4,000,000 in < 500 ms wall, > 8M games/s)"
printf '%-50s %8s\n' "audit (exact tables + 4,000,000 games), whole run" "$(best_ms 3 $bin audit -q) ms"
printf '%-50s %8s\n' "simulate --games 4000000, whole run" "$(best_ms 3 $bin simulate --games 4000000 -q) ms"
$bin simulate --games 4000000 2>&1 >/dev/null | tail -n 1 | sed 's/^/pegchain: /'
if command -v python3 >/dev/null 2>&1; then
  echo "python:   $(python3 scripts/python_random_games.py 20000)  (plain loop, seed 001's algorithm)"
fi

if [ "${1:-}" != "--quick" ]; then
  echo
  echo "== criterion (library calls)"
  cargo bench --bench exact -- --noplot 2>&1 | grep -E "^[a-z0-9_/ ]+time:|^exact|time:" || true
fi
