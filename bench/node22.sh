#!/usr/bin/env bash
# Runs a benchmark script on the corpus's Node 22 (installed by test/corpus/install.sh), which reads the corpus's
# TypeScript description (test/corpus/clis.ts) as it is. Usage: bash bench/node22.sh SCRIPT [arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${OCLIF_PLUGIN_MCP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oclif-plugin-mcp}/corpus"
sum=$(cat "$root/test/corpus/node22/package.json" "$root/test/corpus/node22/package-lock.json" | sha256sum | cut -c1-16)
script=$1
shift
exec "$cache/node22-$sum/node_modules/.bin/node" --experimental-strip-types --disable-warning=ExperimentalWarning "$script" "$@"
