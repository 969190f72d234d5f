"""Changes told across processes: PostgreSQL's NOTIFY (sent by the store after each committed
write of a table or tournament) and LISTEN (a dedicated connection per store, re-opened with
backoff when lost).  `Notices` is a part the store holds (``store.notices``), made with the
pool, the store's token and how to connect.

Sending
    Each write that bumps a table's version (``TableLocks.writing``), each new table and each
    tournament's saved state notes the id; a task sends the noted ids in one statement right
    after (``SQL_NOTIFY``: a ``pg_notify`` per row), reading each table's version and status
    as committed.  The notify goes *right after the commit*, not inside the write's
    transaction: the move writes are single statements and a procedure of a released
    migration (``domino_append_moves``, which COMMITs itself), and a new migration for a
    trigger would break the SQLite/PostgreSQL migration numbering.  Either way a listener
    never hears of a change before it is durable (a NOTIFY inside a transaction is delivered
    at its commit; here it is sent after it), and the batching keeps the notify off the
    action's round trips (the player's reply does not wait for it).

The payload (JSON, well under NOTIFY's 8000 bytes) names the table and its version (and its
status), or the tournament, and the sending store's token (``from``) so a process skips its
own; never a tile, a hand or a user.

Listening
    ``listen(on_notice, on_link)`` (several subscribers) starts one task that holds a
    dedicated connection (not the pool's: a pooled connection is reset and shared) with
    asyncpg's ``add_listener``.  When it is lost (terminated, the server restarted, a
    keep-alive query failing) subscribers hear ``on_link(False)``, it reconnects with
    backoff (0.1 s doubling to 5 s), then ``on_link(True)``: they catch up by reading again
    what they watch (nothing heard while down is replayed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from ..logcontext import detached

log = logging.getLogger("domino.storage")
CHANNEL = "domino_changes"
KEEPALIVE = 5.0  # seconds between two checks that the listening connection answers
BACKOFF = (0.1, 5.0)  # first and longest wait before listening again
Notice = dict[str, Any]
SQL_NOTIFY = """
SELECT count(pg_notify($4::text, n.p)) FROM (
    SELECT json_build_object('table', t.id, 'version', t.version, 'status', t.status,
                             'from', $3::text)::text AS p
    FROM tables AS t WHERE t.id = ANY($1::bigint[])
    UNION ALL
    SELECT json_build_object('tournament', x, 'from', $3::text)::text
    FROM unnest($2::bigint[]) AS x) AS n"""


class Notices:
    """The NOTIFY/LISTEN side of `PostgresStore` (see the module docstring): `note` sends,
    `listen` hears; the listening connection is made with `url` and `connect_settings`."""

    def __init__(self, pool: asyncpg.Pool, token: str, url: str,
                 connect_settings: dict[str, str]) -> None:
        self._pool = pool
        self._token = token
        self._url = url
        self._connect_settings = connect_settings
        self._closed = False
        self._outbox_tables: set[int] = set()
        self._outbox_tourneys: set[int] = set()
        self._sender: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._subscribers: list[tuple[Callable[[Notice], None], Callable[[bool], None]]] = []
        self.listener_pid: int | None = None  # the listening connection's server pid
        self.listening = False

    # -- sending ----------------------------------------------------------------------------

    def note(self, table_id: int | None = None, tournament_id: int | None = None) -> None:
        """Tell the other processes of this committed change (soon, batched)."""
        if table_id is not None:
            self._outbox_tables.add(table_id)
        if tournament_id is not None:
            self._outbox_tourneys.add(tournament_id)
        if self._sender is None or self._sender.done():
            with contextlib.suppress(RuntimeError):  # no loop: nobody to tell now
                self._sender = detached(self._send())  # about every table it names

    async def _send(self) -> None:
        while (self._outbox_tables or self._outbox_tourneys) and not self._closed:
            tables, self._outbox_tables = sorted(self._outbox_tables), set()
            tourneys, self._outbox_tourneys = sorted(self._outbox_tourneys), set()
            try:
                await self._pool.execute(SQL_NOTIFY, tables, tourneys, self._token, CHANNEL)
            except Exception as exc:  # the pages fall back on their re-reads
                log.warning("cannot notify the other processes: %s", type(exc).__name__)

    # -- listening --------------------------------------------------------------------------

    def listen(self, on_notice: Callable[[Notice], None],
               on_link: Callable[[bool], None]) -> None:
        """Call `on_notice(payload)` for each change another process tells, and
        `on_link(up)` when the listening connection is lost or back."""
        self._subscribers.append((on_notice, on_link))
        if self.listening:
            on_link(True)
        if self._listener is None and not self._closed:
            self._listener = detached(self._listen())

    def unlisten(self, on_notice: Callable[[Notice], None]) -> None:
        self._subscribers = [s for s in self._subscribers if s[0] is not on_notice]

    def _heard(self, _con: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            notice = json.loads(payload)
        except ValueError:
            return
        if not isinstance(notice, dict) or notice.get("from") == self._token:
            return  # this process's own change: told in memory already
        for on_notice, _ in list(self._subscribers):
            try:
                on_notice(notice)
            except Exception:
                log.exception("a change listener failed")

    def _link(self, up: bool) -> None:
        if up == self.listening:
            return
        self.listening = up
        for _, on_link in list(self._subscribers):
            try:
                on_link(up)
            except Exception:
                log.exception("a change listener failed")

    async def _listen(self) -> None:
        delay = BACKOFF[0]
        while not self._closed:
            try:
                con = await asyncpg.connect(self._url, server_settings=self._connect_settings)
            except Exception as exc:
                log.warning("cannot listen for changes (again in %.1f s): %s", delay,
                            type(exc).__name__)
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])
                continue
            lost = asyncio.Event()
            try:
                con.add_termination_listener(lambda _c, lost=lost: lost.set())
                await con.add_listener(CHANNEL, self._heard)
                self.listener_pid = con.get_server_pid()
                delay = BACKOFF[0]
                self._link(True)
                while not lost.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), KEEPALIVE)
                    if not lost.is_set():
                        await asyncio.wait_for(con.fetchval("SELECT 1"), KEEPALIVE)
            except Exception as exc:
                if not self._closed:
                    log.warning("the change listener's connection is lost: %s",
                                type(exc).__name__)
            finally:
                self._link(False)
                con.terminate()
            if not self._closed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])

    async def close(self) -> None:
        """Send what is noted, then stop listening."""
        if self._sender is not None and not self._sender.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), 2.0)
        self._closed = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        self._subscribers.clear()
