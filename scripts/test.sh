#!/usr/bin/env bash
# Runs every test (release build: GMP is built once, in about two minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo test --release "$@"
