"""The outbox's rows (migration 7; what they hold and when they are said: bot/service/
outbox.py).  A row is written in the transaction of the change that makes its message
(`save_tournament(..., outbox=)`, `finish_game(..., outbox=)`), marked sent when its message
is handed to a platform (`Outbox.sent`), and taken by a later process when the one that
wrote it died first (`Outbox.claim`: claimed and marked in one step, so that two processes
never both take a row).  `Outbox` is the part both stores hold (``store.outbox``); what
each backend does its own way is its link's (SQLite, sqlite_link.py: in its BEGIN
IMMEDIATE; PostgreSQL, pg_link.py: one UPDATE ... RETURNING, skipping rows another process
holds), with the SQL here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .links import Link, OutRow

__all__ = ["CLAIM_BATCH", "OutRow", "Outbox"]

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
    """The outbox's rows, over a store's link (the same on both backends)."""

    def __init__(self, link: Link) -> None:
        self._link = link

    async def claim(self, owner: str, before: float, now: float,
                    limit: int = CLAIM_BATCH) -> list[tuple[str, str]]:
        """(key, message) of the unsent rows written before `before` by other processes
        than `owner`, oldest first, marked sent at `now` as they are taken."""
        return await self._link.claim_outbox(owner, before, now, limit)

    async def sent(self, keys: Sequence[str], now: float) -> int:
        """Mark the rows of `keys` sent (those not marked yet); how many were."""
        if not keys:
            return 0
        where, params = self._link.where_in("key", list(keys))
        return await self._link.write(f"UPDATE outbox SET sent_at = ? WHERE sent_at IS NULL "
                                      f"AND {where}", [now, *params])

    async def purge(self, before: float) -> int:
        """Forget the rows sent before `before` (said: nothing more to do with them)."""
        return await self._link.write(SQL_OUTBOX_PURGE, (before,))

    async def rows(self) -> list[tuple[str, str, float, float | None, str]]:
        """Every row (key, owner, created_at, sent_at, message), oldest first: for checks."""
        return [tuple(r) for r in await self._link.fetch(SQL_OUTBOX_ROWS)]  # type: ignore[misc]
