#!/usr/bin/env bash
# The corpus of published oclif CLIs: installs each pinned CLI into the cache (test/corpus/install.sh; a cached
# lockfile costs nothing), then runs the corpus suites (test/corpus/*.corpus.ts) over every CLI.
# Usage: bash test/corpus/run.sh [jest test-name pattern]; CORPUS_UPDATE=1 rewrites the reviewed lists.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
started=$SECONDS
bash test/helpers/ensure-dist.sh corpus
bash "$here/install.sh"
set +e
node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js \
  --config test/corpus/jest.config.js --ci ${1:+"$1"}
status=$?
set -e
echo "corpus: $((SECONDS - started)) s in all"
exit "$status"
