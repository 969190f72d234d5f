"""What the storage keeps, as rows: tables and seats, games, ratings, leaderboards, history;
and the conversions between a row and its columns, the same on both backends."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..service.ratings import ordinal

STATUSES = ("lobby", "playing", "finished", "stopped")
ACTIVE = ("lobby", "playing")


class DuplicateMove(Exception):
    """A move for a (table, turn) that already has one; nothing was changed."""


class NotFound(LookupError):
    """No such table (or seat) in the database; nothing was changed."""


class OverLimit(Exception):
    """A row not written: `count` rows of its `kind` ("host": a user's tables, "channel": a
    channel's tables, "tournaments": a server's tournaments under way) already reach the
    limit. Checked with the write, in its transaction (queries.py: `Cap`)."""

    def __init__(self, kind: str, count: int) -> None:
        super().__init__(f"{kind}: {count}")
        self.kind, self.count = kind, count


# -- rows ----------------------------------------------------------------------------------------


@dataclass
class SeatRow:
    seat: int
    user_id: str | None
    name: str
    ai: str | None = None
    misses: int = 0


@dataclass
class TableRow:
    id: int
    channel: str
    scope: str
    host: str
    variant: str
    options: dict[str, Any]
    players: int
    timer: int | None
    status: str  # "lobby" | "playing" | "finished" | "stopped"
    seed: int
    lang: str
    created_at: float
    deadline: float | None = None
    warned: bool = False
    seats: list[SeatRow] = field(default_factory=list)
    result: dict[str, Any] | None = None


@dataclass
class TournamentRow:
    """A tournament's row: `state` is JSON (bot/tournament/commands.py), `version` its
    compare-and-set counter."""

    id: int
    scope: str
    channel: str
    organiser: str
    status: str
    state: str
    version: int
    created_at: float


@dataclass
class GamePlayer:
    user_id: str
    seat: int
    won: bool
    score: int
    rank: int


@dataclass
class RatingRow:
    user_id: str
    variant: str
    scope: str
    mu: float
    sigma: float
    games: int
    wins: int
    season: str = ""  # "": the endless rating; "2026-10", "2026-Q4": a season's (seasons.py)

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass
class LeaderRow:
    user_id: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    win_rate: float
    variant: str = ""  # the variant of the rating (all games together: the user's best)


@dataclass
class StatRow:
    variant: str
    games: int
    wins: int
    win_rate: float
    mu: float
    sigma: float
    ordinal: float


@dataclass
class TournamentPlace:
    """A player's final place in a finished tournament (of `entrants` players)."""

    tournament_id: int
    place: int
    entrants: int


@dataclass
class HistoryRow:
    table_id: int
    variant: str
    finished_at: float
    seat: int
    won: bool
    score: int
    rank: int
    players: int  # seats at the table, computer seats included


# -- columns -------------------------------------------------------------------------------------

TABLE_COLUMNS = ("id", "channel", "scope", "host", "variant", "options", "players", "timer",
                 "status", "seed", "lang", "created_at", "deadline", "warned", "result")
UPDATABLE = frozenset(TABLE_COLUMNS) - {"id"}
SEAT_COLUMNS = ("table_id", "seat", "user_id", "name", "ai", "misses")
SEAT_FIELDS = frozenset({"user_id", "name", "ai", "misses"})


def to_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def from_json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def encode_column(name: str, value: Any) -> Any:
    """A TableRow (or SeatRow) field as its column holds it; an unknown status is refused."""
    if name in ("options", "result"):
        return to_json(value)
    if name == "warned":
        return int(bool(value))
    if name == "status" and value not in STATUSES:
        raise ValueError(f"unknown table status {value!r}; expected one of {STATUSES}")
    return value


def table_params(row: TableRow) -> tuple[Any, ...]:
    """The columns of a new table but its id, in TABLE_COLUMNS order."""
    return tuple(encode_column(name, getattr(row, name)) for name in TABLE_COLUMNS[1:])


def seat_params(table_id: int, seats: Iterable[SeatRow]) -> list[tuple[Any, ...]]:
    """The rows of seats, in SEAT_COLUMNS order."""
    return [(table_id, s.seat, s.user_id, s.name, s.ai, s.misses) for s in seats]


def table_row(r: Sequence[Any], seats: list[SeatRow]) -> TableRow:
    """A table from its TABLE_COLUMNS, with its seats."""
    (id_, channel, scope, host, variant, options, players, timer, status, seed, lang,
     created_at, deadline, warned, result) = r
    return TableRow(id=id_, channel=channel, scope=scope, host=host, variant=variant,
                    options=from_json(options), players=players, timer=timer, status=status,
                    seed=seed, lang=lang, created_at=created_at, deadline=deadline,
                    warned=bool(warned), seats=seats, result=from_json(result))


def seat_row(r: Sequence[Any]) -> SeatRow:
    """A seat from its SEAT_COLUMNS."""
    return SeatRow(seat=r[1], user_id=r[2], name=r[3], ai=r[4], misses=r[5])


def status_tuple(status: str | Sequence[str]) -> tuple[str, ...]:
    return (status,) if isinstance(status, str) else tuple(status)


def win_rate(wins: int, games: int) -> float:
    return wins / games if games else 0.0
