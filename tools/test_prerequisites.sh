#!/usr/bin/env bash
# What the test suite needs besides the Python packages of '.[test]': Debian's Chromium (the
# web table's browser tests, driven by Playwright's Python package: a browser is never
# downloaded by a test tool), PostgreSQL's server binaries (tests/pg_cluster.py starts a
# throwaway cluster with initdb/pg_ctl, found on PATH or in /usr/lib/postgresql/*/bin), node/npm
# and, when tools/web_test_assets.sh exists, the web pages' test assets it installs.
# Each is installed with apt-get when missing (as root, or through sudo), and the script says
# plainly what it could not install. It exits 0 either way: off CI the tests that need a
# missing prerequisite skip, naming it; with CI=true they fail instead (tests/prerequisites.py).
# The README's test command and .ci/run both run it. Run from anywhere. `--check` only
# reports (installs nothing, and leaves the web test assets as they are).
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
SUDO=""
can_install=yes
if [ "${1:-}" = --check ]; then
    can_install="--check given"
elif ! command -v apt-get >/dev/null; then
    can_install="no apt-get here (not Debian/Ubuntu)"
elif [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
        can_install="not root and no sudo"
    elif [ -t 0 ]; then
        SUDO="sudo"
    elif sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        can_install="not root, and sudo needs a password (no terminal to ask for it)"
    fi
fi

updated=no
# apt_install PACKAGE...: install, refreshing the package lists once if the first try fails.
apt_install() {
    [ "$can_install" = yes ] || return 1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "$@" >/dev/null 2>&1 && return 0
    if [ "$updated" = no ]; then
        updated=yes
        $SUDO apt-get update -q >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "$@" >/dev/null 2>&1 && return 0
    fi
    return 1
}

pg_initdb() {
    command -v initdb 2>/dev/null && return 0
    ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -rV | head -n 1 | grep . && return 0
    return 1
}

# Chromium (package chromium)
if ! command -v chromium >/dev/null; then
    apt_install chromium || true
fi
if command -v chromium >/dev/null; then
    echo "Chromium: $(command -v chromium)"
else
    missing+=("Chromium (apt-get install chromium): the browser tests")
fi

# PostgreSQL's server binaries (package postgresql: initdb, pg_ctl, postgres)
if ! pg_initdb >/dev/null; then
    apt_install postgresql || true
fi
if initdb=$(pg_initdb); then
    echo "PostgreSQL: $(dirname "$initdb")"
else
    missing+=("PostgreSQL's server (apt-get install postgresql): the PostgreSQL storage tests")
fi

# node/npm (.ci/run's check of the Discord Activity's bundle) and the web pages' test assets
# (axe-core), installed by tools/web_test_assets.sh when that script exists
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    apt_install nodejs npm || true
fi
if command -v npm >/dev/null && command -v node >/dev/null; then
    echo "node: $(command -v node), npm: $(command -v npm)"
    if [ -f tools/web_test_assets.sh ] && [ "${1:-}" != --check ]; then
        bash tools/web_test_assets.sh \
            || missing+=("the web test assets (tools/web_test_assets.sh failed, see above)")
    fi
else
    missing+=("node and npm (apt-get install nodejs npm): the Activity bundle's check, the web pages' accessibility test")
fi

if [ ${#missing[@]} -gt 0 ]; then
    [ "$can_install" = yes ] || echo "test prerequisites: could not install anything ($can_install)" >&2
    for m in "${missing[@]}"; do
        echo "test prerequisites: MISSING $m" >&2
    done
    if [ "${CI:-}" = true ]; then
        echo "test prerequisites: CI=true, so the tests that need them will FAIL" >&2
    else
        echo "test prerequisites: the tests that need them will skip, naming what is missing" >&2
    fi
fi
exit 0
