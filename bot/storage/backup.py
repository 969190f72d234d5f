"""Backups of the SQLite database (`domino backup FILE`, `domino restore FILE`).

Backup
    SQLite's online backup API (`sqlite3.Connection.backup`) copies every page in one step,
    inside one read transaction: the copy is the database as of one commit, taken while the
    bot goes on writing (WAL: readers do not block the writer). It is written beside FILE,
    checked, and renamed onto FILE, so FILE is never a half-written copy.

Restore
    Refused while a bot uses the database: every bot process on a SQLite file holds a shared
    `flock` on ``DB-running`` for its whole life (`running_lock`, taken by bot/app.py), and
    restore needs it exclusively. The kernel drops the lock when the process ends, however it
    ends (SIGKILL too), so a crashed bot never blocks a restore. The file is checked before
    anything is replaced (``PRAGMA integrity_check``, the schema version known to this
    program, the bot's tables), copied beside the database, and renamed onto it (atomic); the
    database it replaces is kept as ``DB.pre-restore``.

PostgreSQL has its own tools (`pg_dump`, `pg_restore`; docs/deploy.md): both commands say so.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from .backends import is_postgres, sqlite_path
from .schema import MIGRATIONS

BUSY_MS = 10_000
NEEDED = ("tables", "seats", "moves", "games", "schema_version")
POSTGRES_HINT = ("DOMINO_DB is a PostgreSQL database: back it up with pg_dump and restore "
                 "it with pg_restore (docs/deploy.md, 'Backups')")


class BackupError(Exception):
    """A backup or a restore that cannot be done: one line saying why and what to do."""


def lock_path(database: Path) -> Path:
    """The file whose flock says that a bot uses `database`."""
    return database.with_name(database.name + "-running")


@contextlib.contextmanager
def running_lock(database: str | Path) -> Iterator[None]:
    """Held by a bot for its whole life on a SQLite database (a shared flock: several may
    hold it). Raises BackupError while a restore holds it."""
    if is_postgres(database) or str(database) == ":memory:" or str(database).startswith(
            "file:"):  # no file of its own to lock beside
        yield
        return
    with _locked(Path(sqlite_path(database)), fcntl.LOCK_SH,
                 f"{database}: a restore is replacing this database; start the bot again "
                 "once it is done"):
        yield


@contextlib.contextmanager
def _locked(database: Path, mode: int, refused: str) -> Iterator[None]:
    """The database's running lock taken in `mode` (shared: a bot; exclusive: a restore),
    without waiting: BackupError(`refused`) when the other kind holds it."""
    path = lock_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(refused) from None
        yield
    finally:
        os.close(fd)  # releases the lock


def _target(database: str | Path) -> Path:
    if is_postgres(database):
        raise BackupError(POSTGRES_HINT)
    return Path(sqlite_path(database))


def _connect_ro(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    return db


def check(path: Path) -> dict[str, int]:
    """Check a database file: intact, the bot's tables, a schema version this program knows.
    Returns its schema version and its counts of tables, moves and finished games; raises
    BackupError saying what is wrong."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        db = _connect_ro(path)
    except sqlite3.Error as exc:
        raise BackupError(f"{path}: cannot be opened ({exc})") from None
    try:
        (verdict,), *more = db.execute("PRAGMA integrity_check").fetchall()
        if verdict != "ok":
            raise BackupError(f"{path}: damaged (integrity_check: {verdict}"
                              f"{f' and {len(more)} more' if more else ''})")
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [n for n in NEEDED if n not in names]
        if missing:
            raise BackupError(f"{path}: not a domino database (no {', '.join(missing)} table)")
        (version,) = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        if not 1 <= version <= len(MIGRATIONS):
            raise BackupError(f"{path}: schema version {version}, but this program knows 1 to "
                              f"{len(MIGRATIONS)}; restore it with the bot that made it")
        counts = {name: db.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                  for name in ("tables", "moves", "games")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path}: not a usable SQLite database ({exc})") from None
    finally:
        db.close()
    return {"version": version, **counts}


def _copy(source: sqlite3.Connection, destination: Path) -> None:
    """Copy `source` into a new file at `destination` (replaced if it exists), in one step."""
    destination.unlink(missing_ok=True)
    out = sqlite3.connect(destination)
    try:
        source.backup(out, pages=-1)  # one step: one read transaction, one commit's state
        out.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    finally:
        out.close()
    with open(destination, "rb") as f:
        os.fsync(f.fileno())


def backup(database: str | Path, file: str | Path) -> dict[str, int]:
    """Copy the database to `file` while the bot may be writing; the copy's counts."""
    source_path, out = _target(database), Path(file)
    if not source_path.is_file():
        raise BackupError(f"{source_path}: no such database (DOMINO_DB)")
    if out.exists() and out.resolve() == source_path.resolve():
        raise BackupError(f"{out}: that is the database itself; give another file")
    if out.is_dir():
        raise BackupError(f"{out}: is a folder; give a file name")
    partial = out.with_name(out.name + ".partial")
    try:
        source = _connect_ro(source_path)
        try:
            _copy(source, partial)
        finally:
            source.close()
        counts = check(partial)
        os.replace(partial, out)
    except sqlite3.Error as exc:
        raise BackupError(f"{source_path}: cannot be copied ({exc})") from None
    except OSError as exc:
        raise BackupError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    finally:
        partial.unlink(missing_ok=True)
    return counts


def restore(database: str | Path, file: str | Path) -> dict[str, int]:
    """Replace the database by the backup `file`, once checked; refused while a bot runs."""
    target, source_path = _target(database), Path(file)
    counts = check(source_path)
    if target.exists() and target.resolve() == source_path.resolve():
        raise BackupError(f"{source_path}: that is the database itself")
    with _locked(target, fcntl.LOCK_EX, f"{target}: a bot is using this database; stop it "
                 "first (docker compose stop), then restore"):
        _replace(target, source_path)
    return counts


def _replace(target: Path, source_path: Path) -> None:
    """Copy the backup beside the database, check it, and rename it onto the database."""
    incoming = target.with_name(target.name + ".restoring")
    try:
        source = _connect_ro(source_path)
        try:
            _copy(source, incoming)
        finally:
            source.close()
        check(incoming)
        if target.exists():  # fold its WAL into it (no bot runs), keep it as .pre-restore
            old = sqlite3.connect(target)
            try:
                old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                old.close()
            kept = target.with_name(target.name + ".pre-restore")
            kept.unlink(missing_ok=True)
            os.link(target, kept)
        os.replace(incoming, target)
        for suffix in ("-wal", "-shm"):  # the old file's, never to be applied to the new one
            target.with_name(target.name + suffix).unlink(missing_ok=True)
    except sqlite3.Error as exc:
        raise BackupError(f"{target}: cannot be replaced ({exc}); nothing was changed") from None
    except OSError as exc:
        raise BackupError(f"{target}: cannot be replaced ({exc.strerror or exc}); nothing "
                          "was changed") from None
    finally:
        incoming.unlink(missing_ok=True)
