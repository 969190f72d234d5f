"""What a finished round scores: the contract made or failed, in points or in marks.

The seed's Quarante-deux (points): a contract made exactly scores its value;
made with more, each point over it counts double; failed, the other team
scores the contract's value.  The team that did not bid always scores what
it took.  Texas (marks): the bidders need at least their bid (a bid in
marks needs all 42 points: every trick, as do a plunge and a splash); made,
they score one mark, or the marks they bid; set, the other team scores them.
Nello (whatever the doubles): the bidder must take no trick; sevens: the
bidding team must take every trick.  A hand laid down is scored on the
tricks taken, which already decide it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .calls import MARK, NELLOS, SEVENS


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round's result: whether the contract was made, and each team's points (or marks)."""

    made: bool
    points: tuple[int, int]  # per team (0: seats 0+2, 1: seats 1+3)


def outcome(bid: int, team: int, trump: int, taken: list[int], tricks: list[int],
            holder_tricks: int, marks: bool) -> Outcome:
    """The outcome of a contract `bid` by `team` (0 or 1) with `taken` points per team,
    `tricks` per team, and the bidder's own tricks (`holder_tricks`, for nello)."""
    other = 1 - team
    if marks:
        worth = max(1, bid // MARK)
        if trump in NELLOS:
            made = holder_tricks == 0
        elif trump == SEVENS or bid >= MARK:
            made = tricks[other] == 0
        else:
            made = taken[team] >= bid
        out = [0, 0]
        out[team if made else other] = worth
        return Outcome(made, (out[0], out[1]))
    got = taken[team]
    out = [0, 0]
    if got >= bid:
        out[team] = bid + 2 * (got - bid)
    else:
        out[other] = bid
    out[other] += taken[other]
    return Outcome(got >= bid, (out[0], out[1]))
