"""The stores: SQLite on real files (migrations), and every other test on both backends
(`db_target`: a SQLite file, then a fresh PostgreSQL database): the append-only move log,
durability, queries."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service.ratings import DEFAULT, ordinal, rate_game
from bot.storage import (
    MIGRATIONS,
    DuplicateMove,
    GamePlayer,
    NotFound,
    RatingRow,
    SeatRow,
    Store,
    TableRow,
    open_store,
)

ROOT = Path(__file__).resolve().parent.parent


def with_store(path: Path | str, body: Callable[[Store], Awaitable[Any]], **kw: Any) -> Any:
    async def main() -> Any:
        store = await open_store(path, **kw)
        try:
            return await body(store)
        finally:
            await store.close()
    return asyncio.run(main())


def table(channel: str = "test:chan", scope: str = "test:server", variant: str = "classic",
          humans: tuple[str, ...] = ("test:alice", "test:bob"), ai: int = 0) -> TableRow:
    seats = [SeatRow(i, user, user.split(":")[-1]) for i, user in enumerate(humans)]
    seats += [SeatRow(len(humans) + i, None, f"Computer {i + 1}", ai="greedy") for i in range(ai)]
    return TableRow(id=0, channel=channel, scope=scope, host=humans[0], variant=variant,
                    options={"target": 100}, players=len(seats), timer=60, status="playing",
                    seed=42, lang="en", created_at=1000.0, seats=seats)


async def finish(store: Store, row: TableRow, ranks: list[int], scores: list[int],
                 teams: list[int] | None = None) -> None:
    """Finish a game as the service does: players, and new ratings per scope and global."""
    teams = teams or list(range(len(row.seats)))
    players = [GamePlayer(s.user_id, s.seat, ranks[s.seat] == 1, scores[s.seat], ranks[s.seat])
               for s in row.seats if s.user_id and s.ai is None]
    seats = [(s.user_id if s.ai is None else None, teams[s.seat]) for s in row.seats]
    ids = [p.user_id for p in players]
    ratings = []
    for scope in (row.scope, "global"):
        current = await store.ratings(ids, row.variant, scope)
        new = rate_game(seats, ranks, {u: (r.mu, r.sigma) for u, r in current.items()})
        for p in players:
            old = current.get(p.user_id)
            ratings.append(RatingRow(p.user_id, row.variant, scope, *new[p.user_id],
                                     (old.games if old else 0) + 1,
                                     (old.wins if old else 0) + int(p.won)))
    await store.finish_game(row.id, {"variant": row.variant, "moves": ["6-6"]},
                            {"scores": scores}, players, ratings)


def versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        return [v for (v,) in db.execute("SELECT version FROM schema_version ORDER BY version")]


# -- migrations ------------------------------------------------------------------------------------


def test_an_empty_file_gets_the_whole_schema_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "bot.db"
    assert with_store(path, Store.schema_version) == len(MIGRATIONS)
    assert versions(path) == list(range(1, len(MIGRATIONS) + 1))
    with sqlite3.connect(path) as db:
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"users", "settings", "tables", "seats", "moves", "games", "game_players", "ratings",
            "adapter_state", "user_prefs", "tournaments", "tournament_tables",
            "tournament_places"} <= names


# sha256 of a fresh file's sqlite_master (type, name, sql): released migrations never change
# what they create (SQLite keeps each CREATE statement's text as written).
SQLITE_SCHEMA = "6202484b306781157525837c0ebf7517affe90e6e436a20d93e6737c3304e9d2"  # 7: outbox


def test_a_fresh_file_gets_the_released_schema_text(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with_store(path, Store.schema_version)
    with sqlite3.connect(path) as db:
        text = "\n".join(f"{t} {n} {sql}" for t, n, sql in db.execute(
            "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"))
    db.close()
    assert hashlib.sha256(text.encode()).hexdigest() == SQLITE_SCHEMA


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with_store(path, Store.schema_version)
    before = versions(path)
    assert with_store(path, Store.schema_version) == len(MIGRATIONS)
    assert versions(path) == before


def test_an_older_file_is_upgraded_keeping_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with sqlite3.connect(path) as db:  # a file written by the first version of the schema
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at REAL)")
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute("INSERT INTO schema_version VALUES (1, 0)")
        db.execute("INSERT INTO users VALUES ('test:alice', 'alice', 'fr')")
    db.close()

    async def body(store: Store) -> None:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.user_name("test:alice") == "alice"
        await store.user_pref_set("test:alice", "telegram", "dm", "on")  # a version 2 table

    with_store(path, body)
    assert versions(path) == list(range(1, len(MIGRATIONS) + 1))


def test_a_file_from_a_newer_program_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with_store(path, Store.schema_version)
    newer = len(MIGRATIONS) + 1
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (?, 0)", (newer,))
    db.close()
    with pytest.raises(RuntimeError, match=f"schema version {newer}, newer than this program"):
        with_store(path, Store.schema_version)
    assert versions(path)[-1] == newer


# -- tables, seats, the move log -------------------------------------------------------------------


def test_moves_are_append_only(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        tid = await store.create_table(table())
        await store.append_move(tid, 0, 0, "6-6", deadline=5000.0)
        await store.append_move(tid, 1, 1, "6-5r")
        with pytest.raises(DuplicateMove, match=f"#{tid} already has a move for turn 1"):
            await store.append_move(tid, 1, 1, "draw")
        with pytest.raises(NotFound):
            await store.append_move(tid + 1, 0, 0, "6-6")
        await store.append_move(tid, 3, 0, "pass")
        await store.append_move(tid, 2, 0, "5-5l")
        assert await store.moves(tid) == ["6-6", "6-5r", "5-5l", "pass"]  # in turn order
        assert await store.moves(tid + 1) == []

    with_store(db_target, body)


def test_concurrent_moves_are_all_committed_and_duplicates_refused(db_target: Path | str) -> None:
    path = db_target
    n_tables, n_turns = 40, 25

    async def body(store: Store) -> list[int]:
        ids = [await store.create_table(table()) for _ in range(n_tables)]

        async def play(tid: int) -> None:
            for turn in range(n_turns):
                await store.append_move(tid, turn, turn % 2, f"m{turn}", deadline=float(turn))

        await asyncio.gather(*(play(tid) for tid in ids))
        # the same (table, turn) offered twice at once: exactly one is logged
        outcomes = await asyncio.gather(*(store.append_move(ids[0], n_turns, 0, f"x{i}")
                                          for i in range(5)), return_exceptions=True)
        assert sum(o is None for o in outcomes) == 1
        assert all(isinstance(o, DuplicateMove) for o in outcomes if o is not None)
        return ids

    ids = with_store(path, body)

    async def read_back(store: Store) -> None:  # by another connection, after close
        assert sum([len(await store.moves(tid)) for tid in ids]) == n_tables * n_turns + 1
        for tid in ids:
            assert (await store.moves(tid))[:n_turns] == [f"m{t}" for t in range(n_turns)]
        assert {(await store.get_table(tid)).deadline for tid in ids[1:]} == {n_turns - 1}

    with_store(path, read_back)


def test_without_group_commit_moves_are_the_same(db_target: Path | str) -> None:
    async def body(store: Store) -> list[str]:
        tid = await store.create_table(table())
        await asyncio.gather(*(store.append_move(tid, t, 0, str(t)) for t in range(10)))
        return await store.moves(tid)

    assert with_store(db_target, body, group_commit=False) == [str(t) for t in range(10)]


def test_everything_survives_a_reopen(db_target: Path | str) -> None:
    path = db_target

    async def write(store: Store) -> int:
        await store.upsert_user("test:alice", "alice", "fr")
        await store.upsert_user("test:alice", "Alice")  # no locale: keeps "fr"
        await store.set_setting("test:server", "lang", "fr")
        await store.set_setting("test:server", "lang", "en")
        tid = await store.create_table(table(ai=1))
        await store.update_seat(tid, 1, misses=2)
        await store.update_table(tid, warned=True, deadline=1234.5)
        await store.append_move(tid, 0, 0, "6-6", deadline=99.0, warned=False)
        await store.adapter_set(tid, "discord", "message", "111")
        await store.adapter_set(tid, "discord", "message", "222")
        await store.user_pref_set("test:alice", "telegram", "dm", "off")
        return tid

    tid = with_store(path, write)

    async def read(store: Store) -> None:
        assert await store.user_name("test:alice") == "Alice"
        assert await store.user_locale("test:alice") == "fr"
        assert await store.user_name("test:nobody") is None
        assert await store.get_setting("test:server", "lang") == "en"
        assert await store.get_setting("test:server", "timer", "60") == "60"
        row = await store.get_table(tid)
        assert row is not None
        assert (row.status, row.options, row.deadline, row.warned) == (
            "playing", {"target": 100}, 99.0, False)
        assert [(s.seat, s.user_id, s.ai, s.misses) for s in row.seats] == [
            (0, "test:alice", None, 0), (1, "test:bob", None, 2), (2, None, "greedy", 0)]
        assert await store.moves(tid) == ["6-6"]
        assert await store.adapter_get(tid, "discord", "message") == "222"
        assert await store.adapter_get(tid, "telegram", "message") is None
        assert await store.user_pref_get("test:alice", "telegram", "dm") == "off"
        assert await store.user_pref_get("test:alice", "discord", "dm") is None
        assert [t.id for t in await store.tables()] == [tid]

    with_store(path, read)


def test_table_updates_and_queries(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        a = await store.create_table(table(channel="test:one"))
        b = await store.create_table(table(channel="test:one"))
        c = await store.create_table(table(channel="test:two"))
        assert a < b < c
        await store.update_table(b, status="lobby")
        await store.update_table(c, status="stopped")
        assert [t.id for t in await store.tables()] == [a, b]
        assert [t.id for t in await store.tables("lobby")] == [b]
        assert [t.id for t in await store.tables_in_channel("test:one", "playing")] == [a]
        assert await store.tables_in_channel("test:two") == []
        await store.set_seats(a, [SeatRow(0, "test:carol", "carol")])
        assert [s.user_id for s in (await store.get_table(a)).seats] == ["test:carol"]
        with pytest.raises(ValueError, match="unknown table status 'over'"):
            await store.update_table(a, status="over")
        with pytest.raises(TypeError, match="unknown fields"):
            await store.update_table(a, id=7)
        with pytest.raises(NotFound):
            await store.update_table(99, status="stopped")
        with pytest.raises(NotFound):
            await store.update_seat(a, 5, misses=1)
        with pytest.raises(NotFound):
            await store.set_seats(99, [])
        assert await store.get_table(99) is None
        assert (await store.get_table(a)).status == "playing"  # the refused updates left it

    with_store(db_target, body)


WRITER = """
import asyncio, sys
from bot.storage import SeatRow, TableRow, open_store

async def main():
    store = await open_store(sys.argv[1])
    tid = await store.create_table(TableRow(0, "c", "s", "h", "classic", {}, 1, None,
                                            "playing", 1, "en", 0.0, seats=[SeatRow(0, "h", "h")]))
    turn = 0
    while True:
        await asyncio.gather(*(store.append_move(tid, turn + i, 0, str(turn + i))
                               for i in range(7)))
        turn += 7
        print(turn, flush=True)

asyncio.run(main())
"""


def test_a_returned_move_survives_sigkill(db_target: Path | str) -> None:
    path = db_target
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    acknowledged = 0
    while acknowledged < 200:
        line = proc.stdout.readline()
        assert line, "the writer died"
        acknowledged = int(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    moves = with_store(path, lambda store: store.moves(1))
    assert len(moves) >= acknowledged
    assert moves == [str(t) for t in range(len(moves))]


# -- finished games, ratings, leaderboards, history ------------------------------------------------


def test_a_finished_game_shows_in_leaderboard_stats_and_history(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        await store.upsert_user("test:alice", "alice")
        row = table(ai=1)
        row.id = await store.create_table(row)
        await finish(store, row, ranks=[1, 3, 2], scores=[0, 31, 12])
        finished = await store.get_table(row.id)
        assert finished.status == "finished" and finished.result == {"scores": [0, 31, 12]}
        assert await store.tables() == []
        assert await store.game_record(row.id) == {"variant": "classic", "moves": ["6-6"]}
        assert await store.game_record(row.id + 1) is None

        for scope in ("test:server", "global"):
            board = await store.leaderboard("classic", scope)
            assert [(r.user_id, r.name, r.games, r.wins, r.win_rate) for r in board] == [
                ("test:alice", "alice", 1, 1, 1.0), ("test:bob", "test:bob", 1, 0, 0.0)]
            assert board[0].ordinal == pytest.approx(ordinal(board[0].mu, board[0].sigma))
            assert board[0].ordinal > ordinal(*DEFAULT) > board[1].ordinal
        assert await store.leaderboard("classic", "test:elsewhere") == []
        assert await store.leaderboard("matador", "global") == []

        [stat] = await store.user_stats("test:bob")
        assert (stat.variant, stat.games, stat.wins, stat.win_rate) == ("classic", 1, 0, 0.0)
        assert stat.ordinal < 0
        [hist] = await store.history("test:bob")
        assert (hist.table_id, hist.variant, hist.won, hist.rank, hist.score, hist.seat,
                hist.players) == (row.id, "classic", False, 3, 31, 1, 3)

        # a second game, in another server: alice loses; per scope and global stay apart
        again = table(scope="test:other")
        again.id = await store.create_table(again)
        await finish(store, again, ranks=[2, 1], scores=[20, 0])
        [here] = [r for r in await store.leaderboard("classic", "test:server")
                  if r.user_id == "test:alice"]
        [there] = [r for r in await store.leaderboard("classic", "test:other")
                   if r.user_id == "test:alice"]
        [everywhere] = [r for r in await store.leaderboard("classic", "global")
                        if r.user_id == "test:alice"]
        assert (here.games, here.wins, there.games, there.wins) == (1, 1, 1, 0)
        assert (everywhere.games, everywhere.wins, everywhere.win_rate) == (2, 1, 0.5)
        assert here.ordinal > everywhere.ordinal and there.ordinal < ordinal(*DEFAULT)
        assert [h.table_id for h in await store.history("test:alice")] == [again.id, row.id]
        assert len(await store.history("test:alice", limit=1)) == 1
        [stat] = await store.user_stats("test:alice", "test:other")
        assert (stat.games, stat.wins) == (1, 0)

    with_store(db_target, body, clock=iter(range(1, 100)).__next__)


def test_the_all_games_leaderboard_names_the_game_of_its_rating(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        await store.upsert_user("test:alice", "alice")
        for variant, ranks in (("classic", [1, 2]), ("classic", [1, 2]), ("matador", [2, 1])):
            row = table(variant=variant)
            row.id = await store.create_table(row)
            await finish(store, row, ranks=ranks, scores=[0, 10])
        rows = {r.user_id: r for r in await store.leaderboard(None, "global")}
        alice, bob = rows["test:alice"], rows["test:bob"]
        assert (alice.variant, alice.games, alice.wins) == ("classic", 3, 2)
        assert (bob.variant, bob.games, bob.wins) == ("matador", 3, 1)
        [best] = [r for r in await store.leaderboard("classic", "global")
                  if r.user_id == "test:alice"]
        assert best.ordinal == pytest.approx(alice.ordinal) and best.variant == "classic"

    with_store(db_target, body, clock=iter(range(1, 100)).__next__)


def test_finishing_twice_changes_nothing(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        row = table()
        row.id = await store.create_table(row)
        await finish(store, row, ranks=[1, 2], scores=[0, 10])
        before = await store.leaderboard("classic", "global")
        with pytest.raises(ValueError, match="already finished"):
            await finish(store, row, ranks=[2, 1], scores=[10, 0])
        assert await store.leaderboard("classic", "global") == before
        with pytest.raises(NotFound):
            await store.finish_game(row.id + 1, {}, {}, [], [])

    with_store(db_target, body)


def test_the_all_variants_board_takes_each_players_best_variant(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        for variant, ranks in (("classic", [1, 2]), ("classic", [1, 2]), ("matador", [2, 1])):
            row = table(variant=variant)
            row.id = await store.create_table(row)
            await finish(store, row, ranks=ranks, scores=[r * 10 for r in ranks])
        by_variant = {v: {r.user_id: r for r in await store.leaderboard(v, "global")}
                      for v in ("classic", "matador")}
        board = await store.leaderboard(None, "test:server", limit=5)
        assert [r.user_id for r in board] == ["test:alice", "test:bob"]
        for r in board:
            best = max((rows[r.user_id] for rows in by_variant.values()),
                       key=lambda x: x.ordinal)
            assert (r.mu, r.sigma, r.ordinal) == pytest.approx((best.mu, best.sigma,
                                                                best.ordinal))
            assert r.games == 3
        assert [r.wins for r in board] == [2, 1]
        assert len(await store.leaderboard(None, "global", limit=1)) == 1

    with_store(db_target, body)


def test_team_games_rate_both_partners(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        row = table(variant="partnership", humans=("test:a", "test:b", "test:c"), ai=1)
        row.id = await store.create_table(row)
        await finish(store, row, ranks=[1, 2, 1, 2], scores=[0, 15, 0, 15], teams=[0, 1, 0, 1])
        board = {r.user_id: r for r in await store.leaderboard("partnership", "global")}
        assert set(board) == {"test:a", "test:b", "test:c"}  # the computer earns nothing
        assert board["test:a"].mu == board["test:c"].mu > board["test:b"].mu
        assert (board["test:a"].win_rate, board["test:b"].win_rate) == (1.0, 0.0)

    with_store(db_target, body)


def test_table_state_gives_the_row_and_the_length_of_its_log(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        tid = await store.create_table(table(ai=1))
        await store.append_move(tid, 0, 0, "6-6", deadline=12.5)
        await store.append_move(tid, 1, 1, "6-5r")
        row, logged = await store.table_state(tid)
        assert row == await store.get_table(tid) and logged == 2
        assert row.deadline is None and [s.name for s in row.seats] == ["alice", "bob",
                                                                         "Computer 1"]
        await store.set_seats(tid, [])
        row, logged = await store.table_state(tid)
        assert row is not None and row.seats == [] and logged == 2
        assert await store.table_state(tid + 1) == (None, 0)

    with_store(db_target, body)



def test_latest_in_channel_finds_the_newest_table_of_a_status(db_target: Path | str) -> None:
    async def body(store: Store) -> None:
        a = await store.create_table(table(channel="test:one"))
        b = await store.create_table(table(channel="test:one", humans=("test:bob",), ai=1))
        c = await store.create_table(table(channel="test:two"))
        for tid in (a, b, c):
            await store.update_table(tid, status="finished")
        assert await store.latest_in_channel("test:one", ("finished",)) == b
        assert await store.latest_in_channel("test:one", ("finished",), "test:alice") == a
        assert await store.latest_in_channel("test:one", ("lobby", "playing")) is None
        assert await store.latest_in_channel("test:one", ("finished",), "test:zed") is None
        assert await store.latest_in_channel("test:three", ("finished",)) is None

    with_store(db_target, body)
