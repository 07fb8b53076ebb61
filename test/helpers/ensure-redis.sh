#!/usr/bin/env bash
# Makes sure the tests can start a real redis-server (Debian's package): one on PATH, else one unpacked earlier into
# the cache, else installed (as root) or unpacked from the Debian packages without installing (as anyone else) into
# ${XDG_CACHE_HOME:-~/.cache}/oclif-plugin-mcp/redis. test/helpers/redis.ts looks in the same places.
#   bash test/helpers/ensure-redis.sh            as above
#   bash test/helpers/ensure-redis.sh --unpack   always unpack into the cache (what a user without root gets)
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/oclif-plugin-mcp/redis"
if [[ "${1:-}" != --unpack ]]; then
  command -v redis-server >/dev/null && exit 0
  [[ -x "$cache/usr/bin/redis-server" ]] && exit 0
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    echo "installing redis-server (Debian package) for the tests" >&2
    apt-get install -y -q redis-server >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null; }
    exit 0
  fi
fi

if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
  echo "The tests need redis-server: install it (Debian and Ubuntu: apt-get install redis-server)." >&2
  exit 1
fi

echo "unpacking redis-server (Debian packages, not installed) into $cache for the tests" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q redis-server redis-tools libjemalloc2 liblzf1 >/dev/null)
rm -rf "$cache" && mkdir -p "$cache"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$cache"; done
"$cache/usr/bin/redis-server" --version >/dev/null 2>&1 || LD_LIBRARY_PATH="$(dirname "$(find "$cache" -name 'libjemalloc.so*' | head -1)")" "$cache/usr/bin/redis-server" --version >/dev/null
