"""A table as the service holds it: the stored row, the live game, and helpers
to rebuild a game from its move log and to rank a finished game's seats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core import IllegalMove, variants
from core.ai import Player, make_player
from core.errors import bad_option

from ..storage import SeatRow, TableRow


@dataclass
class Table:
    """A table in memory; `row` mirrors the database, `game` is the live match."""

    row: TableRow
    game: Any = None  # a core match while playing
    ai_due: float | None = None
    stop_votes: set[str] = field(default_factory=set)
    bots: dict[int, Player] = field(default_factory=dict)
    leavers: set[str] = field(default_factory=set)  # users who left the game under way
    reserved: dict[int, list[str]] = field(default_factory=dict)  # rematch: seat -> [id, name]
    active_at: float | None = None  # when the game last moved (or started), if known
    reminded: int | None = None  # the turn whose player had the half-time reminder

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def lang(self) -> str:
        return self.row.lang

    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]

    def seat_of(self, user_id: str) -> int | None:
        for s in self.row.seats:
            if s.user_id == user_id and s.ai is None:
                return s.seat
        return None

    def humans(self) -> list[SeatRow]:
        return [s for s in self.row.seats if s.user_id is not None and s.ai is None]

    def open_seats(self) -> list[SeatRow]:
        return [s for s in self.row.seats if s.user_id is None and s.ai is None]

    def computers(self) -> list[SeatRow]:
        return [s for s in self.row.seats if s.ai is not None]

    def is_ai(self, seat: int) -> bool:
        return self.row.seats[seat].ai is not None

    def bot(self, seat: int) -> Player:
        """The computer player of a seat (also used to play for an absent human)."""
        if seat not in self.bots:
            kind = self.row.seats[seat].ai or "greedy"
            self.bots[seat] = make_player(kind, self.row.seed * 31 + seat)
        return self.bots[seat]


# Table options the service keeps for itself (the core never sees them): one-seat helpers
# (bot/service/families.py) and hints (bot/service/assist.py).
SERVICE_OPTIONS = ("helpers", "hints")


ON = frozenset({"on", "yes", "true", "1", "oui"})
OFF = frozenset({"off", "no", "false", "0", "non"})


def pop_switch(opts: dict[str, Any], name: str) -> bool | None:
    """Take the on/off option `name` out of `opts`: True, False, or None when absent; an
    `OptionError` for any other value."""
    if name not in opts:
        return None
    value = str(opts.pop(name)).strip().lower()
    if value not in ON | OFF:
        raise bad_option("{name} must be on or off", name=name)
    return value in ON


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """A table's options without the service's own: what the core's `new` takes."""
    return {k: v for k, v in options.items() if k not in SERVICE_OPTIONS}


def new_game(row: TableRow) -> Any:
    """A fresh match for a table's variant, seats, seed and options."""
    return variants.get(row.variant).new(players=row.players, seed=row.seed,
                                         **game_options(row.options))


def rebuild(row: TableRow, moves: list[str]) -> Any:
    """The table's match after replaying its stored moves."""
    game = new_game(row)
    for i, text in enumerate(moves):
        try:
            game.play(game.parse_move(text))
        except IllegalMove as exc:
            raise IllegalMove(f"table {row.id}: stored move {i} ({text!r}): {exc}") from None
    return game


def seat_ranks(result: dict[str, Any]) -> list[int]:
    """Rank per seat (1 = best; equal scores share a rank; winners are rank 1)."""
    ranking = result["ranking"]
    scores = result["scores"]
    winners = set(result["winners"])
    ranks = [0] * len(scores)
    rank = 1
    previous: int | None = None
    for place, seat in enumerate(ranking, 1):
        if seat in winners:
            ranks[seat] = 1
            continue
        if previous is None or scores[seat] != previous:
            rank = max(place, 2)
        ranks[seat] = rank
        previous = scores[seat]
    return ranks


def final_ranks(result: dict[str, Any], left: set[int]) -> list[int]:
    """Rank per seat once those who left the game under way (`left`: their seats) are put
    last, tied: one more than the seats ranked strictly better, so that a 2-seat game's
    leaver is second, not third, and the order the ratings see is unchanged."""
    key = [(1, 0) if seat in left else (0, rank) for seat, rank in enumerate(seat_ranks(result))]
    return [1 + sum(other < mine for other in key) for mine in key]


def team_index(result: dict[str, Any], seat: int) -> int:
    teams = result.get("teams")
    if not teams:
        return seat
    return next(i for i, team in enumerate(teams) if seat in team)
