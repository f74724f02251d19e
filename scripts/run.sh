#!/usr/bin/env bash
# The main job: the audit of the textbook claim p = 0.0070 (exact values, a 4M-game
# simulation, the hypotheses). Extra arguments go to `pegchain audit` (--markdown, --json, --svg DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
[ -x target/release/pegchain ] || echo "Building pegchain (the first build compiles GMP: about two minutes)..." >&2
cargo build --release --quiet
exec ./target/release/pegchain audit "$@"
