#!/usr/bin/env bash
# The official MCP conformance suite against `mcp serve` of two CLIs, under both requirement sets: the example CLI
# (taskbox), and test/fixtures/conformance-cli, whose commands and oclif.mcp prompts provide the suite's test_* tools
# and prompts through the plugin's ordinary mechanisms (nothing in src/ knows a test_ name).
# Installs its own Node 22 and the pinned suite here (the project itself stays on Node 20), starts each server on a
# free loopback port, and fails on any check that is neither passing nor listed in that CLI's baseline
# (baseline-<revision>.yml for taskbox, baseline-fixture-<revision>.yml for the fixture).
#   bash test/conformance/run.sh              both
#   bash test/conformance/run.sh --record     also print each server's failing checks (to write a baseline from)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
node22="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
echo "conformance suite $("$node22" "$suite" --version) on Node $("$node22" --version)"

work=$(mktemp -d)
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Starts `<bin> mcp serve` on a free port in a home of its own; sets $url to its endpoint.
serve() {
  local name=$1 bin=$2
  mkdir -p "$work/$name/project" "$work/$name/home"
  HOME="$work/$name/home" XDG_DATA_HOME="$work/$name/home/data" XDG_CONFIG_HOME="$work/$name/home/config" XDG_CACHE_HOME="$work/$name/home/cache" \
    node "$bin" mcp serve --port 0 --cwd "$work/$name/project" >/dev/null 2>"$work/$name/serve.log" &
  local pid=$!
  servers+=("$pid")
  url=""
  for _ in $(seq 1 120); do
    url=$(grep -o 'http://[^ ]*/mcp' "$work/$name/serve.log" || true)
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/$name/serve.log" >&2; exit 1; }
    sleep 0.5
  done
  [ -n "$url" ] || { echo "mcp serve of $name did not start" >&2; cat "$work/$name/serve.log" >&2; exit 1; }
}

status=0
run_suite() {
  local name=$1 url=$2 baseline_prefix=$3
  for revision in 2026-07-28 2025-11-25; do
    local log="$work/$name/conformance-$revision.log" verdict
    if "$node22" "$suite" server --url "$url" --requirements "$revision" \
        --expected-failures "$here/$baseline_prefix-$revision.yml" -o "$work/$name/results-$revision" >"$log" 2>&1; then
      verdict=ok
    else
      verdict=FAILED
      status=1
      sed -n '/Stale baseline\|Unexpected failures/,$p' "$log"
    fi
    local expected
    expected=$(grep -c '^  ~ ' "$log" || true)
    echo "conformance $name $revision: $verdict — checks $(grep -E '^Total:' "$log" | sed 's/^Total: //'); $expected expected failures from the baseline"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^Not scored' || true
    if [[ "${RECORD:-}" == 1 ]]; then sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s+[✗~] ' || true; fi
  done
}

[[ "${1:-}" == --record ]] && export RECORD=1
serve taskbox "$root/examples/taskbox/bin/run.js"
echo "taskbox: $url"
run_suite taskbox "$url" baseline
serve fixture "$root/test/fixtures/conformance-cli/bin/run.js"
echo "conformance fixture: $url"
run_suite fixture "$url" baseline-fixture
exit "$status"
