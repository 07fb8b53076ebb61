#!/usr/bin/env bash
# Makes sure dist/, the compiled plugin the suites outside the root jest run serve (compat, corpus), is there:
# compiled when it is missing. Usage: bash test/helpers/ensure-dist.sh SUITE (the name its message starts with).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f dist/commands/mcp/stdio.js ]; then
  echo "$1: dist/ is missing; compiling it"
  npx tsc -p tsconfig.build.json
fi
