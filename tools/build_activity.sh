#!/usr/bin/env bash
# The Discord Activity's launcher: Discord's Embedded App SDK (@discord/embedded-app-sdk,
# pinned in bot/web/activity_sdk/package.json and its lock) and bot/web/activity_sdk/main.js
# bundled by esbuild (pinned too) into one file, bot/web/static/discord-sdk.js, which the repository
# keeps (a Python install, the tests and the Docker image need no Node.js).
#   tools/build_activity.sh          build it again (after main.js or the pins change)
#   tools/build_activity.sh --check  build it into a temporary file and fail when it differs
#                                    from the kept one (CI: .ci/run)
set -euo pipefail
cd "$(dirname "$0")/../bot/web/activity_sdk"
out=../static/discord-sdk.js
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null
# --ignore-scripts: esbuild's own binary comes as its @esbuild/<platform> package
build() {
    node_modules/.bin/esbuild main.js --bundle --minify --format=iife --target=es2019 \
        --legal-comments=eof --log-level=warning --outfile="$1"
}
if [ "${1:-}" = "--check" ]; then
    tmp=$(mktemp --suffix=.js)
    trap 'rm -f "$tmp"' EXIT
    build "$tmp"
    if ! cmp -s "$tmp" "$out"; then
        echo "bot/web/static/discord-sdk.js differs from a fresh build: run tools/build_activity.sh" >&2
        exit 1
    fi
    echo "Discord Activity bundle: matches a fresh build ($(wc -c <"$out") bytes)"
else
    build "$out"
    echo "built $out ($(wc -c <"$out") bytes)"
fi
