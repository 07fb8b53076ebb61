#!/usr/bin/env bash
# Makes bench/.cache/heroku the published Heroku CLI the benchmarks read (bench/find-commands.mjs and others): a link
# to the corpus's pinned install (test/corpus/heroku, installed once into the corpus cache by test/corpus/install.sh,
# which the corpus suite and the compatibility matrix use too).
set -euo pipefail
cd "$(dirname "$0")"
bash ../test/corpus/install.sh heroku >&2
cache="${OCLIF_PLUGIN_MCP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oclif-plugin-mcp}/corpus"
sum=$(cat ../test/corpus/heroku/package.json ../test/corpus/heroku/package-lock.json | sha256sum | cut -c1-16)
TARGET=.cache/heroku
[ "$(readlink "$TARGET" 2>/dev/null)" = "$cache/heroku-$sum" ] && exit 0
# An install of its own from before (a directory) gives way to the link.
mkdir -p .cache
rm -rf "$TARGET"
ln -s "$cache/heroku-$sum" "$TARGET"
echo "setup-heroku: bench/$TARGET -> $cache/heroku-$sum" >&2
