#!/usr/bin/env bash
# Makes OpenBLAS available to the cpu-blas tier: the system's where ldconfig knows one, else
# Debian's libopenblas0-pthread (and the Fortran runtime it links) fetched into .tmp/openblas
# without touching the system (.ci/apt-fetch.sh). Prints the exports: TESSERA_BLAS (the
# library's path, when fetched), LD_LIBRARY_PATH, and TESSERA_REQUIRE_BLAS=1 so the tier fails
# instead of skipping. Where nothing can be fetched it prints a warning and no exports.
#
# Usage: eval "$(bash .ci/openblas.sh)"   — idempotent. Progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD/.tmp/openblas"
ARCH_LIB="usr/lib/x86_64-linux-gnu"
LIB="$ROOT/root/$ARCH_LIB/openblas-pthread/libopenblas.so.0"

if ldconfig -p 2>/dev/null | grep -q 'libopenblas\.so\.0 '; then
  echo "openblas.sh: the system has OpenBLAS" >&2
  echo "export TESSERA_REQUIRE_BLAS=1"
  exit 0
fi

if [[ ! -f "$ROOT/.done" ]]; then
  start=$(date +%s%N)
  if ! bash .ci/apt-fetch.sh "$ROOT" "bookworm" libopenblas0-pthread libgfortran5 libquadmath0 ||
    [[ ! -f "$LIB" ]]; then
    echo "WARNING: openblas.sh could not fetch OpenBLAS: the cpu-blas tests will be skipped" >&2
    exit 0
  fi
  touch "$ROOT/.done"
  ms=$((($(date +%s%N) - start) / 1000000))
  echo "openblas.sh: fetched and unpacked in $((ms / 1000)).$(printf %03d $((ms % 1000))) s" >&2
fi

echo "export TESSERA_BLAS='$LIB'"
echo "export LD_LIBRARY_PATH='$ROOT/root/$ARCH_LIB'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
echo "export TESSERA_REQUIRE_BLAS=1"
