"""Telegram's write budget shared by every bot process on the database (bot/telegram/pacing.py).

Each process paces its own writes (`Pace`); with several processes on one bot token, a group's
20 writes a minute and a chat's one a second must hold across them. The budget is shared
here, not by routing a chat's writes through one process: any process may answer a press in
any chat (the presses come to whichever process Telegram's webhook or long poll hands them),
and routing would add a hop, an owner to elect and a hand-over when a process dies; a
reservation is one statement and needs no owner.

``pace_reserve(key, step)``: one atomic upsert on ``domino_pace`` (key: the bot's id and the
chat) moves the chat's next allowed time on by `step` seconds from max(its next allowed time,
now) and returns how long this write must wait for the slot it took (0: at once). Two
processes reserving at once are ordered by the row lock: their slots are `step` apart. The
time is the database's (``clock_timestamp()``), one clock for every process and host.

``domino_pace`` is UNLOGGED and made at first use (``CREATE ... IF NOT EXISTS`` under an
advisory lock), not by a migration: it holds only the next few seconds' reservations (lost
in a crash, nothing is), and the migrations stay numbered as SQLite's.
"""

from __future__ import annotations

import asyncpg

PACE_LOCK = -7_346_119  # the advisory lock key of the table's creation
SQL_PACE_TABLE = """CREATE UNLOGGED TABLE IF NOT EXISTS domino_pace (
    key TEXT PRIMARY KEY, next_at DOUBLE PRECISION NOT NULL)"""
SQL_RESERVE = """
WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t)
INSERT INTO domino_pace AS p (key, next_at) SELECT $1, now.t + $2 FROM now
ON CONFLICT (key) DO UPDATE SET next_at = greatest(p.next_at, excluded.next_at - $2) + $2
RETURNING greatest(0, next_at - $2 - (SELECT t FROM now))"""


class SharedPace:
    """The shared Telegram budget of `PostgresStore` (see the module docstring): a part the
    store holds (``store.pace``), made with its pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._pace_ready = False

    async def reserve(self, key: str, step: float) -> float:
        """Take the next write slot of `key` (`step` seconds after the last one taken by
        any process); the seconds to wait for it."""
        async with self._pool.acquire() as con:
            if not self._pace_ready:
                async with con.transaction():
                    await con.execute("SELECT pg_advisory_xact_lock($1::bigint)", PACE_LOCK)
                    await con.execute(SQL_PACE_TABLE)
                self._pace_ready = True
            return float(await con.fetchval(SQL_RESERVE, key, float(step)))
