"""Round scoring and match standing, shared by every game with rounds.

A round's outcome (`LineRound.summary`) is turned into points for each
scorer (a seat, or a team) by one of the scoring rules of the rule books:

* ``pips`` - each round winner scores what the losers hold (pips or tiles);
* ``round`` - each round winner scores one point;
* ``difference`` - as ``pips`` when a player went out; in a blocked round the
  winners score the losers' count minus their own (003, "match nul");
* ``penalty`` - each loser scores what they hold, the winner nothing; the
  lowest total wins the match (001's "plusieurs parties");
* ``held`` - every scorer, winner or not, scores what it holds (k, hongrois,
  sebastopol: the lowest total wins);
* ``others`` - every scorer scores what the other scorers hold (cent-a-zero);
* ``worst`` - each round winner scores what the worst scorer holds (poule);
* ``kept`` - each round winner scores what it holds itself (qui-perd-gagne);
* ``none`` - nothing at the round's end (the points come during play, see
  `MatchBase.add_points`).

A round that every scorer ties scores nothing (``pips`` to ``kept``).

How a match ends (`MatchRules`): the first to reach ``target`` wins
(``reach="wins"``), or reaching it loses and leaves the match while the
others play on until one is left (``reach="loses"``); with ``countdown`` the
totals start at ``start`` and points are taken off, reaching ``target`` from
above; ``rounds`` fixes the number of rounds; ``mid_round`` lets points
scored during play end the match at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How rounds are scored and when a match ends."""

    scoring: str = "pips"  # pips|round|difference|penalty|held|others|worst|kept|none
    target: int | None = None  # a scorer reaching it ends the match (or leaves it)
    rounds: int | None = None  # a fixed number of rounds (penalty games)
    start: int = 0  # every scorer's total before the first round
    countdown: bool = False  # points are taken off the total; reaching the target wins
    reach: str = "wins"  # wins | loses: reaching the target loses and leaves the match
    mid_round: bool = False  # points scored during play that reach the target end the match
    round_to: int = 1  # each loser's ``pips``/``difference`` rounded to the nearest multiple

    @property
    def lowest_wins(self) -> bool:
        return self.scoring in ("penalty", "held") or self.countdown or self.reach == "loses"

    def reached(self, total: int) -> bool:
        """Whether a scorer's total has reached the target."""
        if self.target is None:
            return False
        return total <= self.target if self.countdown else total >= self.target

    @property
    def single_round(self) -> bool:
        return self.target is None and self.rounds is None


def units(n: int, teams: tuple[tuple[int, ...], ...] | None) -> list[tuple[int, ...]]:
    """The scorers: one tuple of seats each (a team, or a lone seat)."""
    return list(teams) if teams else [(s,) for s in range(n)]


def round_points(reason: str, winners: list[int], counts: list[int], rules: MatchRules,
                 scorers: list[tuple[int, ...]], worst: int | None = None) -> list[int]:
    """Points each scorer earns for one finished round (run once a round: kept lean);
    `worst` is the worst scorer's index, for ``worst`` scoring."""
    how = rules.scoring
    if how == "pips" and rules.round_to == 1:  # the common case, written out
        won = []  # 1 for a scorer with a winner, else 0
        lost = 0  # what the losing scorers hold
        for unit in scorers:
            for s in unit:
                if s in winners:
                    won.append(1)
                    break
            else:
                won.append(0)
                for s in unit:
                    lost += counts[s]
        return list(map(lost.__mul__, won))  # a tie (nobody lost) scores 0 everywhere
    if how in ("held", "others", "none"):
        held = [sum(counts[s] for s in unit) for unit in scorers]
        if how == "held":
            return held
        if how == "others":
            everyone = sum(held)
            return [everyone - h for h in held]
        return [0] * len(held)
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
    step = rules.round_to
    if how == "pips" or (how == "difference" and reason != "blocked"):
        if step > 1:  # 003: each loser's count is rounded on its own, then they are added
            lost = sum(nearest(h, step) for h, w in zip(held, won, strict=True) if not w)
        return list(map(lost.__mul__, won))  # lost for a winner, 0 for a loser
    if how == "round":
        return list(map(int, won))
    if how == "penalty":
        return [0 if w else h for h, w in zip(held, won, strict=True)]
    if how == "worst":
        bonus = 0 if worst is None else held[worst]
        return [bonus if w else 0 for w in won]
    if how == "kept":
        return [h if w else 0 for h, w in zip(held, won, strict=True)]
    if step > 1:  # each loser's difference rounded on its own, then added (003)
        beaten = [h for h, w in zip(held, won, strict=True) if not w]
        return [sum(nearest(max(0, b - h), step) for b in beaten) if w else 0
                for h, w in zip(held, won, strict=True)]
    return [max(0, lost - h * losers) if w else 0 for h, w in zip(held, won, strict=True)]


def nearest(points: int, step: int) -> int:
    """`points` rounded to the nearest multiple of `step`, halves up: to 5, 12 gives 10
    and 13 gives 15 (whole pips never fall half-way between two multiples of 5)."""
    return (points + step // 2) // step * step if step > 1 else points


def match_over(totals: list[int], rounds_played: int, rules: MatchRules,
               live: list[int] | None = None) -> bool:
    """Whether the match is over after a round; `live` are the indexes of the
    scorers still in it (``reach="loses"``; default: all of them)."""
    target = rules.target
    if target is not None and rules.reach == "wins" and rules.rounds is None:  # the common case
        return min(totals) <= target if rules.countdown else max(totals) >= target
    if rules.single_round:
        return True
    if rules.rounds is not None and rounds_played >= rules.rounds:
        return True
    if rules.reach == "loses":
        live = list(range(len(totals))) if live is None else live
        return len(live) <= 1 or all(rules.reached(totals[i]) for i in live)
    if rules.target is None:
        return False
    return min(totals) <= rules.target if rules.countdown else max(totals) >= rules.target


def leaving(totals: list[int], live: list[int], rules: MatchRules) -> list[int]:
    """``reach="loses"``: the live scorers that reached the target and leave the
    match, worst first; when all of them reached it, the lowest total stays."""
    crossed = [i for i in live if rules.reached(totals[i])]
    if crossed and len(crossed) == len(live):
        low = min(totals[i] for i in crossed)
        crossed = [i for i in crossed if totals[i] != low]
    return sorted(crossed, key=lambda i: (-totals[i], i))


def best_scorers(totals: list[int], rules: MatchRules, live: list[int] | None = None
                 ) -> list[int]:
    """Indexes of the scorers with the best total (every tied one), among `live`."""
    among = range(len(totals)) if live is None else live
    pick = min if rules.lowest_wins else max
    best = pick(totals[i] for i in among)
    return [i for i in among if totals[i] == best]


def ranking(totals_by_seat: list[int], last_order: list[int], rules: MatchRules,
            gone: list[int] | None = None) -> list[int]:
    """Seats best first: by match total, then by the last round's order; seats
    that left the match (`gone`, in the order they left) come last, the last
    one to leave first."""
    place = {s: i for i, s in enumerate(last_order)}
    sign = 1 if rules.lowest_wins else -1
    out = set(gone or ())
    live = sorted((s for s in range(len(totals_by_seat)) if s not in out),
                  key=lambda s: (sign * totals_by_seat[s], place[s]))
    return [*live, *(gone or [])[::-1]]


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
