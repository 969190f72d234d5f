"""Round scoring and match standing, shared by every line game.

A round's outcome (`LineRound.summary`) is turned into points for each
scorer (a seat, or a team) by one of the scoring rules of the rule books:

* ``pips`` - each round winner scores what the losers hold (pips or tiles);
* ``round`` - each round winner scores one point;
* ``difference`` - as ``pips`` when a player went out; in a blocked round the
  winners score the losers' count minus their own (003, "match nul");
* ``penalty`` - each loser scores what they hold, the winner nothing; the
  lowest total wins the match (001's "plusieurs parties").

A round that every scorer ties scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How rounds are scored and when a match ends."""

    scoring: str = "pips"  # pips | round | difference | penalty
    target: int | None = None  # a scorer reaching it ends the match
    rounds: int | None = None  # a fixed number of rounds (penalty games)

    @property
    def lowest_wins(self) -> bool:
        return self.scoring == "penalty"

    @property
    def single_round(self) -> bool:
        return self.target is None and self.rounds is None


def units(n: int, teams: tuple[tuple[int, ...], ...] | None) -> list[tuple[int, ...]]:
    """The scorers: one tuple of seats each (a team, or a lone seat)."""
    return list(teams) if teams else [(s,) for s in range(n)]


def round_points(reason: str, winners: list[int], counts: list[int], rules: MatchRules,
                 scorers: list[tuple[int, ...]]) -> list[int]:
    """Points each scorer earns for one finished round (run once a round: kept lean)."""
    held = []
    won = []
    lost = 0  # what the losing scorers hold, and how many they are
    losers = 0
    for unit in scorers:
        total = 0
        w = False
        for s in unit:
            total += counts[s]
            if s in winners:
                w = True
        held.append(total)
        won.append(w)
        if not w:
            lost += total
            losers += 1
    if not losers:  # every scorer won: a tie
        return [0] * len(scorers)
    how = rules.scoring
    if how == "pips" or (how == "difference" and reason != "blocked"):
        return list(map(lost.__mul__, won))  # lost for a winner, 0 for a loser
    if how == "round":
        return list(map(int, won))
    if how == "penalty":
        return [0 if w else h for h, w in zip(held, won, strict=True)]
    return [max(0, lost - h * losers) if w else 0 for h, w in zip(held, won, strict=True)]


def match_over(totals: list[int], rounds_played: int, rules: MatchRules) -> bool:
    if rules.single_round:
        return True
    if rules.rounds is not None and rounds_played >= rules.rounds:
        return True
    return rules.target is not None and max(totals) >= rules.target


def best_scorers(totals: list[int], rules: MatchRules) -> list[int]:
    """Indexes of the scorers with the best total (every tied one)."""
    best = min(totals) if rules.lowest_wins else max(totals)
    return [i for i, t in enumerate(totals) if t == best]


def ranking(totals_by_seat: list[int], last_order: list[int], rules: MatchRules) -> list[int]:
    """Seats best first: by match total, then by the last round's order."""
    place = {s: i for i, s in enumerate(last_order)}
    sign = 1 if rules.lowest_wins else -1
    return sorted(range(len(totals_by_seat)), key=lambda s: (sign * totals_by_seat[s], place[s]))


def round_order(summary: dict[str, Any]) -> list[int]:
    """Seats best first in a finished round: winners, then by what they hold
    (a team by its total); eliminated seats last, the last one out first."""
    counts = summary["counts"]
    winners = summary["winners"]
    n = len(counts)
    eliminated = summary["eliminated"]
    if eliminated:
        rest = [s for s in range(n) if s not in winners and s not in eliminated]
        return [*winners, *rest, *eliminated[::-1]]
    key = counts
    teams = summary["teams"]
    if teams:
        totals = {s: sum(counts[m] for m in team) for team in teams for s in team}
        key = [totals[s] for s in range(n)]
    return [*winners, *sorted((s for s in range(n) if s not in winners),
                              key=lambda s: (key[s], s))]
