"""Start-up says what is wrong (issue 11): a database file the bot cannot use is refused
with one line naming the file, the cause and what to do, exit code 2, the file untouched;
and the limits are settings read strictly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.storage import MIGRATIONS, Store

ROOT = Path(__file__).resolve().parent.parent


def real_db(path: Path) -> None:
    async def make() -> None:
        store = await Store.open(path)
        await store.close()
    asyncio.run(make())


def start(folder: Path, db: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DOMINO_DB": str(db),
           "DOMINO_PICTURES": "off"}
    return subprocess.run([sys.executable, "-m", "bot.cli"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def check_refused(folder: Path, db: Path, *words: str) -> None:
    before = db.read_bytes() if db.exists() else None
    run = start(folder, db)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2, run.stderr
    assert len(lines) == 1 and lines[0].startswith(f"domino: error: {db}: "), lines
    assert all(w in lines[0] for w in words), lines[0]
    assert "Traceback" not in run.stderr
    assert (db.read_bytes() if db.exists() else None) == before


def test_garbage_and_text_files_are_refused_in_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(os.urandom(8192))
    check_refused(tmp_path, garbage, "not a usable SQLite database", "backup")
    text = tmp_path / "notes.sqlite"
    text.write_text("These are my notes, not a database.\n" * 50)
    check_refused(tmp_path, text, "not a usable SQLite database", "DOMINO_DB")


def test_a_truncated_file_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "cut.sqlite"
    real_db(db)
    data = db.read_bytes()
    db.write_bytes(data[:len(data) // 3])
    check_refused(tmp_path, db, "not a usable SQLite database")


def test_a_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    real_db(db)
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO schema_version VALUES (?, 0)", (len(MIGRATIONS) + 1,))
    con.close()
    check_refused(tmp_path, db, "newer than this program", "upgrade the bot")


def test_no_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    check_refused(tmp_path, tmp_path / "a-file" / "domino.sqlite", "cannot write there")


@contextlib.contextmanager
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A read-only folder: a read-only tmpfs as root (root may write anywhere else), a
    folder without write permission otherwise."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a read-only tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_read_only_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    with read_only_folder(tmp_path) as folder:
        check_refused(tmp_path, folder / "domino.sqlite", "cannot write there", "DOMINO_DB")


@pytest.mark.parametrize(("name", "value"), [
    ("DOMINO_TABLES_PER_USER", "²"), ("DOMINO_LOBBY_TTL", "-5"), ("DOMINO_MAX_NAME", "9" * 30),
    ("DOMINO_PICTURE_WORKERS", "many"), ("DOMINO_SOLO_TABLES", "٣"),
    ("DISCORD_TEST_GUILD", "²")])
def test_limit_settings_are_read_strictly(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value}, cwd=tmp_path)


def test_limit_settings(tmp_path: Path) -> None:
    s = Settings.from_env({"DOMINO_TABLES_PER_USER": "4", "DOMINO_LOBBY_TTL": "0"}, cwd=tmp_path)
    assert s.limits.tables_per_user == 4 and s.limits.lobby_ttl == 0
    assert s.limits.tables_per_channel == 25
