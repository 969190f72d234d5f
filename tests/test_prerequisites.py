"""tests/prerequisites.py: a missing prerequisite skips a test off CI and FAILS it with CI=true
(a real pytest run on a module whose prerequisite is missing); tools/test_prerequisites.sh
--check (installing nothing) says what it found or what is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = '''
from tests.prerequisites import require_browser
require_browser("/nonexistent/chromium")

def test_uses_the_browser():
    pass
'''


def _pytest(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_needs_browser.py"
    test.write_text(MODULE)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(test)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_missing_browser_skips_off_ci(tmp_path: Path) -> None:
    done = _pytest(tmp_path, None)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: the module skipped whole
    assert "1 skipped" in done.stdout and "failed" not in done.stdout


def test_a_missing_browser_fails_on_ci(tmp_path: Path) -> None:
    done = _pytest(tmp_path, "true")
    assert done.returncode != 0, done.stdout
    assert "skipped" not in done.stdout
    assert "CI=true" in done.stdout and "chromium is not installed" in done.stdout


def test_the_script_reports_what_it_found() -> None:
    done = subprocess.run(["bash", str(ROOT / "tools" / "test_prerequisites.sh"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for name in ("Chromium", "PostgreSQL", "node"):
        found = any(line.startswith(name + ":") for line in done.stdout.splitlines())
        assert found or f"MISSING {name}" in done.stderr, (name, done.stdout, done.stderr)
