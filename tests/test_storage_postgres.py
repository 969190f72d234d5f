"""The PostgreSQL store's own matters: its migrations (numbered as SQLite's), the choice of
backend from the database setting, and the table lock that several processes share."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    MIGRATIONS,
    PG_MIGRATIONS,
    DuplicateMove,
    PostgresStore,
    SeatRow,
    Store,
    TableRow,
    TournamentPlace,
    is_postgres,
    open_store,
)
from bot.storage.backends import sqlite_path


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def _versions(url: str) -> list[int]:
    con = await asyncpg.connect(url)
    try:
        return [r[0] for r in await con.fetch("SELECT version FROM schema_version ORDER BY 1")]
    finally:
        await con.close()


def _tables(statements: tuple[str, ...]) -> list[str]:
    return [m.group(1) for s in statements if (m := re.match(r"\s*CREATE TABLE (\w+)", s))]


def test_both_lists_of_migrations_have_the_same_numbers_and_tables() -> None:
    assert len(PG_MIGRATIONS) == len(MIGRATIONS)
    for sqlite_version, pg_version in zip(MIGRATIONS, PG_MIGRATIONS, strict=True):
        assert _tables(pg_version) == _tables(sqlite_version)


# What a fresh database holds, from the catalog: columns, constraints, indexes, and the
# functions' and procedures' text (sha256 of CATALOG's rows): released migrations never change.
CATALOG = """
SELECT 'column', table_name || '.' || lpad(ordinal_position::text, 2) || ' ' || column_name,
    concat_ws(' ', data_type, is_nullable, column_default, is_identity, identity_generation)
FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL SELECT 'constraint', conrelid::regclass || '.' || conname, pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = 'public'::regnamespace
UNION ALL SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL SELECT 'routine', proname, pg_get_function_arguments(oid) || ' ' || prosrc
FROM pg_proc WHERE pronamespace = 'public'::regnamespace
ORDER BY 1, 2"""
PG_SCHEMA = "a81bf2ac533d87c37eab0e87faf1348f7a7ecf94d3307dc64ad4423138783619"  # 7: outbox


def test_a_fresh_database_gets_the_released_schema(pg_url: str) -> None:
    async def main() -> str:
        store = await PostgresStore.open(pg_url)
        await store.close()
        con = await asyncpg.connect(pg_url)
        try:
            rows = await con.fetch(CATALOG)
        finally:
            await con.close()
        return "\n".join(" ".join(str(x) for x in row) for row in rows)
    text = run(main())
    assert hashlib.sha256(text.encode()).hexdigest() == PG_SCHEMA


def test_an_empty_database_gets_the_whole_schema_once(pg_url: str) -> None:
    async def main() -> None:
        stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(3)))
        for store in stores:  # three processes starting together apply each migration once
            assert await store.schema_version() == len(PG_MIGRATIONS)
            await store.close()
        assert await _versions(pg_url) == list(range(1, len(PG_MIGRATIONS) + 1))
        again = await open_store(pg_url)
        await again.close()
        assert await _versions(pg_url) == list(range(1, len(PG_MIGRATIONS) + 1))
    run(main())


def test_a_database_from_a_newer_program_is_refused(pg_url: str) -> None:
    async def main() -> None:
        store = await PostgresStore.open(pg_url)
        await store.close()
        con = await asyncpg.connect(pg_url)
        await con.execute("INSERT INTO schema_version VALUES ($1, 0)", len(PG_MIGRATIONS) + 1)
        await con.close()
        with pytest.raises(RuntimeError, match="newer than this program"):
            await PostgresStore.open(pg_url)
    run(main())


def test_the_setting_names_the_backend(tmp_path: Path) -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://h/db")
    assert not is_postgres("sqlite:bot.db") and not is_postgres(tmp_path / "x.db")
    assert sqlite_path("sqlite:bot.db") == "bot.db"
    assert sqlite_path("sqlite:///tmp/bot.db") == "/tmp/bot.db"

    async def main() -> None:
        store = await open_store(f"sqlite:{tmp_path / 'a.db'}")
        assert isinstance(store, Store) and not store.shared
        await store.close()
    run(main())
    assert (tmp_path / "a.db").exists()


def test_the_table_lock_holds_other_connections_off(pg_url: str) -> None:
    async def main() -> None:
        one, two = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        try:
            order: list[str] = []
            async with one.table_lock(7):
                async with two.try_table_lock(7) as got:
                    assert got is False  # another "process" holds table 7
                async with two.try_table_lock(8) as got:
                    assert got is True

                async def second() -> None:
                    async with two.table_lock(7):
                        order.append("two")
                waiting = asyncio.create_task(second())
                await asyncio.sleep(0.2)
                order.append("one")
            await waiting
            assert order == ["one", "two"]
        finally:
            await one.close()
            await two.close()
    run(main())


def _row() -> TableRow:
    return TableRow(id=0, channel="c", scope="s", host="u:1", variant="classic", options={},
                    players=2, timer=None, status="playing", seed=1, lang="en", created_at=0.0,
                    seats=[SeatRow(0, "u:1", "one"), SeatRow(1, None, "CPU 1", "greedy")])


def test_the_lock_says_whether_another_process_wrote_the_table(pg_url: str) -> None:
    async def main() -> None:
        one, two = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        try:
            tid = await one.create_table(_row())

            async def current() -> bool:
                async with one.table_lock(tid):
                    return one.current(tid)
            assert await current()  # created here, and nobody wrote it since
            other = await two.create_table(_row())
            async with one.table_lock(other):
                assert not one.current(other)  # never held nor written here
            async with one.table_lock(tid):
                await one.append_move(tid, 0, 0, "6-6")  # its own writes are counted
                await one.update_seat(tid, 1, misses=1)
            assert await current()
            await two.update_table(tid, warned=True)  # another process writes it
            assert not await current()
            assert await current()
            async with two.table_lock(tid):
                await two.append_move(tid, 1, 1, "6-5r")
            assert not await current()
            await one.update_table(tid, warned=False)  # a write outside the lock: forgotten
            assert not await current()
            with pytest.raises(RuntimeError):
                async with one.table_lock(tid):
                    raise RuntimeError("the action failed")
            assert not await current()  # a failed action forgets what it knew
        finally:
            await one.close()
            await two.close()
    run(main())


def test_an_actions_moves_are_committed_together_before_the_lock_is_let_go(
        pg_url: str) -> None:
    async def main() -> None:
        one, two = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        stored: list[tuple[int, list[tuple[int, int]]]] = []
        one.on_moves = lambda table, moves: stored.append((table, moves))
        try:
            tid = await one.create_table(_row())
            async with one.table_lock(tid):
                await one.append_move(tid, 0, 0, "6-6", deadline=50.0)
                await one.append_move(tid, 1, 1, "6-5r", deadline=70.0)
                assert await two.moves(tid) == []  # not committed while the action runs
                assert stored == []
            assert await two.moves(tid) == ["6-6", "6-5r"]
            assert stored == [(tid, [(0, 0), (1, 1)])]
            row = await two.get_table(tid)
            assert row is not None and row.deadline == 70.0  # the last move's deadline
            async with two.try_table_lock(tid) as got:
                assert got  # the lock was let go with the commit
            async with one.table_lock(tid):
                await one.append_move(tid, 2, 0, "5-5l")
                assert await one.moves(tid) == ["6-6", "6-5r", "5-5l"]  # a read writes first
            with pytest.raises(RuntimeError):
                async with one.table_lock(tid):
                    await one.append_move(tid, 3, 1, "pass")
                    raise RuntimeError("the computer's move failed")
            assert await two.moves(tid) == ["6-6", "6-5r", "5-5l"]  # none of it stored
            with pytest.raises(DuplicateMove):
                async with one.table_lock(tid):
                    await one.append_move(tid, 2, 1, "draw")  # turn 2 is taken
            assert await two.moves(tid) == ["6-6", "6-5r", "5-5l"]
            async with two.try_table_lock(tid) as got:
                assert got  # a failed commit lets the lock go too
        finally:
            await one.close()
            await two.close()
    run(main())


def test_settings_are_read_again_after_a_few_seconds(pg_url: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.storage import postgres

    async def main() -> None:
        one, two = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        try:
            await one.set_setting("g", "lang", "fr")
            assert await two.get_setting("g", "lang") == "fr"
            await one.set_setting("g", "lang", "en")
            assert await one.get_setting("g", "lang") == "en"  # its own change at once
            assert await two.get_setting("g", "lang") == "fr"  # another's within SETTING_TTL
            now = time.monotonic()
            monkeypatch.setattr(postgres.time, "monotonic", lambda: now + postgres.SETTING_TTL)
            assert await two.get_setting("g", "lang") == "en"
        finally:
            await one.close()
            await two.close()
    run(main())


def test_tournaments_are_kept_and_written_by_compare_and_set(pg_url: str) -> None:
    async def main() -> None:
        store = await PostgresStore.open(pg_url)
        try:
            tid = await store.create_tournament("s", "c", "u", "registration", "{}", 1.0)
            row = await store.tournament(tid)
            assert row is not None and (row.status, row.version) == ("registration", 0)
            assert await store.save_tournament(tid, 0, "running", '{"a": 1}')
            assert not await store.save_tournament(tid, 0, "finished", "{}")  # stale
            assert [r.id for r in await store.tournaments(("running",), "s")] == [tid]
            assert await store.tournaments(("running",), "other") == []
            await store.link_tournament_table(tid, 1, 1, 77)
            assert await store.tournament_tables(tid, 1) == {1: 77}
            assert await store.table_tournament(77) == (tid, 1, 1)
        finally:
            await store.close()
    run(main())


def test_tournament_places_are_kept_once(pg_url: str) -> None:
    async def main() -> None:
        store = await PostgresStore.open(pg_url)
        try:
            one = await store.create_tournament("s", "c", "u", "finished", "{}", 1.0)
            two = await store.create_tournament("s", "c", "u", "finished", "{}", 2.0)
            await store.save_tournament_places(one, [("a", 1), ("b", 2)], 10.0)
            await store.save_tournament_places(one, [("a", 2), ("b", 1)], 11.0)  # once
            await store.save_tournament_places(two, [("b", 1), ("a", 2), ("c", 3)], 20.0)
            assert await store.tournament_places("a") == [TournamentPlace(two, 2, 3),
                                                          TournamentPlace(one, 1, 2)]
            assert await store.tournament_places("nobody") == []
        finally:
            await store.close()
    run(main())
