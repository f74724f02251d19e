#!/usr/bin/env bash
# Speed figures: wall time of whole CLI runs (best of several), then criterion's
# library-level benchmarks. Compare figures as ratios within one run: machines are shared.
#
#   scripts/bench.sh           small boards, random games (with a Python loop beside), criterion
#   scripts/bench.sh --quick   the same without criterion
#   scripts/bench.sh --big     also the big boards (English centre, triangle7, the coach on the
#                              English board; every English start
#                              too with PEGCHAIN_BENCH_HOURS=1) and, where
#                              stormpy is installed (pip install stormpy), Storm beside pegchain:
#                              several minutes
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
[ -x target/release/pegchain ] || echo "Building pegchain (the first build compiles GMP: about two minutes)..." >&2
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
printf '%-50s %8s  %s\n' "coach --board triangle5 --start A" "$(best_ms 20 $bin coach --start A)" "(library: < 2 ms, criterion below)"
printf '%-50s %8s  %s\n' "coach --board triangle6 --start A" "$(best_ms 3 $bin coach --board triangle6 --start A)" ""

echo
echo "== Random games on the 15-hole board (target: 4,000,000 in < 500 ms wall, > 8M games/s)"
printf '%-50s %8s\n' "audit (exact tables + 4,000,000 games), whole run" "$(best_ms 3 $bin audit -q) ms"
printf '%-50s %8s\n' "simulate --games 4000000, whole run" "$(best_ms 3 $bin simulate --games 4000000 -q) ms"
$bin simulate --games 4000000 2>&1 >/dev/null | tail -n 1 | sed 's/^/pegchain: /'
if command -v python3 >/dev/null 2>&1; then
  echo "python:   $(python3 scripts/python_random_games.py 20000)  (plain loop, seed 001's algorithm)"
fi

echo
echo "== Markov chains (issue 11 target: Herman's ring of 11 processes, expected steps exactly, < 5 s)"
printf '%-50s %8s\n' "game herman --processes 9" "$(best_ms 5 $bin game herman --processes 9) ms"
printf '%-50s %8s\n' "game herman --processes 11" "$(best_ms 3 $bin game herman --processes 11) ms"
printf '%-50s %8s\n' "game chutes-and-ladders --distribution 100" "$(best_ms 5 $bin game chutes-and-ladders --distribution 100) ms"
printf '%-50s %8s\n' "game chutes-and-ladders --players 3" "$(best_ms 5 $bin game chutes-and-ladders --players 3) ms"
# A long distribution: its numbers grow every step, so time goes as the steps squared.
printf '%-50s %8s\n' "game craps --distribution 4000" "$(best_ms 3 $bin game craps --distribution 4000) ms"

# Wall seconds and peak memory of one run, as "12.3 s, 0.93 GB".
wall_and_peak() {
  /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -n 1 | awk '{printf "%.1f s, %.2f GB", $1, $2 / 1e6}'
}

if [ "${1:-}" = "--big" ]; then
  echo
  echo "== Big boards (targets: English centre < 60 s and < 4 GB, issue 13: < 8 s and < 1 GB; triangle7 all starts < 5 min, issue 13: < 30 s)"
  printf '%-50s %s\n' "exact --board english --start d4" "$(wall_and_peak $bin exact --board english --start d4 -q)"
  printf '%-50s %s\n' "count --board english --start d4" "$(wall_and_peak $bin count --board english --start d4 -q)"
  # Numerators modulo primes (--residues K, K primes a pass) and steps in rounds under a
  # budget (--max-memory), beside the big-number run above: the same output, less memory.
  printf '%-50s %s\n' "  the same, --residues 4" "$(wall_and_peak $bin exact --board english --start d4 -q --residues 4)"
  printf '%-50s %s\n' "  the same, --residues 2 --max-memory 0.5" \
    "$(wall_and_peak $bin exact --board english --start d4 -q --residues 2 --max-memory 0.5)"
  # A budget the peak of the whole process keeps to (0.26 GB, 2026-12-02; 0.37 GB before a
  # step near its budget gave memory back).
  spill=$(mktemp -d)
  printf '%-50s %s\n' "  the same, --residues 3 --max-memory 0.3 --spill" \
    "$(wall_and_peak $bin exact --board english --start d4 -q --residues 3 --max-memory 0.3 --spill "$spill")"
  rmdir "$spill"
  # Every start: the method chosen as the faster (the whole group here), then each asked for.
  printf '%-50s %s\n' "exact --board triangle7 --start all" "$(wall_and_peak $bin exact --board triangle7 -q)"
  printf '%-50s %s\n' "  the same, --stabilizer" "$(wall_and_peak $bin exact --board triangle7 -q --stabilizer)"
  printf '%-50s %s\n' "  the same, --whole-group" "$(wall_and_peak $bin exact --board triangle7 -q --whole-group)"
  # The coach on the English board (issue 12 targets: < 5 s after four jumps, < 15 s from a
  # full board), after k jumps of the first solution `solve` finds from d4.
  solution="d2-d3-d4,b3-c3-d3,c1-c2-c3,e1-d1-c1,d3-c3-b3,a3-b3-c3,e3-e2-e1,g3-f3-e3"
  for k in 8 6 4; do
    printf '%-50s %s\n' "coach --board english --start d4, $k jumps" \
      "$(wall_and_peak $bin coach --board english --start d4 --moves "$(echo $solution | cut -d, -f1-$k)" -q)"
  done
  printf '%-50s %s\n' "coach --board english --start d4 (full board)" "$(wall_and_peak $bin coach --board english --start d4 -q)"
  # The 5 s after four jumps on a shared machine: the coach and the English centre alternated
  # three times, the best of each, and their ratio (a slow hour slows both alike).
  coach_best=""; centre_best=""
  for _ in 1 2 3; do
    ms=$(best_ms 1 $bin coach --board english --start d4 --moves "$(echo $solution | cut -d, -f1-4)" -q)
    if [ -z "$coach_best" ] || [ "$ms" -lt "$coach_best" ]; then coach_best=$ms; fi
    ms=$(best_ms 1 $bin exact --board english --start d4 -q)
    if [ -z "$centre_best" ] || [ "$ms" -lt "$centre_best" ]; then centre_best=$ms; fi
  done
  printf '%-50s %s\n' "  4 jumps against the English centre (best of 3)" \
    "$(awk -v a="$coach_best" -v b="$centre_best" 'BEGIN {printf "%.2f s / %.2f s = %.2f", a / 1000, b / 1000, a / b}')"
  # A game in the page: the full board, then each of the solution's first eight jumps, one
  # answer after another from one server (the positions below the first answer come from
  # the future it keeps); curl's seconds per answer and the server's peak memory.
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  $bin serve --port "$port" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  answers=""
  for k in 0 1 2 3 4 5 6 7 8; do
    moves=""; [ "$k" -gt 0 ] && moves=$(echo $solution | cut -d, -f1-$k)
    answers="$answers $(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/api/coach?board=english&start=d4&moves=$moves" | awk '{printf "%.2f", $1}')"
  done
  peak=$(awk '/VmHWM/ {printf "%.2f GB", $2 / 1e6}' "/proc/$server/status")
  kill "$server"; wait "$server" 2>/dev/null || true
  printf '%-50s %s\n' "serve: english from d4, then 8 jumps (s each)" "$answers; peak $peak"
  if [ -n "${PEGCHAIN_BENCH_HOURS:-}" ]; then
    # The European centre: big numbers (about 12 minutes, 16.5 GB), then by residues under a
    # 6 GB budget (several hours: one pass per two primes).
    printf '%-50s %s\n' "exact --board european --start d4" "$(wall_and_peak $bin exact --board european --start d4 -q)"
    printf '%-50s %s\n' "  the same, --residues 2 --max-memory 6" \
      "$(wall_and_peak $bin exact --board european --start d4 -q --residues 2 --max-memory 6)"
    # Every start of the English board, by both methods (the stabilizer chosen as the
    # faster): about half an hour in all.
    for method in "" "--whole-group"; do
      printf '%-50s %s\n' "exact --board english --start all $method" \
        "$(wall_and_peak $bin exact --board english --start all -q $method)"
    done
  fi
  if command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1; then
    # The same binary with the mpi feature: one process alone runs as without it.
    cargo build --release --quiet --features mpi
    echo
    echo "== MPI: the English centre shared by N local processes (on 2 cores the point is"
    echo "   correctness and traffic, not speed-up); wall time, each process's peak memory"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    plain_out=$(mktemp); mpi_out=$(mktemp)
    printf '%-50s %s
' "exact --board english --start d4 (no mpirun)" \
      "$(/usr/bin/time -f "%e %M" $bin exact --board english --start d4 -q --json 2>&1 >"$plain_out" |
        tail -n 1 | awk '{printf "%d ms; %.2f GB", $1 * 1000, $2 / 1e6}')"
    for np in 1 2 4; do
      t0=$(date +%s%N)
      peaks=$(mpirun -q --oversubscribe --bind-to none -np $np /usr/bin/time -f "%M" \
        $bin exact --board english --start d4 -q --json 2>&1 >"$mpi_out" | awk '{printf "%.2f GB ", $1 / 1e6}')
      t1=$(date +%s%N)
      same=$(cmp -s "$plain_out" "$mpi_out" && echo "same bytes" || echo "DIFFERENT bytes")
      printf '%-50s %s
' "mpirun -np $np ... exact --board english --start d4" \
        "$(( (t1 - t0) / 1000000 )) ms; per process: $peaks; $same"
    done
    # A run by residues deals its passes out between the processes (no traffic): on 2
    # cores no faster, but each process makes half the passes.
    printf '%-50s %s\n' "exact --board english --start d4 --residues 4" \
      "$(wall_and_peak $bin exact --board english --start d4 -q --residues 4)"
    t0=$(date +%s%N)
    peaks=$(mpirun -q --oversubscribe --bind-to none -np 2 /usr/bin/time -f "%M" \
      $bin exact --board english --start d4 -q --json --residues 4 2>&1 >"$mpi_out" | awk '{printf "%.2f GB ", $1 / 1e6}')
    t1=$(date +%s%N)
    same=$(cmp -s "$plain_out" "$mpi_out" && echo "same bytes" || echo "DIFFERENT bytes")
    printf '%-50s %s\n' "mpirun -np 2 ... --residues 4" "$(( (t1 - t0) / 1000000 )) ms; per process: $peaks; $same"
    rm -f "$plain_out" "$mpi_out"
  fi
  echo
  echo "== A sparse chain of a million states and ten million transitions (target: read in seconds, < 4 GB)"
  chain_dir=$(mktemp -d)
  python3 scripts/sparse_chain.py 1000000 "$chain_dir/sparse.drn"
  printf '%-50s %s\n' "chain sparse.drn (reading only: an unknown label)" "$(wall_and_peak $bin chain "$chain_dir/sparse.drn" --target none || true)"
  printf '%-50s %s\n' "chain sparse.drn --target goal" "$(wall_and_peak $bin chain "$chain_dir/sparse.drn" --target goal)"
  printf '%-50s %s\n' "game herman --processes 13" "$(wall_and_peak $bin game herman --processes 13)"
  # One component of 11,552 states: a dense factoring, then Dixon's lifting to 4,335 digits.
  printf '%-50s %s\n' "game chutes-and-ladders --players 2" "$(wall_and_peak $bin game chutes-and-ladders --players 2 -q)"
  rm -rf "$chain_dir"
  if python3 -c "import stormpy" 2>/dev/null; then
    echo
    echo "== Storm's exact engine beside pegchain on chains (scripts/storm_crosscheck.py)"
    python3 scripts/storm_crosscheck.py --storm-timeout 240
    echo
    echo "== Storm's exact engine beside pegchain (same question, same answers)"
    for run in "A 0" "all"; do
      set -- $run
      if [ "$1" = "all" ]; then storm_args="6"; ours_args="--start all"; else storm_args="6 $2"; ours_args="--start $1"; fi
      t0=$(date +%s%N); storm_out=$(python3 scripts/storm_triangle.py $storm_args); t1=$(date +%s%N)
      t2=$(date +%s%N); ours_out=$($bin exact --board triangle6 $ours_args -q --json); t3=$(date +%s%N)
      echo "$storm_out" | head -n 1
      storm_ms=$(( (t1 - t0) / 1000000 )); ours_ms=$(( (t3 - t2) / 1000000 ))
      # The same fractions, start by start (Storm lists its initial states in its own order).
      same=$(python3 -c '
import json, sys
storm = sorted(l.split(" = ")[1] for l in sys.argv[1].splitlines()[1:])
ours = sorted(s["win"]["fraction"] for s in json.loads(sys.argv[2])["starts"])
print("same fractions" if storm == ours else "DIFFERENT fractions")' "$storm_out" "$ours_out")
      echo "triangle6 $ours_args: Storm $storm_ms ms, pegchain $ours_ms ms, ratio $(( storm_ms / (ours_ms > 0 ? ours_ms : 1) ))x, $same"
    done
  else
    echo "(stormpy not installed: pip install stormpy to run Storm beside pegchain)"
  fi
fi

if [ "${1:-}" != "--quick" ] && [ "${1:-}" != "--big" ]; then
  echo
  echo "== criterion (library calls)"
  cargo bench --bench exact -- --noplot 2>&1 | grep -E "^[a-z0-9_/ ]+time:|^exact|time:" || true
fi
