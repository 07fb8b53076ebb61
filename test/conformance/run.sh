#!/usr/bin/env bash
# The official MCP conformance suite against `taskbox mcp serve`, under both requirement sets.
# Installs its own Node 22 and the pinned suite here (the project itself stays on Node 20), starts the server on a
# free loopback port, and fails on any check that is neither passing nor listed in baseline-<revision>.yml.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
node22="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
echo "conformance suite $("$node22" "$suite" --version) on Node $("$node22" --version)"

work=$(mktemp -d)
mkdir -p "$work/project" "$work/home"
HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" XDG_CACHE_HOME="$work/home/cache" \
  node "$root/examples/taskbox/bin/run.js" mcp serve --port 0 --cwd "$work/project" 2>"$work/serve.log" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 120); do
  url=$(grep -o 'http://[^ ]*/mcp' "$work/serve.log" || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log"; exit 1; }
  sleep 0.5
done
[ -n "$url" ] || { echo "mcp serve did not start"; cat "$work/serve.log"; exit 1; }
echo "server: $url"

status=0
for revision in 2026-07-28 2025-11-25; do
  log="$work/conformance-$revision.log"
  if "$node22" "$suite" server --url "$url" --requirements "$revision" \
      --expected-failures "$here/baseline-$revision.yml" -o "$work/results-$revision" >"$log" 2>&1; then
    verdict=ok
  else
    verdict=FAILED
    status=1
    sed -n '/Stale baseline\|Unexpected failures/,$p' "$log"
  fi
  expected=$(grep -c '^  ~ ' "$log" || true)
  echo "conformance $revision: $verdict — checks $(grep -E '^Total:' "$log" | sed 's/^Total: //'); $expected expected failures from the baseline"
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^Not scored' || true
done
exit "$status"
