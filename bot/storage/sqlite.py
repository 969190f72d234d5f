"""The SQLite backend: one file reached through one `Store`. The queries and methods both
backends share are in queries.py (what is kept: see there), the connection, its lock and
transactions in sqlite_link.py; this module holds the store, which holds them as parts, and
SQLite's own: the upserts, the opening and migrations, the group commit of moves.

Durability
    WAL with ``synchronous=NORMAL``. Every write method returns only after its ``COMMIT``: the
    transaction is then in the ``-wal`` file, so a killed or crashed *process* loses nothing
    (the next open replays the WAL); an OS crash or power cut may lose the last commits (never
    corrupting the file). ``Store.open(path, synchronous="FULL")`` adds an fsync per commit.

Migrations
    ``MIGRATIONS[n - 1]`` is the tuple of statements of migration n; ``schema_version`` has one
    row per applied migration. On open, each missing migration runs in its own ``BEGIN
    IMMEDIATE`` transaction with its version row, re-reading the version inside it, so two
    processes opening the file at once cannot apply one twice. A released migration is never
    edited: append a new one. A file whose version is newer than this code is refused.

Concurrency
    aiosqlite runs the calls one at a time on its thread, but a transaction is several calls
    and coroutines interleave between them, so every access to the connection holds the
    lock of the store's link (sqlite_link.py). ``BEGIN IMMEDIATE`` makes another *process*
    wait (``busy_timeout``).

Group commit of moves
    ``append_move`` (one call per move at every table) queues the move and waits; one writer
    task writes every queued move (up to ``MAX_BATCH``) in one transaction: one query finds
    the missing tables and taken turns, ``executemany`` writes the rest, one ``COMMIT``. Each
    caller returns after that commit with its own outcome (``DuplicateMove``, ``NotFound``).
    Tables moving at once share a few commits instead of one each (``group_commit=False``
    gives a commit per move, for comparison). A caller cancelled while its move is still
    queued withdraws it; once its batch is being written, the move may be committed anyway.
"""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import aiosqlite

from .doors import Doors
from .links import OutRow
from .outbox import SQL_OUTBOX_PUT, Outbox
from .queries import (
    ORDINAL_SQL,
    SQL_ADD_VERSION,
    SQL_INSERT_TABLE,
    SQL_LINK_TOURNAMENT_TABLE,
    SQL_SEATS,
    SQL_TABLE,
    SQL_VERSION,
    Cap,
    Dialect,
    Queries,
)
from .rows import (
    DuplicateMove,
    GamePlayer,
    NotFound,
    RatingRow,
    SeatRow,
    TableRow,
    seat_params,
    seat_row,
    table_params,
    table_row,
    to_json,
)
from .schema import MIGRATIONS, SCHEMA_VERSION_TABLE
from .sqlite_link import SqliteLink, within

MAX_BATCH = 256  # moves per group commit (2 parameters each: under SQLite's old 999 limit)
BUSY_TIMEOUT_MS = 10_000
SYNCHRONOUS = ("NORMAL", "FULL")

SQL_UPSERT_USER = """
INSERT INTO users (id, name, locale) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET name = excluded.name,
    locale = coalesce(excluded.locale, users.locale)
WHERE users.name IS NOT excluded.name
    OR users.locale IS NOT coalesce(excluded.locale, users.locale)"""
SQL_TABLE_EXISTS = "SELECT 1 FROM tables WHERE id = ?"
SQL_DELETE_SEATS = "DELETE FROM seats WHERE table_id = ?"
SQL_INSERT_SEAT = ("INSERT INTO seats (table_id, seat, user_id, name, ai, misses) "
                   "VALUES (?, ?, ?, ?, ?, ?)")

SQL_INSERT_MOVE = "INSERT INTO moves (table_id, turn, seat, move, at) VALUES (?, ?, ?, ?, ?)"
SQL_MOVE_TAKEN = "SELECT 1 FROM moves WHERE table_id = ? AND turn = ?"
SQL_SET_DEADLINE = "UPDATE tables SET deadline = ?, warned = ? WHERE id = ?"

SQL_GAME_EXISTS = "SELECT 1 FROM games WHERE table_id = ?"
SQL_TABLE_GAME = "SELECT variant, scope FROM tables WHERE id = ?"
SQL_FINISH_TABLE = "UPDATE tables SET status = 'finished', result = ? WHERE id = ?"
SQL_INSERT_GAME = ("INSERT INTO games (table_id, variant, scope, finished_at, record, result) "
                   "VALUES (?, ?, ?, ?, ?, ?)")
SQL_INSERT_PLAYER = ("INSERT INTO game_players (table_id, seat, user_id, won, score, rank) "
                     "VALUES (?, ?, ?, ?, ?, ?)")
SQL_UPSERT_RATING = """
INSERT INTO ratings (user_id, variant, scope, mu, sigma, games, wins)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (user_id, variant, scope) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
    games = excluded.games, wins = excluded.wins"""
SQL_UPSERT_SEASON_RATING = """
INSERT INTO season_ratings (scope, season, variant, user_id, mu, sigma, games, wins)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (scope, season, variant, user_id) DO UPDATE SET mu = excluded.mu,
    sigma = excluded.sigma, games = excluded.games, wins = excluded.wins"""
# All variants together: per user, the sums of games and wins, and the rating of the variant
# where the user's ordinal is best. (SQLite takes the bare columns mu and sigma from the row
# that holds the max().)
def _board_all(source: str, where: str) -> str:
    """Every variant's board: each player's best rating in `source` rows that match `where`
    (SQLite takes the other columns from the row of the max), games and wins summed."""
    return f"""
SELECT r.user_id, coalesce(u.name, r.user_id), r.mu, r.sigma, max({ORDINAL_SQL}) AS ordinal,
    sum(r.games), sum(r.wins), r.variant
FROM {source} AS r LEFT JOIN users AS u ON u.id = r.user_id
WHERE {where}
GROUP BY r.user_id
ORDER BY ordinal DESC, r.user_id
LIMIT ?"""


DIALECT = Dialect(upsert_user=SQL_UPSERT_USER,
                  leaderboard_all=_board_all("ratings", "r.scope = ?"),
                  season_board_all=_board_all("season_ratings", "r.scope = ? AND r.season = ?"))


@lru_cache(maxsize=MAX_BATCH)
def sql_check_moves(n: int) -> str:
    """For n (table_id, turn) pairs: does the table exist, is the turn already taken?"""
    values = ", ".join(["(?, ?)"] * n)
    return (f"WITH b (t, n) AS (VALUES {values}) "
            "SELECT b.t, b.n, EXISTS (SELECT 1 FROM tables WHERE id = b.t), "
            "EXISTS (SELECT 1 FROM moves WHERE table_id = b.t AND turn = b.n) FROM b")


class StoreError(RuntimeError):
    """The database file cannot be used: one line naming the file, the cause, what to do."""


def cannot_open(name: str, exc: BaseException) -> str:
    """Why the file `name` cannot be opened, and what to do, in one line."""
    text = str(exc).lower()
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text
                                                   or "malformed" in text):
        return (f"{name}: not a usable SQLite database (damaged, truncated or another kind "
                "of file); restore it from a backup, or set DOMINO_DB to another file")
    if "readonly" in text or "read-only" in text or "unable to open" in text or isinstance(
            exc, (PermissionError, FileExistsError, NotADirectoryError)) or getattr(
            exc, "errno", None) in (errno.EROFS, errno.EACCES, errno.ENOTDIR, errno.EEXIST):
        return (f"{name}: cannot write there (read-only file or folder, or no such folder); "
                "give the bot a file in a folder it can write to (DOMINO_DB)")
    if "full" in text:
        return f"{name}: the disk is full; free some space"
    cause = getattr(exc, "strerror", None) or type(exc).__name__
    return f"{name}: cannot be opened ({cause}); check the file and its folder (DOMINO_DB)"


def _write_moves(db: sqlite3.Connection, batch: list[_Move]) -> dict[int, Exception]:
    """On the database thread: commit the batch's moves in one transaction; the refused
    ones (index in batch -> NotFound or DuplicateMove) are left out."""
    keys = [(m.table_id, m.turn) for m in batch]
    refused: dict[int, Exception] = {}
    db.execute("BEGIN IMMEDIATE")
    try:
        found = {(t, n): (has_table, taken) for t, n, has_table, taken in
                 db.execute(sql_check_moves(len(keys)), [x for key in keys for x in key])}
        seen: set[tuple[int, int]] = set()
        for i, key in enumerate(keys):
            has_table, taken = found[key]
            if not has_table:
                refused[i] = NotFound(f"no table #{key[0]}")
            elif taken or key in seen:
                refused[i] = DuplicateMove(f"table #{key[0]} already has a move for "
                                           f"turn {key[1]}")
            seen.add(key)
        ok = [m for i, m in enumerate(batch) if i not in refused]
        if ok:
            db.executemany(SQL_INSERT_MOVE, [(m.table_id, m.turn, m.seat, m.move, m.at)
                                             for m in ok])
            db.executemany(SQL_SET_DEADLINE, [(m.deadline, int(m.warned), m.table_id)
                                              for m in ok])
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.rollback()
        raise
    return refused


def _check_writable(path: Path) -> None:
    """Refuse a file (or a folder, for a new file and the WAL's files) the bot cannot write."""
    for target in (path, path.parent):
        if target.exists() and not os.access(target, os.W_OK):
            raise PermissionError(errno.EROFS, "read-only", str(target))


@dataclass(eq=False)
class _Move:
    """A move waiting for the group commit."""

    table_id: int
    turn: int
    seat: int
    move: str
    at: float
    deadline: float | None
    warned: bool
    future: asyncio.Future[None]


# -- the store -----------------------------------------------------------------------------------


class Store(Doors):
    """The bot's database. Open with `await Store.open(path)`, close with `await store.close()`.

    It holds its parts: `link` (the connection and its lock, sqlite_link.py), `queries`
    (what both stores do alike, queries.py) and `outbox` (outbox.py), each made with the
    link; its public methods are theirs (doors.py) and its own below."""

    shared = False  # one process: its tables are never stale (see postgres.py)

    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], float], batch: int) -> None:
        self.link = SqliteLink(db)
        self.queries = Queries(self.link, DIALECT)
        self.outbox = Outbox(self.link)
        self._clock = clock
        self._batch = batch
        self._queue: list[_Move] = []
        self._writing: list[_Move] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._writer: asyncio.Task[None] | None = None
        self._name = "the database"

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "NORMAL",
                   group_commit: bool = True, clock: Callable[[], float] = time.time) -> Store:
        """Open (creating if needed) the database at `path` and bring its schema up to date.

        `synchronous`: "NORMAL" (default; see the module docstring) or "FULL" for power-loss
        durability. `group_commit=False` commits every move on its own (for measurements).
        `clock` gives the times stored with moves and finished games.
        """
        synchronous = synchronous.upper()
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}")
        name = str(path)
        try:
            if name != ":memory:" and not name.startswith("file:"):
                Path(name).parent.mkdir(parents=True, exist_ok=True)
                _check_writable(Path(name))
            db = await aiosqlite.connect(name, isolation_level=None)  # we write BEGIN/COMMIT
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(cannot_open(name, exc)) from None
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db, clock, MAX_BATCH if group_commit else 1)
            store._name = name
            await store._migrate()
        except BaseException as exc:
            await db.close()
            if isinstance(exc, (OSError, sqlite3.Error)):
                raise StoreError(cannot_open(name, exc)) from None
            raise
        store._writer = asyncio.get_running_loop().create_task(store._write_moves())
        return store

    async def close(self) -> None:
        """Write the moves still queued, then close the connection. Closing twice is fine."""
        if self._closing:
            return
        self._closing = True
        self._wake.set()
        if self._writer is not None:
            await self._writer
        await self.link.db.close()

    # -- the schema ----------------------------------------------------------------------------

    async def _migrate(self) -> None:
        async with self.link.lock:
            await self.link.db.execute(SCHEMA_VERSION_TABLE)
        for version, statements in enumerate(MIGRATIONS, 1):
            async with self.link.transaction() as db:
                [(current,)] = await db.execute_fetchall(SQL_VERSION)
                if current > len(MIGRATIONS):
                    raise StoreError(f"{self._name}: at schema version {current}, newer than "
                                     f"this program ({len(MIGRATIONS)}); upgrade the bot, or "
                                     "set DOMINO_DB to another file")
                if current >= version:
                    continue
                for statement in statements:
                    await db.execute(statement)
                await db.execute(SQL_ADD_VERSION, (version, time.time()))

    # -- tables -----------------------------------------------------------------------------

    async def create_table(self, row: TableRow,
                           tournament: tuple[int, int, int] | None = None,
                           caps: Sequence[Cap] = ()) -> int:
        """Insert the table and its seats; `row.id` is ignored. Returns the new id.  With
        `tournament` (its id, the round, the table's number), the table is linked to it in
        the same transaction: a crash leaves no table of a round that the round does not
        know.  `caps` (queries.table_caps) are checked in it too (`OverLimit`: no table);
        BEGIN IMMEDIATE holds every other writer, in every process, meanwhile."""
        params = table_params(row)
        async with self.link.transaction() as db:
            await within(db, caps)
            cursor = await db.execute(SQL_INSERT_TABLE, params)
            table_id = cursor.lastrowid
            assert table_id is not None
            await db.executemany(SQL_INSERT_SEAT, seat_params(table_id, row.seats))
            if tournament is not None:
                await db.execute(SQL_LINK_TOURNAMENT_TABLE, (*tournament, table_id))
        return table_id

    async def get_table(self, table_id: int) -> TableRow | None:
        rows, seats = await self.link.fetch_many((SQL_TABLE, (table_id,)), (SQL_SEATS, (table_id,)))
        return table_row(rows[0], [seat_row(s) for s in seats]) if rows else None

    async def table_state(self, table_id: int) -> tuple[TableRow | None, int]:
        """The table with its seats, and how many moves its log holds."""
        return await self.get_table(table_id), await self.queries.move_count(table_id)

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Replace all the seats of a table."""
        async with self.link.transaction() as db:
            if not list(await db.execute_fetchall(SQL_TABLE_EXISTS, (table_id,))):
                raise NotFound(f"no table #{table_id}")
            await db.execute(SQL_DELETE_SEATS, (table_id,))
            await db.executemany(SQL_INSERT_SEAT, seat_params(table_id, seats))

    # -- the move log -----------------------------------------------------------------------

    async def append_move(self, table_id: int, turn: int, seat: int, move: str,
                          deadline: float | None = None, warned: bool = False) -> None:
        """Log a move and set the table's deadline and warned flag, in one transaction.

        Returns once committed. A move for a (table_id, turn) that already has one raises
        DuplicateMove; an unknown table raises NotFound; either way nothing changes.
        """
        if self._closing or self._writer is None or self._writer.done():
            raise RuntimeError("the store is closed")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Move(table_id, turn, seat, move, self._clock(), deadline, warned,
                                 future))
        self._wake.set()
        await future  # cancelling this cancels the future: a queued move is then dropped

    async def _write_moves(self) -> None:
        """The writer task: commits the queued moves, a batch per transaction."""
        try:
            while True:
                if not self._queue:
                    if self._closing:
                        return
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                batch = self._queue[:self._batch]
                del self._queue[:self._batch]
                self._writing = [m for m in batch if not m.future.done()]
                if self._writing:
                    await self._commit_moves(self._writing)
                self._writing = []
        finally:
            for m in (*self._writing, *self._queue):
                if not m.future.done():
                    m.future.set_exception(RuntimeError("the store closed before the move "
                                                        "was written"))
            self._writing, self._queue = [], []

    async def _commit_moves(self, batch: list[_Move]) -> None:
        """One transaction for the batch, run in ONE call on the database thread: a batch
        costs one thread hop instead of one per statement, so a player's move does not wait
        on many hops behind the computers' moves of a busy tick."""
        try:
            async with self.link.lock:
                db = self.link.db
                refused = await db._execute(_write_moves, db._conn, batch)
        except Exception as exc:  # nothing of the batch was committed
            for m in batch:
                if not m.future.done():
                    m.future.set_exception(exc)
            return
        for i, m in enumerate(batch):
            if not m.future.done():
                if i in refused:
                    m.future.set_exception(refused[i])
                else:
                    m.future.set_result(None)

    # -- finished games ----------------------------------------------------------------------

    async def finish_game(self, table_id: int, record: dict[str, Any], result: dict[str, Any],
                          players: list[GamePlayer], ratings: list[RatingRow],
                          last_move: tuple[int, int, str] | None = None,
                          outbox: Sequence[OutRow] = ()) -> None:
        """In one transaction: the table finished with its result, the game's record, its
        players, the new rating rows (upserted per user, variant and scope, and season
        for a season's row) and the `outbox` rows (what the end says: storage/outbox.py).

        The games row takes its variant and scope from the table. Raises NotFound for an
        unknown table and ValueError for a game already finished (changing nothing).
        `last_move` (turn, seat, move) is the move that ended the game, logged in the same
        transaction (DuplicateMove if its turn is taken): the move and the result are kept
        together or not at all.
        """
        now = self._clock()
        async with self.link.transaction() as db:
            rows = list(await db.execute_fetchall(SQL_TABLE_GAME, (table_id,)))
            if not rows:
                raise NotFound(f"no table #{table_id}")
            variant, scope = rows[0]
            if list(await db.execute_fetchall(SQL_GAME_EXISTS, (table_id,))):
                raise ValueError(f"game #{table_id} is already finished")
            if last_move is not None:
                turn, seat, move = last_move
                if list(await db.execute_fetchall(SQL_MOVE_TAKEN, (table_id, turn))):
                    raise DuplicateMove(f"table #{table_id} already has a move for turn {turn}")
                await db.execute(SQL_INSERT_MOVE, (table_id, turn, seat, move, now))
                await db.execute(SQL_SET_DEADLINE, (None, 0, table_id))
            await db.execute(SQL_FINISH_TABLE, (to_json(result), table_id))
            await db.execute(SQL_INSERT_GAME, (table_id, variant, scope, now, to_json(record),
                                               to_json(result)))
            await db.executemany(SQL_INSERT_PLAYER, [
                (table_id, p.seat, p.user_id, int(p.won), p.score, p.rank) for p in players])
            await db.executemany(SQL_UPSERT_RATING, [
                (r.user_id, r.variant, r.scope, r.mu, r.sigma, r.games, r.wins)
                for r in ratings if not r.season])
            await db.executemany(SQL_UPSERT_SEASON_RATING, [
                (r.scope, r.season, r.variant, r.user_id, r.mu, r.sigma, r.games, r.wins)
                for r in ratings if r.season])
            await db.executemany(SQL_OUTBOX_PUT, outbox)

    # -- for the service: one process ---------------------------------------------------------

    async def peers(self) -> int:
        """Other processes serving the same tables: none, SQLite is one process's."""
        return 0
