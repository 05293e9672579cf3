#!/usr/bin/env bash
# Fetches Debian's chromium into .tmp/chromium without touching the system (.ci/apt-private.sh,
# apt-get download, dpkg-deb -x), with the libraries it needs that the system lacks; prints the exports.
#
# Usage: eval "$(bash .ci/chromium.sh)"   — idempotent: a second run only prints the exports.
# Where a chromium is already on PATH it prints that one, unless TESSERA_FORCE_CHROMIUM=1.
# Progress goes to stderr, the export lines alone to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD/.tmp/chromium"
ARCH_LIB="usr/lib/x86_64-linux-gnu"
BIN="$ROOT/root/usr/lib/chromium/chromium"

if [[ "${TESSERA_FORCE_CHROMIUM:-0}" != 1 && ! -f "$ROOT/.done" ]]; then
  for name in chromium chromium-browser; do
    if system="$(command -v "$name")"; then
      echo "chromium.sh: using the system's $system" >&2
      echo "export TESSERA_CHROMIUM='$system'"
      exit 0
    fi
  done
fi

# Packages chromium depends on (recursively) that dpkg does not list as installed.
missing_packages() {
  apt-cache "${APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances chromium |
    grep -E '^[a-z0-9][a-z0-9.+-]*$' | sort -u |
    while read -r pkg; do
      if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        echo "$pkg"
      fi
    done
}

if [[ ! -f "$ROOT/.done" ]]; then
  start=$(date +%s%N)
  [[ -f "$ROOT/.downloaded" ]] || rm -rf "$ROOT"
  # the system's sources as they are: chromium's security updates are under bookworm-security
  # shellcheck source=apt-private.sh
  . .ci/apt-private.sh
  apt_private "$ROOT"
  if [[ ! -f "$ROOT/.downloaded" ]]; then
    apt-get "${APT[@]}" update >&2
    mapfile -t pkgs < <(missing_packages)
    echo "chromium.sh: downloading ${#pkgs[@]} packages" >&2
    # virtual packages and ones without a candidate are left out: ldd below says what is missing
    (cd "$ROOT/debs" && printf '%s\n' "${pkgs[@]}" |
      xargs apt-get "${APT[@]}" download >&2 2>/dev/null) ||
      (cd "$ROOT/debs" && for p in "${pkgs[@]}"; do apt-get "${APT[@]}" download "$p" >&2 || true; done)
    touch "$ROOT/.downloaded"
  fi
  for deb in "$ROOT"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT/root"; done
  [[ -x "$BIN" ]] || { echo "chromium.sh: $BIN missing after unpacking" >&2; exit 1; }
  libs="$ROOT/root/$ARCH_LIB:$ROOT/root/$ARCH_LIB/pulseaudio:$ROOT/root/usr/lib/chromium"
  if LD_LIBRARY_PATH="$libs" ldd "$BIN" | grep 'not found' >&2; then
    echo "chromium.sh: libraries above are still missing" >&2
    exit 1
  fi
  rm -rf "$ROOT/apt/archives" "$ROOT/apt/lists" "$ROOT/debs" "$ROOT/.downloaded"
  touch "$ROOT/.done"
  ms=$((($(date +%s%N) - start) / 1000000))
  echo "chromium.sh: fetched and unpacked in $((ms / 1000)).$(printf %03d $((ms % 1000))) s" >&2
fi

# A wrapper: chromium finds its private libraries without changing the tests' environment.
cat >"$ROOT/chromium" <<WRAP
#!/bin/sh
export LD_LIBRARY_PATH='$ROOT/root/$ARCH_LIB:$ROOT/root/$ARCH_LIB/pulseaudio:$ROOT/root/usr/lib/chromium'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
exec '$BIN' "\$@"
WRAP
chmod +x "$ROOT/chromium"
echo "export TESSERA_CHROMIUM='$ROOT/chromium'"
