"""The outbox's rows (migration 7; what they hold and when they are said: bot/service/
outbox.py).  A row is written in the transaction of the change that makes its message
(`save_tournament(..., outbox=)`, `finish_game(..., outbox=)`), marked sent when its message
is handed to a platform (`outbox_sent`), and taken by a later process when the one that
wrote it died first (`outbox_claim`: claimed and marked in one step, so that two processes
never both take a row).  Each backend's mixin holds what it does its own way (SQLite: in
its BEGIN IMMEDIATE; PostgreSQL: one UPDATE ... RETURNING, skipping rows another process
holds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .queries import pg

# (key, owner, created_at, message JSON)
OutRow = tuple[str, str, float, str]
CLAIM_BATCH = 500  # rows taken at once (a restart after a long outage takes them in turns)

SQL_OUTBOX_PUT = ("INSERT INTO outbox (key, owner, created_at, message) VALUES (?, ?, ?, ?) "
                  "ON CONFLICT (key) DO NOTHING")
SQL_OUTBOX_DUE = ("SELECT id, key, message FROM outbox WHERE sent_at IS NULL AND owner <> ? "
                  "AND created_at < ? ORDER BY id LIMIT ?")
SQL_OUTBOX_CLAIM_PG = """
UPDATE outbox SET sent_at = ? WHERE id IN (
    SELECT id FROM outbox WHERE sent_at IS NULL AND owner <> ? AND created_at < ?
    ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
RETURNING id, key, message"""
SQL_OUTBOX_PURGE = "DELETE FROM outbox WHERE sent_at < ?"
SQL_OUTBOX_ROWS = "SELECT key, owner, created_at, sent_at, message FROM outbox ORDER BY id"


class Outbox:
    """What both backends do alike (over the stores' primitives, queries.py)."""

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    async def _write_then(self, sql: str, params: Sequence[Any],
                          outbox: Sequence[OutRow]) -> int:
        """Run one write and, if it changed a row, add the `outbox` rows, in one
        transaction; the count of rows the write changed."""
        raise NotImplementedError

    async def outbox_claim(self, owner: str, before: float, now: float,
                           limit: int = CLAIM_BATCH) -> list[tuple[str, str]]:
        """(key, message) of the unsent rows written before `before` by other processes
        than `owner`, oldest first, marked sent at `now` as they are taken."""
        raise NotImplementedError

    async def outbox_sent(self, keys: Sequence[str], now: float) -> int:
        """Mark the rows of `keys` sent (those not marked yet); how many were."""
        if not keys:
            return 0
        where, params = self._in("key", list(keys))
        return await self._write(f"UPDATE outbox SET sent_at = ? WHERE sent_at IS NULL AND "
                                 f"{where}", [now, *params])

    async def outbox_purge(self, before: float) -> int:
        """Forget the rows sent before `before` (said: nothing more to do with them)."""
        return await self._write(SQL_OUTBOX_PURGE, (before,))

    async def outbox_rows(self) -> list[tuple[str, str, float, float | None, str]]:
        """Every row (key, owner, created_at, sent_at, message), oldest first: for checks."""
        return [tuple(r) for r in await self._fetch(SQL_OUTBOX_ROWS)]  # type: ignore[misc]


class SqliteOutbox(Outbox):
    """SQLite's: in one BEGIN IMMEDIATE (which holds every other writer, in every process)."""

    _transaction: Any

    async def _write_then(self, sql: str, params: Sequence[Any],
                          outbox: Sequence[OutRow]) -> int:
        async with self._transaction() as db:
            changed = int((await db.execute(sql, params)).rowcount)
            if changed and outbox:
                await db.executemany(SQL_OUTBOX_PUT, outbox)
            return changed

    async def outbox_claim(self, owner: str, before: float, now: float,
                           limit: int = CLAIM_BATCH) -> list[tuple[str, str]]:
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(SQL_OUTBOX_DUE, (owner, before, limit)))
            if rows:
                marks = ", ".join("?" * len(rows))
                await db.execute(f"UPDATE outbox SET sent_at = ? WHERE id IN ({marks})",
                                 (now, *[r[0] for r in rows]))
        return [(str(key), str(message)) for _, key, message in rows]


class PgOutbox(Outbox):
    """PostgreSQL's: a transaction on one connection; a claim skips the rows another
    process is taking at the same moment."""

    _con: Any

    async def _write_then(self, sql: str, params: Sequence[Any],
                          outbox: Sequence[OutRow]) -> int:
        async with self._con() as con, con.transaction():
            status = await con.execute(pg(sql), *params)
            changed = int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0
            if changed and outbox:
                await con.executemany(pg(SQL_OUTBOX_PUT), outbox)
        return changed

    async def outbox_claim(self, owner: str, before: float, now: float,
                           limit: int = CLAIM_BATCH) -> list[tuple[str, str]]:
        async with self._con() as con:
            rows = await con.fetch(pg(SQL_OUTBOX_CLAIM_PG), now, owner, before, limit)
        return [(str(r[1]), str(r[2])) for r in sorted(rows, key=lambda r: r[0])]
