#!/usr/bin/env bash
# Installs the published Heroku CLI once into bench/.cache/heroku, for bench/find-commands.mjs.
set -euo pipefail
cd "$(dirname "$0")"
VERSION=11.10.0
TARGET=.cache/heroku
if [ -f "$TARGET/node_modules/heroku/package.json" ] &&
  grep -q "\"version\": \"$VERSION\"" "$TARGET/node_modules/heroku/package.json"; then
  exit 0
fi
echo "setup-heroku: installing heroku@$VERSION into bench/$TARGET (about a minute, ~400 MB)" >&2
mkdir -p "$TARGET"
npm install --prefix "$TARGET" "heroku@$VERSION" --no-audit --no-fund >&2
