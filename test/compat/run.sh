#!/usr/bin/env bash
# The compatibility matrix: oclif hosts (a fixture on @oclif/core 4 + Node 20, a fixture on @oclif/core 5 + Node 22,
# the published heroku CLI, the example CLI) × MCP clients (the official v2 client in both eras, the v1 SDK, the MCP
# Inspector CLI) over stdio and HTTP. Installs each separate prefix from its committed lockfile (only the npm registry
# is needed; heroku is the corpus's, test/corpus/heroku, in the corpus cache), runs the cells (test/compat/*.compat.ts,
# one jest test per cell), prints one PASS/FAIL line per cell and exits non-zero if any failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
started=$SECONDS

bash test/helpers/ensure-dist.sh compat

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# `npm ci --prefix DIR`, skipped when DIR/node_modules already holds exactly this package.json + lockfile's install.
install() {
  local dir=$1 log stamp sum began=$SECONDS
  log="$logs/$(echo "$dir" | tr / _).log"
  stamp="$dir/node_modules/.compat-installed"
  sum=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    echo "install $dir: up to date"
    return 0
  fi
  # Node-22 packages warn about the engine when npm runs on Node 20; they run on Node 22.
  if npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
    echo "$sum" >"$stamp"
    echo "install $dir: $((SECONDS - began)) s"
  else
    echo "install $dir: FAILED"
    cat "$log"
    return 1
  fi
}

# The heroku CLI (~400 MB) installs in the background while the small prefixes install: the corpus's own install,
# which the corpus suite and the benchmarks use too (a cached lockfile costs nothing).
bash test/corpus/install.sh heroku &
heroku_install=$!
status=0
install test/compat/node22 || status=1
install test/compat/node20-18 || status=1
install test/fixtures/host-v1 || status=1
install test/fixtures/host-core2 || status=1
install test/fixtures/host-core3 || status=1
install test/fixtures/host-core5 || status=1
install test/compat/inspector || status=1
wait "$heroku_install" || status=1
[ "$status" = 0 ] || exit 1

echo "Node $(node --version) (system), Node $(test/compat/node22/node_modules/.bin/node --version) (test/compat/node22)"
set +e
node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js \
  --config test/compat/jest.config.js --ci
status=$?
set -e
echo "compat: $((SECONDS - started)) s in all"
exit "$status"
