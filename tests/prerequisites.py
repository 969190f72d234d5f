"""What a test lacks outside Python (Chromium, PostgreSQL, Playwright's package): off CI the test
skips, naming it; with CI=true it FAILS, so that CI can never pass by skipping.
tools/test_prerequisites.sh installs them (the README's test command and .ci/run run it)."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

HINT = "run `bash tools/test_prerequisites.sh`"


def on_ci() -> bool:
    """True where the environment says CI (CI=true, as GitHub Actions and .ci/run set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(what: str) -> NoReturn:
    """Skip (module level too) because `what` is missing; fail instead on CI."""
    if on_ci():
        pytest.fail(f"{what} (CI=true: a missing prerequisite fails, never skips; {HINT})",
                    pytrace=False)
    pytest.skip(f"{what} ({HINT})", allow_module_level=True)


def require_module(name: str, what: str) -> object:
    """`pytest.importorskip` that fails on CI."""
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        missing(what)


def require_browser(chromium: str) -> object:
    """Playwright's `async_api` module, where it and the system's chromium are installed."""
    api = require_module("playwright.async_api",
                         "Playwright's Python package is not installed (pip install -e '.[test]')")
    if not os.path.exists(chromium):
        missing(f"chromium is not installed at {chromium} (apt-get install chromium)")
    return api
