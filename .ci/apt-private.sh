# Sourced by the .ci fetch scripts: a private apt state under a folder, so packages can be
# downloaded and unpacked without touching the system (its dpkg status is only read).
#
#   . .ci/apt-private.sh; apt_private ROOT [SUITES]
# makes ROOT/{apt,debs,root} and sets the APT array of apt-get/apt-cache options. SUITES
# given: the first stanza of the system's deb822 sources with those suites; else the
# system's sources as they are (security updates included). Without a deb822 file, Debian's
# main archive.

apt_private() {
  local root="$1" suites="${2:-}" src=/etc/apt/sources.list.d/debian.sources
  local list="$root/apt/sources.d/debian.sources"
  mkdir -p "$root/apt/lists/partial" "$root/apt/archives/partial" "$root/apt/sources.d" \
    "$root/debs" "$root/root"
  if [[ -f "$src" && -n "$suites" ]]; then
    awk 'BEGIN{p=1} /^$/{exit} p' "$src" | sed "s/^Suites:.*/Suites: $suites/" >"$list"
  elif [[ -f "$src" ]]; then
    cp "$src" "$list"
  else
    printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
      "Suites: ${suites:-bookworm bookworm-updates}" 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$list"
  fi
  APT=(-o "Dir::Etc::sourcelist=/nonexistent" -o "Dir::Etc::sourceparts=$root/apt/sources.d"
    -o "Dir::State::Lists=$root/apt/lists" -o "Dir::Cache::archives=$root/apt/archives"
    -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
    -o "Dir::State::status=/var/lib/dpkg/status" -o "Debug::NoLocking=1" -qq)
}
