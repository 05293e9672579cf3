#!/usr/bin/env bash
# Fetches Mesa lavapipe (software Vulkan) from bookworm-backports into .tmp/lavapipe without
# touching the system (.ci/apt-fetch.sh: private apt state, apt-get download, dpkg-deb -x);
# prints the exports.
#
# Usage: eval "$(bash .ci/lavapipe.sh)"   — idempotent: a second run only prints the exports.
# Where a Vulkan ICD is already installed (a real GPU's driver) it prints nothing, unless
# TESSERA_FORCE_LAVAPIPE=1. Progress goes to stderr, the export lines alone to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD/.tmp/lavapipe"
ARCH_LIB="usr/lib/x86_64-linux-gnu"
ICD="$ROOT/lvp_icd.json"

system_icd() {
  local d
  for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
    if compgen -G "$d/*.json" >/dev/null; then return 0; fi
  done
  return 1
}

if [[ "${TESSERA_FORCE_LAVAPIPE:-0}" != 1 ]] && system_icd && [[ ! -f "$ICD" ]]; then
  echo "lavapipe.sh: a system Vulkan ICD is present; leaving it alone" >&2
  exit 0
fi

if [[ ! -f "$ROOT/.done" ]]; then
  start=$(date +%s%N)
  bash .ci/apt-fetch.sh "$ROOT" "bookworm bookworm-backports" \
    mesa-vulkan-drivers/bookworm-backports libdrm2/bookworm-backports \
    libdrm-amdgpu1/bookworm-backports libvulkan1
  lib="$ROOT/root/$ARCH_LIB/libvulkan_lvp.so"
  [[ -f "$lib" ]] || { echo "lavapipe.sh: $lib missing after unpacking" >&2; exit 1; }
  cat >"$ICD" <<EOF
{
  "file_format_version": "1.0.0",
  "ICD": { "library_path": "$lib", "api_version": "1.3.0" }
}
EOF
  touch "$ROOT/.done"
  ms=$((($(date +%s%N) - start) / 1000000))
  echo "lavapipe.sh: fetched and unpacked in $((ms / 1000)).$(printf %03d $((ms % 1000))) s" >&2
fi

mkdir -p "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
echo "export VK_ICD_FILENAMES='$ICD'"
echo "export VK_DRIVER_FILES='$ICD'"
echo "export LD_LIBRARY_PATH='$ROOT/root/$ARCH_LIB'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
echo "export XDG_RUNTIME_DIR=\"\${XDG_RUNTIME_DIR:-$ROOT/xdg}\""
# llvmpipe starts a thread per core in every process that opens it: the suite's two forks on
# two cores, each with a GPU worker, oversubscribed the machine (npm test 193-222 s; with one
# thread per process, 165 s). A caller's own value is kept.
echo "export LP_NUM_THREADS=\${LP_NUM_THREADS:-1}"
