"""The SQLite store's link (links.py): its one connection and the lock every access holds.

aiosqlite runs the calls one at a time on its thread, but a transaction is several calls and
coroutines interleave between them, so every access to the connection holds `lock`.
``BEGIN IMMEDIATE`` (`transaction`) makes another *process* wait (``busy_timeout``) and holds
every other writer meanwhile: a limit's count and its write (`within`), an outbox claim, a
write with its outbox rows are each one step.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .links import Cap, OutRow
from .outbox import SQL_OUTBOX_DUE, SQL_OUTBOX_PUT
from .rows import NotFound, OverLimit


async def within(db: aiosqlite.Connection, caps: Sequence[Cap]) -> None:
    """Count what each limit counts (in the caller's BEGIN IMMEDIATE); `OverLimit` past one."""
    for kind, sql, key, cap in caps:
        if cap > 0 and (n := (await db.execute_fetchall(sql, (key,)))[0][0]) >= cap:
            raise OverLimit(kind, n)


class SqliteLink:
    """The connection `db` of one SQLite file and its `lock` (see the module docstring)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT under the lock; any exception rolls everything back."""
        async with self.lock:
            try:  # BEGIN inside: a task cancelled while it runs must not leave it open
                await self.db.execute("BEGIN IMMEDIATE")
                yield self.db
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.rollback()  # a no-op if the COMMIT went through
                raise

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self.lock:
            return list(await self.db.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetch_within(self, caps: Sequence[Cap], sql: str, params: Sequence[Any]) -> Any:
        async with self.transaction() as db:
            await within(db, caps)
            return (await db.execute_fetchall(sql, params))[0]

    async def fetch_many(self, *queries: tuple[str, Sequence[Any]]) -> list[list[Any]]:
        async with self.lock:
            return [list(await self.db.execute_fetchall(sql, params))
                    for sql, params in queries]

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, in its own (autocommit) transaction; returns the changed row count."""
        async with self.lock:
            cursor = await self.db.execute(sql, params)
            return cursor.rowcount

    def where_in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    async def update_row(self, table_id: int, table: str, sql: str, params: Sequence[Any],
                         missing: str) -> None:
        if await self.write(sql, params) == 0:
            raise NotFound(missing)

    async def write_then(self, sql: str, params: Sequence[Any],
                         outbox: Sequence[OutRow]) -> int:
        """The write and its outbox rows in one BEGIN IMMEDIATE."""
        async with self.transaction() as db:
            changed = int((await db.execute(sql, params)).rowcount)
            if changed and outbox:
                await db.executemany(SQL_OUTBOX_PUT, outbox)
            return changed

    async def claim_outbox(self, owner: str, before: float, now: float,
                           limit: int) -> list[tuple[str, str]]:
        """Read and marked in one BEGIN IMMEDIATE (which holds every other process)."""
        async with self.transaction() as db:
            rows = list(await db.execute_fetchall(SQL_OUTBOX_DUE, (owner, before, limit)))
            if rows:
                marks = ", ".join("?" * len(rows))
                await db.execute(f"UPDATE outbox SET sent_at = ? WHERE id IN ({marks})",
                                 (now, *[r[0] for r in rows]))
        return [(str(key), str(message)) for _, key, message in rows]
