#!/usr/bin/env bash
# Installs what a fresh machine lacks to build pegchain: m4 (GMP's build needs it) and,
# if missing, a Rust toolchain from rustup. With --browser (scripts/test.sh passes it), also
# Debian's chromium and chromium-driver for the coach page's browser test; with --mpi (also
# passed by scripts/test.sh), Open MPI and libclang for the `mpi` feature (mpirun shares
# exact, count and ends between processes). A failed browser or MPI install only warns (its
# tests are then skipped). Safe to run again: it only installs what is missing.
set -euo pipefail

need_apt=()
command -v m4 >/dev/null 2>&1 || need_apt+=(m4)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v cc >/dev/null 2>&1 || need_apt+=(gcc)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} (needed to build GMP)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
  [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null 2>&1 || {
  echo "setup: cargo not found; install Rust (https://rustup.rs) and run again" >&2
  exit 1
}

if [[ " $* " == *" --browser "* ]] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  echo "setup: installing chromium and chromium-driver (for the coach page's browser test)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null; } ||
    echo "setup: could not install chromium; the browser test will be skipped" >&2
fi

if [[ " $* " == *" --mpi "* ]] && { ! command -v mpirun >/dev/null 2>&1 || ! command -v mpicc >/dev/null 2>&1 ||
  ! ls /usr/lib/llvm-*/lib/libclang.so >/dev/null 2>&1; }; then
  echo "setup: installing openmpi-bin, libopenmpi-dev and libclang-dev (for the mpi feature)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev >/dev/null; } ||
    echo "setup: could not install Open MPI; the build leaves out the mpi feature and its tests" >&2
fi
