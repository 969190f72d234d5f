"""The PostgreSQL store's table locks: one process at a time acts on a table.  `TableLocks`
is a part the store holds (``store.locks``), made with the pool, the notice of a committed
change (pg_notify.py) and the store's writing of a held table's pending moves.

``table_lock(table_id)`` holds a PostgreSQL advisory lock on the table (key: its id) on a
connection of the pool, for as long as the service acts on the table; every store call
made inside it (by the same task) runs on that connection, so a process never waits for
a second connection while it holds a lock. ``try_table_lock`` is the same but gives up at
once (False) when another process holds the table: its due computer move or timer is that
process's to fire. ``PostgresStore.shared`` is True: the service re-reads a table under its lock and
rebuilds it from the move log when another process has moved it on.

The lock and the check cost one round trip: ``domino_lock_table`` (pg_schema.py, migration
3) takes the lock and reads the table's version, which every write of the table bumps.
The store remembers the version each table had when this process last let it go (its
own writes counted); ``current(table_id)``, under the lock, says whether nobody wrote the
table since, so that the service may skip the re-read. Any failure under the lock (or a
write of the table outside it) forgets the version: the next action re-reads the table.

``within(con, caps)``: the limits a write must not pass (a user's tables, a channel's, a
server's tournaments: queries.Cap), each counted under a transaction-scoped advisory lock
on its (kind, key), so that two processes writing at once count one after the other.  The
two-key form (kind, hashtext(key)) is a key space apart from the tables' one-key locks.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field

import asyncpg

from .links import Cap
from .queries import pg
from .rows import OverLimit

SQL_LOCK = "SELECT domino_lock_table($1::bigint, $2::boolean)"
SQL_UNLOCK = "SELECT pg_advisory_unlock($1::bigint)"
SQL_SCOPE_LOCK = "SELECT pg_advisory_xact_lock($1::integer, hashtext($2::text))"
SCOPE_LOCKS = {"host": 37_001, "channel": 37_002, "tournaments": 37_003}  # a lock's kind


async def within(con: asyncpg.Connection, caps: Sequence[Cap]) -> None:
    """In the caller's transaction: lock each limit's (kind, key), in the order given (every
    writer gives the same order: no deadlock), count, and raise `OverLimit` past one."""
    for kind, sql, key, cap in caps:
        if cap > 0:
            await con.execute(SQL_SCOPE_LOCK, SCOPE_LOCKS[kind], key)
            n = await con.fetchval(pg(sql), key)
            if n >= cap:
                raise OverLimit(kind, n)


@dataclass
class Hold:
    """A table lock the current task holds: its connection, and the table's version (as
    read when locked, plus this hold's own writes)."""

    locks: TableLocks
    table_id: int
    con: asyncpg.Connection
    version: int
    current: bool  # nobody wrote the table since this process last let it go
    failed: bool = False  # a write failed: the version is no longer known
    pending: list[tuple[int, int, str, float]] = field(default_factory=list)  # moves to write
    after: tuple[float | None, bool] = (None, False)  # the deadline and warned flag after them
    unlocked: bool = False  # the last write let the lock go


# The table lock the current task holds, if any.
_hold: contextvars.ContextVar[Hold | None] = contextvars.ContextVar("domino_pg_hold",
                                                                    default=None)


class TableLocks:
    """The table locks of `PostgresStore` (see the module docstring), over its pool: `note`
    tells the other processes of a committed write of a table, `flush(hold, unlock)` writes
    the moves an action kept (with `unlock`, the end of the action: its call lets the lock
    go once they are committed)."""

    def __init__(self, pool: asyncpg.Pool, note: Callable[[int], None],
                 flush: Callable[[Hold, bool], Awaitable[None]]) -> None:
        self._pool = pool
        self._note = note
        self._flush = flush
        self._locks: dict[int, asyncio.Lock] = {}
        self._seen: dict[int, int] = {}  # table id -> its version when this process let it go
        self.closed = False

    @asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        """Hold the table against every task of every process until the block ends."""
        async with self._local(table_id), self._locked(table_id, True) as held:
            assert held
            yield

    @asynccontextmanager
    async def try_table_lock(self, table_id: int) -> AsyncIterator[bool]:
        """The table lock if nobody holds it (True), else nothing at once (False)."""
        lock = self._local(table_id)
        if lock.locked():
            yield False
            return
        async with lock, self._locked(table_id, False) as held:
            yield held

    def current(self, table_id: int) -> bool:
        """Under the table's lock: nobody wrote the table since this process let it go (so a
        copy in memory made then is current)."""
        hold = self.held()
        return hold is not None and hold.table_id == table_id and hold.current

    def forget(self, table_id: int) -> None:
        """The copy in memory may differ from the database: re-read at the next action."""
        self._seen.pop(table_id, None)
        hold = self.held()
        if hold is not None and hold.table_id == table_id:
            hold.failed = True

    def held(self) -> Hold | None:
        """The table lock of this store the current task holds, if any."""
        hold = _hold.get()
        return hold if hold is not None and hold.locks is self else None

    async def flush(self, hold: Hold) -> None:
        """Write the moves the held table's action kept so far (before another call)."""
        await self._flush(hold, False)

    def opened(self, table_id: int) -> None:
        """A table this process just wrote whole: a copy made from its row is current."""
        self._seen[table_id] = 0

    def _local(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _locked(self, table_id: int, wait: bool) -> AsyncIterator[bool]:
        if self.closed:
            raise RuntimeError("the store is closed")
        async with self._pool.acquire() as con:
            version = await con.fetchval(SQL_LOCK, table_id, wait)
            if version is None:
                yield False
                return
            hold = Hold(self, table_id, con, version, version >= 0 and
                         self._seen.get(table_id) == version)
            token = _hold.set(hold)
            ok = False
            try:
                try:
                    yield True
                except BaseException:
                    hold.pending.clear()  # the action failed: none of it is stored
                    raise
                if hold.pending:
                    await self._flush(hold, True)
                ok = not hold.failed
            finally:
                _hold.reset(token)
                if ok and version >= 0:  # (no entry for a number that is no table)
                    self._seen[table_id] = hold.version
                else:
                    self._seen.pop(table_id, None)
                if not hold.unlocked:
                    await self._unlock(con, table_id)

    @staticmethod
    async def _unlock(con: asyncpg.Connection, table_id: int) -> None:
        """Let the table go; a connection that cannot is closed (which lets it go too), so
        that no lock outlives its holder in the pool."""
        if con.is_closed():
            return
        try:
            await con.execute(SQL_UNLOCK, table_id)
        except BaseException:
            con.terminate()
            raise

    @contextmanager
    def writing(self, table_id: int) -> Iterator[None]:
        """Around a write that bumps the table's version once: count it in the hold of the
        table, else forget the version; a failed write forgets it too."""
        hold = self.held()
        mine = hold is not None and hold.table_id == table_id
        try:
            yield
        except BaseException:
            self.forget(table_id)
            raise
        self._note(table_id)  # committed (each write here is): tell the other processes
        if mine:
            assert hold is not None
            hold.version += 1
        else:
            self._seen.pop(table_id, None)
