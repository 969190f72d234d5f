"""The tournament's data: its settings, entrants, rounds, tables and results (JSON-able)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMATS = ("swiss", "round-robin", "knockout", "arena")
TEAM_MODES = (None, "fixed", "random")


class TournamentError(ValueError):
    """Bad input to a tournament (a setting, an unknown entrant, a result out of place).

    `code` names the case for the service, which words it for the player; `values` fills it.
    """

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(f"{code}: {values}" if values else code)
        self.code = code
        self.values = values


@dataclass(frozen=True)
class Config:
    """How the tournament is run.

    `seats` is the number of seats at a table. With ``teams="fixed"`` an entrant is a pair
    of partners (two seats); with ``teams="random"`` entrants are single players and the
    partners are drawn each round (seeded by `seed`). `fill` lets computer players fill a
    table's empty seats instead of byes. `rounds` is the Swiss's number of rounds; `ends_at`
    the arena's end (seconds, on the caller's clock).
    """

    format: str = "swiss"
    seats: int = 2
    rounds: int = 0
    teams: str | None = None
    fill: bool = False
    seed: int = 0
    ends_at: float | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError("bad-format", format=self.format, formats=FORMATS)
        if self.teams not in TEAM_MODES:
            raise TournamentError("bad-teams", teams=self.teams)
        if not 2 <= self.seats <= 8 or (self.teams and (self.seats % 2 or self.seats < 4)):
            raise TournamentError("bad-seats", seats=self.seats)
        if self.format == "swiss" and not 1 <= self.rounds <= 50:
            raise TournamentError("bad-rounds", rounds=self.rounds)
        if self.teams == "random" and self.format not in ("swiss", "arena"):
            raise TournamentError("random-partners-format", format=self.format)
        if self.format in ("round-robin", "knockout") and self.per_table != 2:
            raise TournamentError("two-sides-only", format=self.format)

    @property
    def per_table(self) -> int:
        """Entrants at a full table."""
        return self.seats // 2 if self.teams == "fixed" else self.seats

    @property
    def side_size(self) -> int:
        """Entrants on one side of a table (2 when partners are drawn, else 1)."""
        return 2 if self.teams == "random" else 1

    def to_dict(self) -> dict[str, Any]:
        return {"format": self.format, "seats": self.seats, "rounds": self.rounds,
                "teams": self.teams, "fill": self.fill, "seed": self.seed,
                "ends_at": self.ends_at}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        return cls(**data)


@dataclass
class Entrant:
    """One entrant: a player, or a fixed pair (`members` holds their user ids)."""

    id: str
    members: tuple[str, ...]
    seed: int
    dropped: int | None = None  # the number of rounds paired when they left

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "members": list(self.members), "seed": self.seed,
                "dropped": self.dropped}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entrant:
        return cls(data["id"], tuple(data["members"]), data["seed"], data["dropped"])


@dataclass
class Table:
    """One table of a round: its sides (entrant ids; None is a computer seat) and result.

    `scores` holds one game score per side (higher is better), `no_shows` the entrants who
    did not come (their side loses to every side that came).
    """

    sides: list[list[str | None]]
    scores: list[float] | None = None
    no_shows: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.scores is not None

    def entrants(self) -> list[str]:
        return [e for side in self.sides for e in side if e is not None]

    def seats(self) -> list[str | None]:
        """Entrants in seat order: partners sit opposite (seat i and i + sides)."""
        return [side[k] for k in range(len(self.sides[0])) for side in self.sides]

    def side_of(self, entrant: str) -> int:
        return next(i for i, side in enumerate(self.sides) if entrant in side)

    def forfeited(self, side: int) -> bool:
        return any(e in self.no_shows for e in self.sides[side] if e is not None)

    def versus(self, i: int, j: int) -> float:
        """Side i's result against side j: 1 a win, 0.5 a draw, 0 a loss or a no-show."""
        if self.forfeited(i):
            return 0.0
        if self.forfeited(j):
            return 1.0
        assert self.scores is not None
        a, b = self.scores[i], self.scores[j]
        return 1.0 if a > b else 0.5 if a == b else 0.0

    def points(self, entrant: str) -> float:
        """Table points: the sides beaten, a draw a half."""
        i = self.side_of(entrant)
        return sum(self.versus(i, j) for j in range(len(self.sides)) if j != i)

    def opponents(self, entrant: str) -> list[tuple[str, float]]:
        """Each human opponent with this entrant's result against them."""
        i = self.side_of(entrant)
        return [(e, self.versus(i, j)) for j, side in enumerate(self.sides) if j != i
                for e in side if e is not None]

    def to_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "scores": self.scores, "no_shows": self.no_shows}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        return cls([list(s) for s in data["sides"]], data["scores"], list(data["no_shows"]))


@dataclass
class Round:
    """A round's tables and byes (in an arena, one wave of pairings)."""

    tables: list[Table]
    byes: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)

    def to_dict(self) -> dict[str, Any]:
        return {"tables": [t.to_dict() for t in self.tables], "byes": self.byes}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        return cls([Table.from_dict(t) for t in data["tables"]], list(data["byes"]))
