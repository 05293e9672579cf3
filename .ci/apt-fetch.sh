#!/usr/bin/env bash
# Fetches Debian packages into a folder without touching the system: a private apt state
# (its own sources, lists and archives; the system's dpkg status only read), apt-get
# download, dpkg-deb -x into DEST/root. Progress goes to stderr.
#
# Usage: bash .ci/apt-fetch.sh DEST SUITES PACKAGE...   (SUITES e.g. "bookworm bookworm-backports")
set -euo pipefail
ROOT="$1"
SUITES="$2"
shift 2
mkdir -p "$ROOT/apt/lists/partial" "$ROOT/apt/archives/partial" "$ROOT/apt/sources.d" \
  "$ROOT/debs" "$ROOT/root"
# First stanza of the system's deb822 sources, with the suites asked for.
src=/etc/apt/sources.list.d/debian.sources
if [[ -f "$src" ]]; then
  awk 'BEGIN{p=1} /^$/{exit} p' "$src" |
    sed "s/^Suites:.*/Suites: $SUITES/" >"$ROOT/apt/sources.d/debian.sources"
else
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
    "Suites: $SUITES" 'Components: main' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$ROOT/apt/sources.d/debian.sources"
fi
APT=(-o "Dir::Etc::sourcelist=/nonexistent" -o "Dir::Etc::sourceparts=$ROOT/apt/sources.d"
  -o "Dir::State::Lists=$ROOT/apt/lists" -o "Dir::Cache::archives=$ROOT/apt/archives"
  -o "Dir::State::status=/var/lib/dpkg/status" -o "Debug::NoLocking=1" -qq)
apt-get "${APT[@]}" update >&2
(cd "$ROOT/debs" && apt-get "${APT[@]}" download "$@" >&2)
for deb in "$ROOT"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT/root"; done
rm -rf "$ROOT/apt/archives" "$ROOT/apt/lists"
