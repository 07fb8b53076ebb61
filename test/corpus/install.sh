#!/usr/bin/env bash
# Installs the corpus of published oclif CLIs (test/corpus/<name>/package.json + package-lock.json, pinned) into a
# cache outside the repository, one prefix per lockfile: ${OCLIF_PLUGIN_MCP_CACHE:-~/.cache/oclif-plugin-mcp}/corpus/
# <name>-<hash>. A prefix whose lockfile is already installed is kept, so only a changed lockfile costs an install.
# Usage: bash test/corpus/install.sh [name ...]   (default: every CLI of the corpus)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache="${OCLIF_PLUGIN_MCP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oclif-plugin-mcp}/corpus"
mkdir -p "$cache"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for dir in "$here"/*/; do [ -f "$dir/package-lock.json" ] && names+=("$(basename "$dir")"); done
fi

install() {
  local name=$1 began=$SECONDS sum target log
  sum=$(cat "$here/$name/package.json" "$here/$name/package-lock.json" | sha256sum | cut -c1-16)
  target="$cache/$name-$sum"
  if [ -f "$target/.installed" ]; then
    echo "corpus $name: cached in $target"
    return 0
  fi
  rm -rf "$target.partial"
  mkdir -p "$target.partial"
  cp "$here/$name/package.json" "$here/$name/package-lock.json" "$target.partial/"
  log="$target.partial/install.log"
  # Install scripts stay off (the CLIs run from their published files), unless the package.json says which may run
  # (npm's allowScripts policy: the \`node\` package needs its own to fetch the binary).
  local scripts=--ignore-scripts
  grep -q '"allowScripts"' "$here/$name/package.json" && scripts=
  if (cd "$target.partial" && npm ci $scripts --no-audit --no-fund --loglevel=error >"$log" 2>&1); then
    rm -rf "$target"
    mv "$target.partial" "$target"
    touch "$target/.installed"
    echo "corpus $name: installed in $((SECONDS - began)) s ($target)"
  else
    echo "corpus $name: install FAILED"
    cat "$log"
    return 1
  fi
}

status=0
for name in "${names[@]}"; do install "$name" || status=1; done
exit "$status"
