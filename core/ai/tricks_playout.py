"""The trick searchers' playout steps on a light copy of a round: `scratch` copies it,
`place` and `unplace` lay and take back a tile, `value_of` scores the played-out round for
a team.  Below `tricks_search` (the imagined deals) and `tricks_endgame` (the exact last
tricks), which both play on them."""

from __future__ import annotations

from typing import Any

from ..tricks.calls import MARK
from ..tricks.contract import outcome
from ..tricks.match import TrickMatch
from ..tricks.suits import count_of

TIE_BREAK = 0.01  # texas-42: a point taken is worth this much of a mark


def scratch(world: TrickMatch) -> TrickMatch:
    """A light copy of a round in play for a playout: its own hands, trick and counts (the
    playout touches nothing else)."""
    g = world._shallow_copy()
    g.hands = world.hands[:]
    g.trick = world.trick[:]
    g.taken = world.taken[:]
    g.won = world.won[:]
    return g


Taken = tuple[list[tuple[int, int]], int, int]  # a trick taken: its plays, winner, points


def place(g: TrickMatch, seat: int, tid: int) -> Taken | None:
    """Lay tile `tid` from `seat`'s hand on a playout's trick; a full trick is taken (its
    point and count to the winner's team) and its winner leads; it is returned, for
    `unplace`.  No round end: the playout scores the contract itself (`value_of`)."""
    g.hands[seat] &= ~(1 << tid)
    trick = g.trick
    trick.append((seat, tid))
    if len(trick) < g._seats_in_play():
        g.to_move = g._next_seat(seat)
        return None
    win = g.winning()
    assert win is not None
    winner = win[0]
    points = 1 + sum(count_of(t) for _, t in trick)
    g.taken[winner % 2] += points
    g.won[winner] += 1
    g.trick = []
    g.to_move = winner
    return trick, winner, points


def unplace(g: TrickMatch, seat: int, tid: int, taken: Taken | None) -> None:
    """Take back `place(g, seat, tid)`, which returned `taken`."""
    if taken is not None:
        trick, winner, points = taken
        g.taken[winner % 2] -= points
        g.won[winner] -= 1
        g.trick = trick
    g.trick.pop()
    g.hands[seat] |= 1 << tid
    g.to_move = seat


def outcome_of(g: TrickMatch) -> Any:
    holder = g.holder
    assert holder is not None
    tricks = [g.won[0] + g.won[2], g.won[1] + g.won[3]]
    return outcome(g.high, holder % 2, g.trump, g.taken, tricks, g.won[holder], g.rules.marks)


def value_of(g: TrickMatch, team: int) -> float:
    """What a played-out round is worth to `team`: its score minus the other team's, in
    points (forty-two) or marks (texas-42, with the points taken breaking ties)."""
    points = outcome_of(g).points
    value = float(points[team] - points[1 - team])
    if g.rules.marks:
        value += TIE_BREAK * (g.taken[team] - g.taken[1 - team]) / MARK
    return value
