#!/usr/bin/env bash
# The web table's test assets: axe-core (pinned in tests/web-assets/package-lock.json) for
# tests/test_web_axe.py, installed with `npm ci` into tests/web-assets/node_modules (ignored
# by git). Run from anywhere; .ci/run runs it before the tests. Without node and npm it says
# so and exits 0: the accessibility test then skips, naming this script.
set -euo pipefail
cd "$(dirname "$0")/../tests/web-assets"
AXE=node_modules/axe-core/axe.min.js
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "web test assets: node or npm is missing (apt-get install nodejs npm);" \
         "tests/test_web_axe.py will skip" >&2
    exit 0
fi
want=$(node -p "require('./package-lock.json').packages['node_modules/axe-core'].version")
have=$( [ -f node_modules/axe-core/package.json ] \
        && node -p "require('./node_modules/axe-core/package.json').version" || echo none)
if [ "$have" != "$want" ] || [ ! -f "$AXE" ]; then
    npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
fi
echo "web test assets: axe-core $(node -p "require('./node_modules/axe-core/package.json').version")" \
     "in tests/web-assets/$AXE"
