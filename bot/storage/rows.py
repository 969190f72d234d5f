"""What the storage keeps, as rows: tables and seats, games, ratings, leaderboards, history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..service.ratings import ordinal

STATUSES = ("lobby", "playing", "finished", "stopped")
ACTIVE = ("lobby", "playing")


class DuplicateMove(Exception):
    """A move for a (table, turn) that already has one; nothing was changed."""


class NotFound(LookupError):
    """No such table (or seat) in the database; nothing was changed."""


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
class HistoryRow:
    table_id: int
    variant: str
    finished_at: float
    seat: int
    won: bool
    score: int
    rank: int
    players: int  # seats at the table, computer seats included


# -- SQL: the schema -----------------------------------------------------------------------------
