"""The PostgreSQL store's link (links.py): its pool, and the pinned connection of the table
lock the current task holds (pg_locks.py), on which every call made under the lock runs.

A call under the lock first writes the moves the action kept (``TableLocks.flush``): what
it reads includes them.  A write of a table's row or seat bumps the table's version with it
(``TableLocks.writing`` counts it).  The SQL is written with ``?`` marks (`pg` turns them
into ``$n``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from .links import Cap, OutRow
from .outbox import SQL_OUTBOX_CLAIM_PG, SQL_OUTBOX_PUT
from .pg_locks import TableLocks, within
from .queries import pg
from .rows import NotFound

# A seat's fields (set by `update_row`) and the table's version, in one statement.
SQL_UPDATE_SEAT = """
WITH s AS ({update} RETURNING table_id)
UPDATE tables SET version = version + 1 WHERE id = (SELECT table_id FROM s)"""


def changed(status: str) -> int:
    """The row count of a command's status ("UPDATE 3": 3)."""
    return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0


class PgLink:
    """The pool and the table locks' pinned connections (see the module docstring)."""

    def __init__(self, pool: asyncpg.Pool, locks: TableLocks) -> None:
        self._pool = pool
        self._locks = locks
        self.closed = False

    @asynccontextmanager
    async def con(self) -> AsyncIterator[asyncpg.Connection]:
        """The pinned connection of the table lock held, else one of the pool."""
        hold = self._locks.held()
        if hold is not None and not hold.con.is_closed():
            if hold.pending:
                await self._locks.flush(hold)
            yield hold.con
            return
        if self.closed:
            raise RuntimeError("the store is closed")
        async with self._pool.acquire() as con:
            yield con

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self.con() as con:
            return list(await con.fetch(pg(sql), *params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self.con() as con:
            return await con.fetchrow(pg(sql), *params)

    async def fetch_within(self, caps: Sequence[Cap], sql: str, params: Sequence[Any]) -> Any:
        async with self.con() as con, con.transaction():
            await within(con, caps)
            return await con.fetchrow(pg(sql), *params)

    async def fetch_many(self, *queries: tuple[str, Sequence[Any]]) -> list[list[Any]]:
        async with self.con() as con:
            return [list(await con.fetch(pg(sql), *params)) for sql, params in queries]

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.con() as con:
            return changed(await con.execute(pg(sql), *params))

    def where_in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?::text[])", [list(values)]

    async def update_row(self, table_id: int, table: str, sql: str, params: Sequence[Any],
                         missing: str) -> None:
        """The UPDATE of a table's row or seat, with the table's version."""
        if table == "tables":
            sql = sql.replace(" WHERE ", ", version = version + 1 WHERE ", 1)
        else:
            sql = SQL_UPDATE_SEAT.format(update=sql)
        with self._locks.writing(table_id):
            if await self.write(sql, params) == 0:
                raise NotFound(missing)

    async def write_then(self, sql: str, params: Sequence[Any],
                         outbox: Sequence[OutRow]) -> int:
        """The write and its outbox rows in one transaction on one connection."""
        async with self.con() as con, con.transaction():
            count = changed(await con.execute(pg(sql), *params))
            if count and outbox:
                await con.executemany(pg(SQL_OUTBOX_PUT), outbox)
        return count

    async def claim_outbox(self, owner: str, before: float, now: float,
                           limit: int) -> list[tuple[str, str]]:
        """One UPDATE ... RETURNING that skips the rows another process is taking."""
        async with self.con() as con:
            rows = await con.fetch(pg(SQL_OUTBOX_CLAIM_PG), now, owner, before, limit)
        return [(str(r[1]), str(r[2])) for r in sorted(rows, key=lambda r: r[0])]
