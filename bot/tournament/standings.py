"""Standings: points, then the format's tie-breaks, then the seed.

* Points: at a table, one per side beaten and a half per draw (1 / 0.5 / 0 at two sides;
  3 / 2 / 1 / 0 at four single seats); a bye counts as beating every side of a table; a
  no-show loses to every side that came.
* Swiss: Buchholz (the sum of the opponents' points, one term per game) then
  Sonneborn-Berger (the sum of each opponent's points times the result against them).
* Round-robin: head-to-head (points in the games among the entrants tied on points) then
  game points (the scores of the games played, forfeits excluded).
* Knockout: the rounds won (a bye is won), then game points. Arena: Sonneborn-Berger.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.tournament.model import Config, Entrant, Round, Table

TIE_BREAKS = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round-robin": ("head_to_head", "game_points"),
    "knockout": ("rounds_won", "game_points"),
    "arena": ("sonneborn_berger",),
}


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    entrant: str
    points: float
    tie_breaks: dict[str, float]
    games: int
    dropped: bool

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrant": self.entrant, "points": self.points,
                "tie_breaks": self.tie_breaks, "games": self.games, "dropped": self.dropped}


def knockout_winner(table: Table, seed: dict[str, int]) -> str | None:
    """Who goes through: the side that won; on a draw (or two no-shows) the better seed."""
    a, b = (side[0] for side in table.sides)
    if a is None or b is None:
        return a or b
    result = table.versus(0, 1)
    if result == 0.5 or (result == 0.0 and table.forfeited(1)):
        return a if seed[a] < seed[b] else b
    return a if result == 1.0 else b


def bye_points(config: Config) -> float:
    """A bye is worth beating every other side of a full table."""
    return config.per_table // config.side_size - 1


def standings(config: Config, entrants: Sequence[Entrant],
              rounds: Sequence[Round]) -> list[Standing]:
    """Everyone ranked after the results in so far (unfinished tables do not count)."""
    seed = {e.id: e.seed for e in entrants}
    points: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    game_points: dict[str, float] = defaultdict(float)
    won: dict[str, int] = defaultdict(int)
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for rnd in rounds:
        for e in rnd.byes:
            points[e] += bye_points(config)
            won[e] += 1
        for table in rnd.tables:
            if not table.done:
                continue
            assert table.scores is not None
            for e in table.entrants():
                points[e] += table.points(e)
                games[e] += 1
                met[e] += table.opponents(e)
                side = table.side_of(e)
                if not table.forfeited(side):
                    game_points[e] += table.scores[side]
            if config.format == "knockout":
                w = knockout_winner(table, seed)
                if w is not None:
                    won[w] += 1
    by_points: dict[float, set[str]] = defaultdict(set)
    for e in entrants:
        by_points[points[e.id]].add(e.id)
    rows = []
    for e in entrants:
        tied = by_points[points[e.id]]
        breaks = {
            "buchholz": sum(points[o] for o, _ in met[e.id]),
            "sonneborn_berger": sum(points[o] * r for o, r in met[e.id]),
            "head_to_head": sum(r for o, r in met[e.id] if o in tied),
            "game_points": game_points[e.id],
            "rounds_won": float(won[e.id]),
        }
        chosen = {k: breaks[k] for k in TIE_BREAKS[config.format]}
        rows.append((e, chosen))
    if config.format == "knockout":
        def key(row: tuple[Entrant, dict[str, float]]) -> tuple[float, ...]:
            e, b = row
            return (-b["rounds_won"], -b["game_points"], e.seed)
    else:
        def key(row: tuple[Entrant, dict[str, float]]) -> tuple[float, ...]:
            e, b = row
            return (-points[e.id], *(-v for v in b.values()), e.seed)
    rows.sort(key=key)
    return [Standing(i + 1, e.id, points[e.id], b, games[e.id], e.dropped is not None)
            for i, (e, b) in enumerate(rows)]
