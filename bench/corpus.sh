#!/usr/bin/env bash
# Runs bench/corpus.mjs on the corpus's Node 22 (installed by test/corpus/install.sh), which reads the corpus's
# TypeScript description as it is. Arguments go to the benchmark (--smoke, CLI names).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${OCLIF_PLUGIN_MCP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oclif-plugin-mcp}/corpus"
sum=$(cat "$root/test/corpus/node22/package.json" "$root/test/corpus/node22/package-lock.json" | sha256sum | cut -c1-16)
exec "$cache/node22-$sum/node_modules/.bin/node" --experimental-strip-types --disable-warning=ExperimentalWarning "$root/bench/corpus.mjs" "$@"
