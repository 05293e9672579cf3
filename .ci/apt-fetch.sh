#!/usr/bin/env bash
# Fetches Debian packages into a folder without touching the system (.ci/apt-private.sh:
# a private apt state), apt-get download, dpkg-deb -x into DEST/root. Progress goes to stderr.
#
# Usage: bash .ci/apt-fetch.sh DEST SUITES PACKAGE...   (SUITES e.g. "bookworm bookworm-backports")
set -euo pipefail
ROOT="$1"
SUITES="$2"
shift 2
# shellcheck source=apt-private.sh
. "$(dirname "$0")/apt-private.sh"
apt_private "$ROOT" "$SUITES"
apt-get "${APT[@]}" update >&2
(cd "$ROOT/debs" && apt-get "${APT[@]}" download "$@" >&2)
for deb in "$ROOT"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT/root"; done
rm -rf "$ROOT/apt/archives" "$ROOT/apt/lists"
