"""The PostgreSQL store's own matters: its migrations (numbered as SQLite's), the choice of
backend from the database setting, and the table lock that several processes share."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    MIGRATIONS,
    PG_MIGRATIONS,
    PostgresStore,
    Store,
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
