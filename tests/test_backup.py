"""`domino backup` and `domino restore` (bot/storage/backup.py): a backup taken while games
are played through the service restores into a fresh folder where every game replays to the
state it had; a restore is refused while a real bot process uses the database, and a bad
file is refused before anything is replaced."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.service.service import Service
from bot.service.tables import rebuild
from bot.storage import open_store
from core import replay
from tests.console_helpers import ConsoleBot
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    play_to_the_end,
    press_a_legal_tile,
    run,
    started_table,
    with_service,
)

ROOT = Path(__file__).resolve().parent.parent


def domino(cwd: Path, *args: str, db: str = "bot.sqlite") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DOMINO_", "TELEGRAM_",
                                                                       "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), DOMINO_DB=db)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


async def _state(path: Path | str) -> dict[int, tuple[str, list[str], object]]:
    """Every table of the database: status, moves, and the replayed game's public view."""
    store = await open_store(path)
    try:
        out = {}
        for row in await store.tables(("lobby", "playing", "finished", "stopped")):
            moves = await store.moves(row.id)
            out[row.id] = (row.status, moves, rebuild(row, moves).view(None))
        return out
    finally:
        await store.close()


def test_a_backup_during_play_restores_every_game(tmp_path: Path) -> None:
    live, fresh = tmp_path / "live", tmp_path / "fresh"
    live.mkdir()
    fresh.mkdir()
    db = live / "bot.sqlite"
    copy = tmp_path / "copy.sqlite"

    async def body(service: Service) -> int:
        done = await started_table(service, ALICE, (BOB,))
        await play_to_the_end(service, done, {0: ALICE, 1: BOB})
        playing = await started_table(service, ALICE, (CAROL,))
        users = {0: ALICE, 1: CAROL}

        async def move() -> None:
            await press_a_legal_tile(service, playing, users[service.tables[playing].game.to_move])

        for _ in range(3):
            await move()
        before = len(await service.store.moves(playing))
        backup = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "backup", str(copy), cwd=live,
            env={**os.environ, "PYTHONPATH": str(ROOT), "DOMINO_DB": str(db)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        moves_during = 0
        while backup.returncode is None and playing in service.tables:
            await move()
            moves_during += 1
            await asyncio.sleep(0.01)
        _, err = await backup.communicate()
        assert backup.returncode == 0, err
        assert moves_during > 0  # the copy was taken while the game went on
        return before

    before = run(with_service(db, body))
    original = run(_state(db))
    restored_run = domino(fresh, "restore", str(copy))
    assert restored_run.returncode == 0, restored_run.stderr
    assert "Restored" in restored_run.stdout
    restored = run(_state(fresh / "bot.sqlite"))
    assert set(restored) == set(original)
    finished = [t for t, (status, _, _) in original.items() if status == "finished"]
    assert finished and all(restored[t][0] == "finished" for t in finished)
    for tid, (_, moves, view) in restored.items():
        _, all_moves, _ = original[tid]
        assert moves == all_moves[:len(moves)]  # a prefix of what was played: one commit's state
        row = run(_row(db, tid))
        assert view == rebuild(row, all_moves[:len(moves)]).view(None)
    playing = max(original)
    assert len(restored[playing][1]) >= before
    with sqlite3.connect(fresh / "bot.sqlite") as copy_db:
        for (record, result) in copy_db.execute("SELECT record, result FROM games"):
            assert replay(json.loads(record)).result == json.loads(result)

    async def resumed(service: Service) -> None:  # the restored database serves again
        assert playing in service.tables or restored[playing][0] != "playing"

    run(with_service(fresh / "bot.sqlite", resumed))


async def _row(path: Path, tid: int) -> object:
    store = await open_store(path)
    try:
        return await store.get_table(tid)
    finally:
        await store.close()


def test_restore_is_refused_while_a_bot_runs(tmp_path: Path) -> None:
    run(with_service(tmp_path / "domino.sqlite", lambda s: asyncio.sleep(0)))
    assert domino(tmp_path, "backup", "b.sqlite", db="domino.sqlite").returncode == 0
    bot = ConsoleBot(tmp_path)
    try:
        bot.start()
        bot.send("/start classic players=2 ai=1")
        refused = domino(tmp_path, "restore", "b.sqlite", db="domino.sqlite")
        assert refused.returncode == 2
        assert "a bot is using this database" in refused.stderr
        assert not (tmp_path / "domino.sqlite.pre-restore").exists()
        bot.proc.send_signal(signal.SIGKILL)  # even a killed bot frees the database
        bot.proc.wait(timeout=30)
    finally:
        bot.kill()
    done = domino(tmp_path, "restore", "b.sqlite", db="domino.sqlite")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "domino.sqlite.pre-restore").exists()
    with sqlite3.connect(tmp_path / "domino.sqlite") as db:
        assert db.execute("SELECT count(*) FROM tables").fetchone() == (0,)


def test_a_bad_file_is_refused_before_anything_changes(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"
    run(with_service(db, lambda s: started_table(s, ALICE, (BOB,))))
    before = db.read_bytes()
    good = tmp_path / "good.sqlite"
    assert domino(tmp_path, "backup", str(good)).returncode == 0
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as o:
        o.execute("CREATE TABLE x (y)")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(good.read_bytes())
    with sqlite3.connect(newer) as n:
        n.execute("INSERT INTO schema_version VALUES (999, 0)")
    cases = {garbage: "not a usable SQLite database", truncated: "",
             other: "not a domino database", newer: "schema version 999",
             tmp_path / "missing.sqlite": "no such file"}
    for path, words in cases.items():
        result = domino(tmp_path, "restore", str(path))
        assert result.returncode == 2, (path, result.stdout)
        assert result.stderr.startswith("domino: error: ") and words in result.stderr
        assert "Traceback" not in result.stderr
        assert db.read_bytes() == before  # nothing replaced
    pg = domino(tmp_path, "backup", "x.sqlite", db="postgresql://u@localhost/domino")
    assert pg.returncode == 2 and "pg_dump" in pg.stderr
    pg = domino(tmp_path, "restore", str(good), db="postgresql://u@localhost/domino")
    assert pg.returncode == 2 and "pg_restore" in pg.stderr
    same = domino(tmp_path, "backup", str(db))
    assert same.returncode == 2 and "the database itself" in same.stderr


def test_a_bot_does_not_start_while_a_restore_holds_the_database(tmp_path: Path) -> None:
    import fcntl

    from bot.storage.backup import lock_path

    db = tmp_path / "domino.sqlite"
    run(with_service(db, lambda s: asyncio.sleep(0)))
    fd = os.open(lock_path(db), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as `restore` holds it
        bot = ConsoleBot(tmp_path)
        code = bot.proc.wait(timeout=60)
        assert code == 2
        err = bot.stderr()
        assert "a restore is replacing this database" in err and "Traceback" not in err
    finally:
        os.close(fd)
