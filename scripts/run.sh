#!/usr/bin/env bash
# The main job: the exact random-play table of the 15-hole board. Extra arguments are
# passed to `pegchain exact` (for example --json, or --board triangle6).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo build --release --quiet
exec ./target/release/pegchain exact "$@"
