"""The PostgreSQL backend (asyncpg): the same `Store` interface as the SQLite one, for several
bot processes on one database.

The rows, the conversions and most queries and methods are shared with the SQLite backend
(rows.py, queries.py: their ``?`` marks become ``$n`` here); this module holds what differs:
the pool and the table locks, the upserts, and the writes that take one round trip here.
The migrations are ``PG_MIGRATIONS`` (pg_schema.py), numbered as the SQLite ones; each runs
in its own transaction under an advisory lock, so processes starting together apply each
once.

Several processes
    ``table_lock(table_id)`` and ``try_table_lock`` (pg_locks.py) let one process at a time
    act on a table; ``shared`` is True: the service re-reads a table under its lock, unless
    ``current(table_id)`` says that nobody wrote it since this process let it go.

Settings
    ``get_setting`` answers from a cache kept ``SETTING_TTL`` seconds (a press reads the
    server's language): a setting another process changed shows here within that time; this
    process's own changes at once.

Moves
    ``append_move`` writes the move and the table's deadline in one transaction and returns
    after its COMMIT; the primary key (table_id, turn) refuses a second move for a turn
    (DuplicateMove), the foreign key an unknown table (NotFound), whichever process wrote
    first. Under the table's lock, the moves of one action (a player's move and the computer
    moves that answer it) are kept until the action ends, or until another call of the store
    in it, and then written by one procedure call that commits them and lets the lock go:
    an action costs two round trips (lock, then moves) and one commit. The lock is let go
    only after that commit, and the service replies only after the lock is let go, so a
    move is still committed before anyone is told of it; if the commit fails, the action
    raises and nothing of it is stored. ``on_moves``, if set, is called with the
    table and the (turn, seat) of the moves each commit stored.

Changes told to the other processes
    Every committed write of a table (its version bumped), a new table and a tournament's
    saved state are told by NOTIFY right after the commit; ``listen`` hears the others'
    (pg_notify.py).

Telegram's write budget
    ``pace_reserve`` shares a chat's write slots between the processes (pg_pace.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from .doors import Doors
from .links import OutRow
from .outbox import SQL_OUTBOX_PUT, Outbox
from .pg_link import PgLink
from .pg_locks import Hold, TableLocks, within
from .pg_notify import Notice, Notices
from .pg_pace import SharedPace
from .pg_schema import PG_MIGRATIONS, PG_SCHEMA_VERSION_TABLE
from .queries import (
    ORDINAL_SQL,
    SQL_ADD_VERSION,
    SQL_GET_SETTING,
    SQL_INSERT_TABLE,
    SQL_LINK_TOURNAMENT_TABLE,
    SQL_VERSION,
    Cap,
    Dialect,
    Queries,
    pg,
)
from .rows import (
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    DuplicateMove,
    GamePlayer,
    NotFound,
    RatingRow,
    SeatRow,
    TableRow,
    seat_row,
    table_params,
    table_row,
    to_json,
)

MIGRATION_LOCK = -7_346_118  # the advisory lock key of migrations (table ids are positive)
POOL_SIZE = 20
APP_NAME = "domino-bot"  # every process's connections are named "domino-bot <token>"
SETTING_TTL = 5.0  # seconds a setting read from the database is answered from memory


SQL_UPSERT_USER = """
INSERT INTO users (id, name, locale) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET name = excluded.name,
    locale = coalesce(excluded.locale, users.locale)
WHERE users.name IS DISTINCT FROM excluded.name
    OR users.locale IS DISTINCT FROM coalesce(excluded.locale, users.locale)"""
SQL_INSERT_TABLE_ID = pg(SQL_INSERT_TABLE) + " RETURNING id"
# The seats of a table as arrays (seat, user_id, name, ai, misses) from $n on.
_SEAT_ARRAYS = "unnest(${}::integer[], ${}::text[], ${}::text[], ${}::text[], ${}::integer[])"
# A table with its seats: one statement (one round trip, one commit).
SQL_CREATE_TABLE = f"""
WITH t AS ({SQL_INSERT_TABLE_ID}),
s AS (INSERT INTO seats (table_id, seat, user_id, name, ai, misses)
      SELECT t.id, x.* FROM t, {_SEAT_ARRAYS.format(*range(15, 20))} AS x)
SELECT id FROM t"""
# A table's seats replaced, with its version: one statement; no row if there is no such table.
SQL_SET_SEATS = f"""
WITH t AS (UPDATE tables SET version = version + 1 WHERE id = $1 RETURNING id),
d AS (DELETE FROM seats WHERE table_id IN (SELECT id FROM t) AND seat <> ALL($2::integer[])),
u AS (INSERT INTO seats (table_id, seat, user_id, name, ai, misses)
      SELECT t.id, x.* FROM t, {_SEAT_ARRAYS.format(*range(2, 7))} AS x
      ON CONFLICT (table_id, seat) DO UPDATE SET user_id = excluded.user_id,
          name = excluded.name, ai = excluded.ai, misses = excluded.misses)
SELECT id FROM t"""
SQL_APPEND_MOVE = """
WITH m AS (INSERT INTO moves (table_id, turn, seat, move, at) VALUES ($1, $2, $3, $4, $5)
           RETURNING table_id)
UPDATE tables SET deadline = $6, warned = $7, version = version + 1
WHERE id = (SELECT table_id FROM m)"""
# Several moves of one table (arrays of turns, seats, moves, times) and its deadline,
# committed; then the table's lock let go if asked (pg_schema.py, migration 3).
SQL_APPEND_MOVES = "CALL domino_append_moves($1, $2, $3, $4, $5, $6, $7, $8)"
# A table, its seats (one row each; none: one row of NULLs) and the length of its move log.
_TABLE_WITH_SEATS = f"""
SELECT {', '.join(f't.{c}' for c in TABLE_COLUMNS)},
    {', '.join(f's.{c}' for c in SEAT_COLUMNS)}{{}}
FROM tables AS t LEFT JOIN seats AS s ON s.table_id = t.id
WHERE t.id = $1 ORDER BY s.seat"""
SQL_TABLE_STATE = _TABLE_WITH_SEATS.format(
    ",\n    (SELECT count(*) FROM moves WHERE table_id = t.id)")
SQL_TABLE_WITH_SEATS = _TABLE_WITH_SEATS.format("")  # one round trip for get_table
# The end of a game in one statement (pg_schema.py, migration 3): 'ok', 'missing', 'finished'
# or 'taken'.
SQL_FINISH_GAME = f"SELECT domino_finish_game({', '.join(f'${n}' for n in range(1, 21))})"
# All variants together: the sums of games and wins, and the rating of the user's best
# variant (PostgreSQL has no bare columns beside max(): DISTINCT ON picks that row).
def _board_all(source: str, where: str, limit: str) -> str:
    """Every variant's board: each player's best rating in `source` rows that match `where`,
    their games and wins summed over the variants."""
    return f"""
WITH best AS (
    SELECT DISTINCT ON (user_id) user_id, mu, sigma, {ORDINAL_SQL} AS ordinal, variant
    FROM {source} WHERE {where} ORDER BY user_id, {ORDINAL_SQL} DESC, variant),
totals AS (
    SELECT user_id, sum(games) AS games, sum(wins) AS wins
    FROM {source} WHERE {where} GROUP BY user_id)
SELECT b.user_id, coalesce(u.name, b.user_id), b.mu, b.sigma, b.ordinal, t.games, t.wins,
    b.variant
FROM best AS b JOIN totals AS t ON t.user_id = b.user_id
LEFT JOIN users AS u ON u.id = b.user_id
ORDER BY b.ordinal DESC, b.user_id
LIMIT {limit}"""


DIALECT = Dialect(upsert_user=SQL_UPSERT_USER,
                  leaderboard_all=_board_all("ratings", "scope = $1", "$2"),
                  season_board_all=_board_all("season_ratings", "scope = $1 AND season = $2",
                                              "$3"))


async def _reset(con: asyncpg.Connection) -> None:
    """What a connection needs when back in the pool: only a rollback if a transaction was
    left open (the store releases its locks itself, and uses no LISTEN, cursor or SET): the
    default reset would cost a round trip per use."""
    if con.is_in_transaction():
        await con.execute("ROLLBACK")


def _joined(rows: list[Any]) -> TableRow | None:
    """A table from the rows of _TABLE_WITH_SEATS (one per seat, or one of NULL seats)."""
    if not rows:
        return None
    width = len(TABLE_COLUMNS)
    seats = [seat_row(r[width:width + 6]) for r in rows if r[width] is not None]
    return table_row(rows[0][:width], seats)


def _seat_arrays(seats: Sequence[SeatRow]) -> list[list[Any]]:
    """Seats as the five arrays of _SEAT_ARRAYS."""
    return [[s.seat for s in seats], [s.user_id for s in seats], [s.name for s in seats],
            [s.ai for s in seats], [s.misses for s in seats]]


class PostgresStore(Doors):
    """The bot's database on PostgreSQL. Open with `await PostgresStore.open(url)`.

    It holds its parts, each made with what it uses: `notices` (pg_notify.py: the pool, its
    token, how to connect), `locks` (pg_locks.py: the pool, the notices, the writing of an
    action's moves), `link` (pg_link.py: the pool and the locks), `queries` (queries.py) and
    `outbox` (outbox.py) over the link, and `pace` (pg_pace.py: the pool).  Its public
    methods are theirs (doors.py and the doors below) and its own (tables, moves, games)."""

    shared = True  # several processes may use the database: the service re-reads tables
    on_moves: Callable[[int, list[tuple[int, int]]], None] | None = None  # see Moves

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float], token: str = "",
                 url: str = "", connect_settings: dict[str, str] | None = None) -> None:
        self._pool = pool
        self._clock = clock
        self._settings: dict[tuple[str, str], tuple[str | None, float]] = {}
        self._closed = False
        self._token = token
        self.notices = Notices(pool, token, url, connect_settings or {})
        self.locks = TableLocks(pool, self.notices.note, self._flush)
        self.link = PgLink(pool, self.locks)
        self.queries = Queries(self.link, DIALECT)
        self.outbox = Outbox(self.link)
        self.pace = SharedPace(pool)

    @classmethod
    async def open(cls, url: str, *, clock: Callable[[], float] = time.time,
                   pool_size: int = POOL_SIZE, **_ignored: Any) -> PostgresStore:
        """Connect to `url` (postgresql://...) and bring the schema up to date.

        SQLite's options (synchronous, group_commit) are accepted and ignored: every commit
        here is PostgreSQL's, durable as the server is configured."""
        token = os.urandom(6).hex()
        settings = {"application_name": f"{APP_NAME} {token}"}
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_reset,
                                         server_settings=settings)
        store = cls(pool, clock, token, url, settings)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def peers(self) -> int:
        """How many other bot processes (other stores) are connected to the database now,
        by the names their connections carry (the same database role sees them)."""
        row = await self.link.fetch_one(
            "SELECT count(DISTINCT application_name) FROM pg_stat_activity "
            "WHERE application_name LIKE $1 AND application_name <> $2",
            (f"{APP_NAME} %", f"{APP_NAME} {self._token}"))
        return int(row[0])

    async def close(self) -> None:
        if self._closed:
            return
        await self.notices.close()
        self._closed = self.link.closed = self.locks.closed = True
        await self._pool.close()

    # -- the schema ----------------------------------------------------------------------

    async def _migrate(self) -> None:
        async with self._pool.acquire() as con:
            for version, statements in enumerate(PG_MIGRATIONS, 1):
                async with con.transaction():
                    await con.execute("SELECT pg_advisory_xact_lock($1::bigint)",
                                      MIGRATION_LOCK)
                    await con.execute(PG_SCHEMA_VERSION_TABLE)
                    current = await con.fetchval(SQL_VERSION)
                    if current > len(PG_MIGRATIONS):
                        raise RuntimeError(
                            f"the database is at schema version {current}, newer than this "
                            f"program ({len(PG_MIGRATIONS)}); upgrade the bot")
                    if current >= version:
                        continue
                    for statement in statements:
                        await con.execute(statement)
                    await con.execute(pg(SQL_ADD_VERSION), version, time.time())

    # -- users and settings -----------------------------------------------------------------

    async def get_setting(self, scope: str, key: str, default: str | None = None) -> str | None:
        now = time.monotonic()
        cached = self._settings.get((scope, key))
        if cached is None or cached[1] <= now:
            row = await self.link.fetch_one(SQL_GET_SETTING, (scope, key))
            if len(self._settings) >= 10_000:
                self._settings.clear()
            cached = self._settings[scope, key] = (row[0] if row else None, now + SETTING_TTL)
        return default if cached[0] is None else cached[0]

    async def set_setting(self, scope: str, key: str, value: str) -> None:
        self._settings.pop((scope, key), None)
        await self.queries.set_setting(scope, key, value)
        self._settings.pop((scope, key), None)

    # -- tables -----------------------------------------------------------------------------

    async def create_table(self, row: TableRow,
                           tournament: tuple[int, int, int] | None = None,
                           caps: Sequence[Cap] = ()) -> int:
        """As SQLite's: the table, its seats, and its tournament's link in one transaction,
        with the check of `caps` (pg_locks.within: an advisory lock per limit's key)."""
        async with self.link.con() as con, con.transaction():
            await within(con, caps)
            table_id = int(await con.fetchval(SQL_CREATE_TABLE, *table_params(row),
                                              *_seat_arrays(row.seats)))
            if tournament is not None:
                await con.execute(pg(SQL_LINK_TOURNAMENT_TABLE), *tournament, table_id)
        self.locks.opened(table_id)  # as written: a copy made from `row` is current
        self.notices.note(table_id)  # a table opened (a tournament's round: others take it up)
        return table_id

    async def get_table(self, table_id: int) -> TableRow | None:
        return _joined(await self.link.fetch(SQL_TABLE_WITH_SEATS, (table_id,)))

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        with self.locks.writing(table_id):
            async with self.link.con() as con:
                if await con.fetchval(SQL_SET_SEATS, table_id, *_seat_arrays(seats)) is None:
                    raise NotFound(f"no table #{table_id}")

    # -- the move log -----------------------------------------------------------------------

    async def append_move(self, table_id: int, turn: int, seat: int, move: str,
                          deadline: float | None = None, warned: bool = False) -> None:
        """Log a move and set the table's deadline and warned flag, in one transaction.

        Returns once committed. A move for a (table_id, turn) that already has one raises
        DuplicateMove; an unknown table raises NotFound; either way nothing changes.
        """
        hold = self.locks.held()
        if hold is not None and hold.table_id == table_id and not hold.con.is_closed():
            if any(t == turn for t, *_ in hold.pending):
                raise DuplicateMove(f"table #{table_id} already has a move for turn {turn}")
            hold.pending.append((turn, seat, move, self._clock()))  # written by _flush
            hold.after = (deadline, warned)
            return
        try:
            with self.locks.writing(table_id):
                async with self.link.con() as con:  # one statement: one round trip, one commit
                    await con.execute(SQL_APPEND_MOVE, table_id, turn, seat, move,
                                      self._clock(), deadline, int(warned))
        except asyncpg.UniqueViolationError:
            raise DuplicateMove(f"table #{table_id} already has a move for turn "
                                f"{turn}") from None
        except asyncpg.ForeignKeyViolationError:
            raise NotFound(f"no table #{table_id}") from None
        self._stored(table_id, [(turn, seat)])

    async def _flush(self, hold: Hold, unlock: bool = False) -> None:
        """Write the moves the held table's action made, in one call (see Moves); with
        `unlock`, the end of the action: the call lets the lock go once they are committed."""
        moves, hold.pending = hold.pending, []
        turns, seats, texts, times = (list(column) for column in zip(*moves, strict=True))
        deadline, warned = hold.after
        try:
            with self.locks.writing(hold.table_id):
                await hold.con.execute(SQL_APPEND_MOVES, hold.table_id, turns, seats, texts,
                                       times, deadline, int(warned), unlock)
                hold.unlocked = unlock
        except asyncpg.UniqueViolationError:
            raise DuplicateMove(f"table #{hold.table_id} already has a move for one of the "
                                f"turns {turns}") from None
        except asyncpg.ForeignKeyViolationError:
            raise NotFound(f"no table #{hold.table_id}") from None
        self._stored(hold.table_id, list(zip(turns, seats, strict=True)))

    def _stored(self, table_id: int, moves: list[tuple[int, int]]) -> None:
        if self.on_moves is not None:
            self.on_moves(table_id, moves)

    async def table_state(self, table_id: int) -> tuple[TableRow | None, int]:
        """The table with its seats, and how many moves its log holds: one round trip."""
        rows = await self.link.fetch(SQL_TABLE_STATE, (table_id,))
        return _joined(rows), int(rows[0][-1]) if rows else 0

    # -- finished games, ratings, leaderboards, history -------------------------------------

    async def finish_game(self, table_id: int, record: dict[str, Any], result: dict[str, Any],
                          players: list[GamePlayer], ratings: list[RatingRow],
                          last_move: tuple[int, int, str] | None = None,
                          outbox: Sequence[OutRow] = ()) -> None:
        """As the SQLite store's: one transaction, with the move that ended the game
        (`last_move`: turn, seat, move; DuplicateMove if its turn is taken) and the
        `outbox` rows; NotFound, or ValueError if finished."""
        now = self._clock()
        with self.locks.writing(table_id):
            await self._finish_game(table_id, now, record, result, players, ratings,
                                    last_move, outbox)
        if last_move is not None:
            self._stored(table_id, [(last_move[0], last_move[1])])

    async def _finish_game(self, table_id: int, now: float, record: dict[str, Any],
                           result: dict[str, Any], players: list[GamePlayer],
                           ratings: list[RatingRow],
                           last_move: tuple[int, int, str] | None,
                           outbox: Sequence[OutRow] = ()) -> None:
        turn, seat, move = last_move if last_move is not None else (None, None, None)
        # in lock order
        rated = sorted(ratings, key=lambda r: (r.user_id, r.variant, r.scope, r.season))
        async with self.link.con() as con, con.transaction():
            status = await con.fetchval(
                SQL_FINISH_GAME, table_id, now, to_json(record), to_json(result), turn, seat,
                move, [p.seat for p in players], [p.user_id for p in players],
                [int(p.won) for p in players], [p.score for p in players],
                [p.rank for p in players], [r.user_id for r in rated],
                [r.variant for r in rated], [r.scope for r in rated], [r.mu for r in rated],
                [r.sigma for r in rated], [r.games for r in rated], [r.wins for r in rated],
                [r.season for r in rated])
            if status == "ok" and outbox:
                await con.executemany(pg(SQL_OUTBOX_PUT), outbox)
        if status == "missing":
            raise NotFound(f"no table #{table_id}")
        if status == "finished":
            raise ValueError(f"game #{table_id} is already finished")
        if status == "taken":
            raise DuplicateMove(f"table #{table_id} already has a move for turn {turn}")

    async def save_tournament(self, tournament_id: int, version: int, status: str,
                              state: str, outbox: Sequence[OutRow] = ()) -> bool:
        saved = await self.queries.save_tournament(tournament_id, version, status, state,
                                                   outbox)
        if saved:
            self.notices.note(tournament_id=tournament_id)  # a round opened, closed, a player in
        return saved

    # -- the doors of the PostgreSQL parts -----------------------------------------------------

    def table_lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the table against every task of every process until the block ends."""
        return self.locks.table_lock(table_id)

    def try_table_lock(self, table_id: int) -> AbstractAsyncContextManager[bool]:
        """The table lock if nobody holds it (True), else nothing at once (False)."""
        return self.locks.try_table_lock(table_id)

    def current(self, table_id: int) -> bool:
        return self.locks.current(table_id)

    def forget(self, table_id: int) -> None:
        self.locks.forget(table_id)

    def listen(self, on_notice: Callable[[Notice], None],
               on_link: Callable[[bool], None]) -> None:
        self.notices.listen(on_notice, on_link)

    def unlisten(self, on_notice: Callable[[Notice], None]) -> None:
        self.notices.unlisten(on_notice)

    @property
    def listening(self) -> bool:
        return self.notices.listening

    @property
    def listener_pid(self) -> int | None:
        return self.notices.listener_pid

    async def pace_reserve(self, key: str, step: float) -> float:
        return await self.pace.reserve(key, step)
