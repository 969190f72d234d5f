"""What both stores do alike: the SQL that is the same on SQLite and PostgreSQL (written with
SQLite's ``?`` marks; `pg` turns them into ``$1, $2...``), and `Queries`, the part both
stores hold: the store methods written once over a backend's link (links.py).

What is kept: users (name, locale); settings per scope (a server or group id); tables with
their seats and their append-only move log (one move per (table, turn)); finished games with
their JSON record and result, and one row per human seat (won, score, rank); ratings per
(user, variant, scope), where scope is a server/group id or "global" (every game counts
there too), and a server's per season (month and quarter: bot/service/seasons.py); small
key/values for the adapters, per table (message ids to edit) and per user (preferences).
Leaderboards order by `bot.ratings.ordinal`, written in SQL from its constant.

Each backend keeps what differs: its connections and locks, its transactions (its link:
sqlite_link.py, pg_link.py), its upserts (`Dialect`) and the writes of moves and finished
games (sqlite.py, postgres.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..service.ratings import Z
from .links import Cap, Link
from .rows import (
    ACTIVE,
    SEAT_COLUMNS,
    SEAT_FIELDS,
    TABLE_COLUMNS,
    UPDATABLE,
    HistoryRow,
    LeaderRow,
    RatingRow,
    SeatRow,
    StatRow,
    TableRow,
    TournamentPlace,
    TournamentRow,
    encode_column,
    from_json,
    seat_row,
    status_tuple,
    table_row,
    win_rate,
)

ORDINAL_SQL = f"(mu - {Z} * sigma)"  # ratings.ordinal, in SQL
_T = ", ".join(TABLE_COLUMNS)
_S = ", ".join(SEAT_COLUMNS)

SQL_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
SQL_ADD_VERSION = "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"
SQL_USER = "SELECT name, locale FROM users WHERE id = ?"
SQL_GET_SETTING = "SELECT value FROM settings WHERE scope = ? AND key = ?"
SQL_SET_SETTING = """
INSERT INTO settings (scope, key, value) VALUES (?, ?, ?)
ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value"""

SQL_INSERT_TABLE = f"INSERT INTO tables ({_T.removeprefix('id, ')}) VALUES ({', '.join('?' * 14)})"
SQL_TABLE = f"SELECT {_T} FROM tables WHERE id = ?"
SQL_SEATS = f"SELECT {_S} FROM seats WHERE table_id = ? ORDER BY seat"

SQL_MOVES = "SELECT move FROM moves WHERE table_id = ? ORDER BY turn"
SQL_LAST_MOVE_AT = "SELECT max(at) FROM moves WHERE table_id = ?"
SQL_MOVE_COUNT = "SELECT count(*) FROM moves WHERE table_id = ?"

SQL_GAME_RECORD = "SELECT record FROM games WHERE table_id = ?"
SQL_RATINGS = ("SELECT user_id, variant, scope, mu, sigma, games, wins FROM ratings "
               "WHERE variant = ? AND scope = ? AND {users}")
SQL_LEADERBOARD = f"""
SELECT r.user_id, coalesce(u.name, r.user_id), r.mu, r.sigma, {ORDINAL_SQL} AS ordinal,
    r.games, r.wins, r.variant
FROM ratings AS r LEFT JOIN users AS u ON u.id = r.user_id
WHERE r.scope = ? AND r.variant = ?
ORDER BY ordinal DESC, r.user_id
LIMIT ?"""
# The solves of a puzzle (won games) with their JSON result: time and hints are in it.
SQL_SOLVES = """
SELECT g.table_id, p.user_id, coalesce(u.name, p.user_id), g.result
FROM games AS g JOIN game_players AS p ON p.table_id = g.table_id
    LEFT JOIN users AS u ON u.id = p.user_id
WHERE g.variant = ? AND (CAST(? AS TEXT) = 'global' OR g.scope = ?) AND p.won = 1
ORDER BY g.finished_at DESC
LIMIT ?"""
SQL_USER_STATS = f"""
SELECT variant, games, wins, mu, sigma, {ORDINAL_SQL}
FROM ratings WHERE user_id = ? AND scope = ?
ORDER BY games DESC, variant"""
SQL_HISTORY = """
SELECT g.table_id, g.variant, g.finished_at, p.seat, p.won, p.score, p.rank, t.players
FROM game_players AS p
JOIN games AS g ON g.table_id = p.table_id
JOIN tables AS t ON t.id = p.table_id
WHERE p.user_id = ?
ORDER BY g.finished_at DESC, g.table_id DESC, p.seat
LIMIT ?"""

# Seasons (migration 4): a server's ratings per month or quarter, read as the endless ones.
SQL_SEASON_RATINGS = ("SELECT user_id, variant, scope, mu, sigma, games, wins, season "
                      "FROM season_ratings WHERE variant = ? AND scope = ? AND season = ? "
                      "AND {users}")
SQL_SEASON_BOARD = f"""
SELECT r.user_id, coalesce(u.name, r.user_id), r.mu, r.sigma, {ORDINAL_SQL} AS ordinal,
    r.games, r.wins, r.variant
FROM season_ratings AS r LEFT JOIN users AS u ON u.id = r.user_id
WHERE r.scope = ? AND r.season = ? AND r.variant = ?
ORDER BY ordinal DESC, r.user_id
LIMIT ?"""
# A player's games against others (more than one seat), oldest first: for the streaks.
SQL_OUTCOMES = """
SELECT p.table_id, p.won FROM game_players AS p
JOIN games AS g ON g.table_id = p.table_id
JOIN tables AS t ON t.id = p.table_id
WHERE p.user_id = ? AND t.players > 1
ORDER BY g.finished_at, g.table_id, p.seat"""
SQL_ADAPTER_GET = "SELECT value FROM adapter_state WHERE table_id = ? AND platform = ? AND key = ?"
SQL_ADAPTER_SET = """
INSERT INTO adapter_state (table_id, platform, key, value) VALUES (?, ?, ?, ?)
ON CONFLICT (table_id, platform, key) DO UPDATE SET value = excluded.value"""
SQL_PREF_GET = "SELECT value FROM user_prefs WHERE user_id = ? AND platform = ? AND key = ?"
SQL_PREF_SET = """
INSERT INTO user_prefs (user_id, platform, key, value) VALUES (?, ?, ?, ?)
ON CONFLICT (user_id, platform, key) DO UPDATE SET value = excluded.value"""

_TOURNAMENT = "id, scope, channel, organiser, status, state, version, created_at"
# What a limit counts, checked in the transaction that writes the row (`Cap`).
SQL_COUNT_HOSTED = "SELECT count(*) FROM tables WHERE status IN ('lobby', 'playing') AND host = ?"
SQL_COUNT_IN_CHANNEL = ("SELECT count(*) FROM tables WHERE status IN ('lobby', 'playing') "
                        "AND channel = ?")
SQL_COUNT_TOURNAMENTS = ("SELECT count(*) FROM tournaments "
                         "WHERE status IN ('registration', 'running') AND scope = ?")
SQL_CREATE_TOURNAMENT = """
INSERT INTO tournaments (scope, channel, organiser, status, state, version, created_at)
VALUES (?, ?, ?, ?, ?, 0, ?) RETURNING id"""
SQL_TOURNAMENTS = f"SELECT {_TOURNAMENT} FROM tournaments"
SQL_TOURNAMENT = f"{SQL_TOURNAMENTS} WHERE id = ?"
SQL_SAVE_TOURNAMENT = """
UPDATE tournaments SET status = ?, state = ?, version = version + 1
WHERE id = ? AND version = ?"""
SQL_LINK_TOURNAMENT_TABLE = """
INSERT INTO tournament_tables (tournament_id, round, table_no, table_id) VALUES (?, ?, ?, ?)"""
SQL_TOURNAMENT_TABLES = """
SELECT table_no, table_id FROM tournament_tables WHERE tournament_id = ? AND round = ?"""
SQL_TOURNAMENT_PLACES = """
SELECT tournament_id, place, entrants FROM tournament_places WHERE user_id = ?
ORDER BY finished_at DESC, tournament_id DESC"""
SQL_UNPLACED_TOURNAMENTS = f"""{SQL_TOURNAMENTS} WHERE status = 'finished' AND NOT EXISTS (
SELECT 1 FROM tournament_places p WHERE p.tournament_id = tournaments.id) ORDER BY id"""
SQL_TABLE_TOURNAMENT = """
SELECT tournament_id, round, table_no FROM tournament_tables WHERE table_id = ?"""


@lru_cache(maxsize=1024)
def pg(sql: str) -> str:
    """SQLite's ``?`` marks as PostgreSQL's ``$1, $2...`` (no query here has a ``?`` in text)."""
    count = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def sql_tables_where(where: str) -> tuple[str, str]:
    """The two queries that load tables matching `where`, and all their seats."""
    return (f"SELECT {_T} FROM tables WHERE {where} ORDER BY id",
            f"SELECT {_S} FROM seats WHERE table_id IN "
            f"(SELECT id FROM tables WHERE {where}) ORDER BY table_id, seat")


def sql_update(table: str, names: Iterable[str], where: str) -> str:
    """An UPDATE of whitelisted column names (callers check them against UPDATABLE/SEAT_FIELDS)."""
    return f"UPDATE {table} SET {', '.join(f'{n} = ?' for n in names)} WHERE {where}"


def table_caps(row: TableRow, per_host: int = 0, per_channel: int = 0) -> list[Cap]:
    """The limits of a new table: its host's tables and its channel's (lobbies and games)."""
    return [("host", SQL_COUNT_HOSTED, row.host, per_host),
            ("channel", SQL_COUNT_IN_CHANNEL, row.channel, per_channel)]


@dataclass(frozen=True)
class Dialect:
    """The SQL of the shared methods that each backend writes its own way."""

    upsert_user: str  # params: id, name, locale
    leaderboard_all: str  # params: scope, limit
    season_board_all: str  # the same in a season: scope, season, limit


class Queries:
    """The store methods that are the same on both backends, over a store's `link` (its
    connection's primitives, links.py) and its `dialect`. Each store holds one
    (``store.queries``) and opens its public methods onto it (doors.py)."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._dialect = dialect

    async def schema_version(self) -> int:
        (version,) = await self._link.fetch_one(SQL_VERSION)
        return int(version)

    # -- users and settings -----------------------------------------------------------------

    async def upsert_user(self, user_id: str, name: str, locale: str | None = None) -> None:
        """Remember a user's display name; a None locale keeps the one already known."""
        await self._link.write(self._dialect.upsert_user, (user_id, name, locale))

    async def user_name(self, user_id: str) -> str | None:
        row = await self._link.fetch_one(SQL_USER, (user_id,))
        return row[0] if row else None

    async def user_locale(self, user_id: str) -> str | None:
        row = await self._link.fetch_one(SQL_USER, (user_id,))
        return row[1] if row else None

    async def get_setting(self, scope: str, key: str, default: str | None = None) -> str | None:
        row = await self._link.fetch_one(SQL_GET_SETTING, (scope, key))
        return row[0] if row else default

    async def set_setting(self, scope: str, key: str, value: str) -> None:
        await self._link.write(SQL_SET_SETTING, (scope, key, value))

    # -- tables -----------------------------------------------------------------------------

    async def update_table(self, table_id: int, **fields: Any) -> None:
        """Set columns of a table: any TableRow field but id and seats."""
        await self._update("tables", UPDATABLE, fields, "id = ?", (table_id,),
                           f"no table #{table_id}")

    async def update_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        """Set fields of one seat: user_id, name, ai, misses."""
        await self._update("seats", SEAT_FIELDS, fields, "table_id = ? AND seat = ?",
                           (table_id, seat), f"no seat {seat} at table #{table_id}")

    async def _update(self, table: str, allowed: frozenset[str], fields: dict[str, Any],
                      where: str, key: tuple[Any, ...], missing: str) -> None:
        """Set checked columns of the row(s) `where` selects (key[0]: the table's id);
        NotFound(`missing`) if none."""
        unknown = set(fields) - allowed
        if unknown:
            caller = "update_table" if table == "tables" else "update_seat"
            raise TypeError(f"{caller}: unknown fields {sorted(unknown)}; "
                            f"allowed: {sorted(allowed)}")
        if not fields:
            return
        params = [encode_column(name, value) for name, value in fields.items()]
        await self._link.update_row(key[0], table, sql_update(table, fields, where),
                                    [*params, *key], missing)

    async def tables(self, status: str | tuple[str, ...] = ACTIVE) -> list[TableRow]:
        """Tables with one of these statuses, with their seats, by id."""
        where, params = self._link.where_in("status", status_tuple(status))
        return await self._load_tables(where, params)

    async def tables_in_channel(self, channel: str,
                                status: str | tuple[str, ...] = ACTIVE) -> list[TableRow]:
        where, params = self._link.where_in("status", status_tuple(status))
        return await self._load_tables(f"channel = ? AND {where}", [channel, *params])

    async def latest_in_channel(self, channel: str, statuses: Sequence[str],
                                user_id: str | None = None) -> int | None:
        """The newest table of `channel` in one of `statuses` (where `user_id` has a human
        seat, when given), through the (channel, status) index; None if there is none."""
        where, params = self._link.where_in("status", status_tuple(tuple(statuses)))
        sql = f"SELECT max(id) FROM tables WHERE channel = ? AND {where}"
        params = [channel, *params]
        if user_id is not None:
            sql += (" AND EXISTS (SELECT 1 FROM seats WHERE table_id = tables.id AND "
                    "user_id = ? AND ai IS NULL)")
            params.append(user_id)
        row = await self._link.fetch_one(sql, params)
        return row[0] if row else None

    async def _load_tables(self, where: str, params: Sequence[Any]) -> list[TableRow]:
        table_sql, seat_sql = sql_tables_where(where)
        rows, seat_rows = await self._link.fetch_many((table_sql, params), (seat_sql, params))
        seats: dict[int, list[SeatRow]] = {}
        for s in seat_rows:
            seats.setdefault(s[0], []).append(seat_row(s))
        return [table_row(r, seats.get(r[0], [])) for r in rows]

    # -- the move log -----------------------------------------------------------------------

    async def moves(self, table_id: int) -> list[str]:
        """The logged moves of a table, in turn order."""
        return [r[0] for r in await self._link.fetch(SQL_MOVES, (table_id,))]

    async def last_move_at(self, table_id: int) -> float | None:
        """When the table's last logged move was made (None: no move yet)."""
        row = await self._link.fetch_one(SQL_LAST_MOVE_AT, (table_id,))
        return None if row is None or row[0] is None else float(row[0])

    async def move_count(self, table_id: int) -> int:
        """How many moves the table's log holds (the turn its game is at)."""
        row = await self._link.fetch_one(SQL_MOVE_COUNT, (table_id,))
        return int(row[0])

    # -- ratings, leaderboards, history -----------------------------------------------------

    async def ratings(self, user_ids: list[str], variant: str, scope: str, season: str = ""
                      ) -> dict[str, RatingRow]:
        """The stored ratings of these users (users never rated are absent); with `season`,
        their ratings in that season of the scope (bot/service/seasons.py)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        users, params = self._link.where_in("user_id", ids)
        if season:
            rows = await self._link.fetch(SQL_SEASON_RATINGS.format(users=users),
                                     (variant, scope, season, *params))
        else:
            rows = await self._link.fetch(SQL_RATINGS.format(users=users),
                                     (variant, scope, *params))
        return {r[0]: RatingRow(*r) for r in rows}

    async def leaderboard(self, variant: str | None, scope: str, limit: int = 10,
                          season: str = "") -> list[LeaderRow]:
        """The best players of a scope by ordinal (mu - 3 sigma), best first; with `season`,
        of that season of the scope.

        With variant None, all variants together: per user, games and wins are summed over
        the variants, and mu, sigma and ordinal are those of the user's best variant.
        """
        if season and variant is None:
            rows = await self._link.fetch(self._dialect.season_board_all, (scope, season, limit))
        elif season:
            rows = await self._link.fetch(SQL_SEASON_BOARD, (scope, season, variant, limit))
        elif variant is None:
            rows = await self._link.fetch(self._dialect.leaderboard_all, (scope, limit))
        else:
            rows = await self._link.fetch(SQL_LEADERBOARD, (scope, variant, limit))
        return [LeaderRow(user_id, name, mu, sigma, ordinal, int(games), int(wins),
                          win_rate(int(wins), int(games)), best)
                for user_id, name, mu, sigma, ordinal, games, wins, best in rows]

    async def solves(self, variant: str, scope: str, limit: int = 2000
                     ) -> list[tuple[int, str, str, dict[str, Any]]]:
        """The latest won games of a one-seat variant (a puzzle), in a scope or "global":
        (table id, user id, name, result) each, the newest first."""
        rows = await self._link.fetch(SQL_SOLVES, (variant, scope, scope, limit))
        return [(tid, user, name, from_json(result)) for tid, user, name, result in rows]

    async def user_stats(self, user_id: str, scope: str | None = None) -> list[StatRow]:
        """Per variant: games, wins, rating. Scope None means "global" (every game)."""
        rows = await self._link.fetch(SQL_USER_STATS, (user_id, scope or "global"))
        return [StatRow(variant, games, wins, win_rate(wins, games), mu, sigma, ordinal)
                for variant, games, wins, mu, sigma, ordinal in rows]

    async def streaks(self, user_id: str) -> tuple[int, int, int]:
        """Over the user's games against others (puzzles and patiences left out): how many,
        the current run of won games, and the longest one."""
        seen: set[int] = set()
        games = current = best = 0
        for table_id, won in await self._link.fetch(SQL_OUTCOMES, (user_id,)):
            if table_id in seen:  # one user at several seats: the game counts once
                continue
            seen.add(table_id)
            games += 1
            current = current + 1 if won else 0
            best = max(best, current)
        return games, current, best

    async def tournament_places(self, user_id: str) -> list[TournamentPlace]:
        """The user's final places in finished tournaments, newest first."""
        rows = await self._link.fetch(SQL_TOURNAMENT_PLACES, (user_id,))
        return [TournamentPlace(int(t), int(p), int(n)) for t, p, n in rows]

    async def save_tournament_places(self, tournament_id: int, places: Sequence[tuple[str, int]],
                                     finished_at: float, entrants: int | None = None) -> None:
        """A finished tournament's final places (user, place), once (again: nothing), of
        `entrants` places (by default one a user; a pair's two partners share one)."""
        if not places:
            return
        marks = ", ".join(["(?, ?, ?, ?, ?)"] * len(places))
        count = entrants or len(places)
        params = [x for user, place in places
                  for x in (user, tournament_id, place, count, finished_at)]
        await self._link.write("INSERT INTO tournament_places (user_id, tournament_id, place, "
                          f"entrants, finished_at) VALUES {marks} ON CONFLICT DO NOTHING",
                          params)

    async def history(self, user_id: str, limit: int = 10) -> list[HistoryRow]:
        """The user's last finished games, the most recent first."""
        rows = await self._link.fetch(SQL_HISTORY, (user_id, limit))
        return [HistoryRow(t, v, at, seat, bool(won), score, rank, players)
                for t, v, at, seat, won, score, rank, players in rows]

    async def game_record(self, table_id: int) -> dict[str, Any] | None:
        row = await self._link.fetch_one(SQL_GAME_RECORD, (table_id,))
        return from_json(row[0]) if row else None

    # -- adapters' state: per table (message ids to edit) and per user (preferences) ----------

    async def adapter_get(self, table_id: int, platform: str, key: str) -> str | None:
        row = await self._link.fetch_one(SQL_ADAPTER_GET, (table_id, platform, key))
        return row[0] if row else None

    async def adapter_set(self, table_id: int, platform: str, key: str, value: str) -> None:
        await self._link.write(SQL_ADAPTER_SET, (table_id, platform, key, value))

    async def user_pref_get(self, user_id: str, platform: str, key: str) -> str | None:
        row = await self._link.fetch_one(SQL_PREF_GET, (user_id, platform, key))
        return row[0] if row else None

    async def user_pref_set(self, user_id: str, platform: str, key: str, value: str) -> None:
        await self._link.write(SQL_PREF_SET, (user_id, platform, key, value))

    # -- tournaments (issue 31): the state as JSON, written by compare-and-set ----------------

    async def create_tournament(self, scope: str, channel: str, organiser: str, status: str,
                                state: str, created_at: float, cap: int = 0) -> int:
        """A new tournament's row; returns its id.  With `cap`, written only while the
        scope has fewer tournaments registering or running (else `OverLimit`), checked
        and written as one step."""
        row = await self._link.fetch_within(
            [("tournaments", SQL_COUNT_TOURNAMENTS, scope, cap)], SQL_CREATE_TOURNAMENT,
            (scope, channel, organiser, status, state, created_at))
        return int(row[0])

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._link.fetch_one(SQL_TOURNAMENT, (tournament_id,))
        return TournamentRow(*row) if row else None

    async def tournaments(self, statuses: Sequence[str], scope: str | None = None
                          ) -> list[TournamentRow]:
        """The tournaments in one of `statuses` (of one scope, if given), by id."""
        where, params = self._link.where_in("status", list(statuses))
        if scope is not None:
            where, params = f"{where} AND scope = ?", [*params, scope]
        rows = await self._link.fetch(f"{SQL_TOURNAMENTS} WHERE {where} ORDER BY id", params)
        return [TournamentRow(*r) for r in rows]

    async def unplaced_tournaments(self) -> list[TournamentRow]:
        """The finished tournaments whose final places were never written (the process
        that finished one stopped before it wrote them)."""
        return [TournamentRow(*r) for r in await self._link.fetch(SQL_UNPLACED_TOURNAMENTS)]

    async def save_tournament(self, tournament_id: int, version: int, status: str,
                              state: str, outbox: Sequence[tuple[str, str, float, str]] = ()
                              ) -> bool:
        """Write the state if the row is still at `version` (then version + 1); False when
        another writer came first (read it again).  The `outbox` rows (storage/outbox.py)
        are written with the state, in its transaction, or not at all."""
        params = (status, state, tournament_id, version)
        if outbox:
            return await self._link.write_then(SQL_SAVE_TOURNAMENT, params, outbox) == 1
        return await self._link.write(SQL_SAVE_TOURNAMENT, params) == 1

    async def link_tournament_table(self, tournament_id: int, round_no: int, table_no: int,
                                    table_id: int) -> None:
        await self._link.write(SQL_LINK_TOURNAMENT_TABLE, (tournament_id, round_no, table_no,
                                                      table_id))

    async def tournament_tables(self, tournament_id: int, round_no: int) -> dict[int, int]:
        """table_no -> table id of a round's tables opened so far."""
        rows = await self._link.fetch(SQL_TOURNAMENT_TABLES, (tournament_id, round_no))
        return {int(no): int(tid) for no, tid in rows}

    async def table_tournament(self, table_id: int) -> tuple[int, int, int] | None:
        """(tournament id, round, table number) of a tournament's table, else None."""
        row = await self._link.fetch_one(SQL_TABLE_TOURNAMENT, (table_id,))
        return (int(row[0]), int(row[1]), int(row[2])) if row else None
