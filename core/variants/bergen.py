"""`bergen` (000, "LE BERGEN GAME"): caps scored as they are made, to 15 or 10.

The lowest double (else the lightest tile) leads and scores 2.  A tile that
leaves the same value at both ends scores a "double cap" (2), or a "triple
cap" (3) when a double lies at one of them (`core.line.end_points.caps`).  A seat
that cannot play "peut piocher": it chooses between ``draw`` (one tile, played
if it fits, else it passes) and ``pass``; the last two tiles of the stock are
never drawn, and when every seat in play has passed in turn without drawing
the round is blocked as when the stock is down to those two.  Going out scores 2; a blocked round is
won by a seat holding no double (the fewest pips among them), else by the
fewest doubles, then the fewest pips in doubles, and scores 2.
"""

from __future__ import annotations

from typing import Any

from ..line.end_points import caps
from ..line.engine import ONE_TRY, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..moves import DRAW, DRAW_MOVE, PASS_MOVE, Move
from ..scoring import MatchRules
from ..tiles import iter_ids

LEAD_POINTS = 2
OUT_POINTS = 2
BLOCKED_POINTS = 2
RESERVE = 2  # "jusqu'à ce qu'il ne reste plus que 2 dominos dans la pioche"


class BergenMatch(LineMatch):
    """The line engine with Bergen's points for the lead, caps and the round's end."""

    __slots__ = ("_idle",)
    hooked = True

    _idle: int  # passes in a row by seats that chose not to draw

    def _start_round(self, hands: list[int], stock: list[int], sleeping: int,
                     leader: int | None = None, lead: str | None = None) -> None:
        """The last two tiles of the stock are put aside: they are never drawn."""
        for t in stock[-RESERVE:]:
            sleeping |= 1 << t
        self._idle = 0
        super()._start_round(hands, stock[:-RESERVE], sleeping, leader, lead)

    def _can_lay(self, seat: int) -> bool:
        return self.left < 0 or bool(self.hands[seat] & (self.vmask[self.left]
                                                          | self.vmask[self.right]))

    def _wants_turn(self, seat: int) -> bool:
        """A seat that cannot lay chooses whether to draw while the stock allows it."""
        return bool(self._stock)

    def _extra_moves(self) -> list[Move]:
        seat = self.to_move
        if seat is None or not self._stock or self._can_lay(seat):
            return []
        return [DRAW_MOVE, PASS_MOVE]

    def _play_extra(self, move: Move) -> None:
        """``draw``: one tile, kept for a play if it fits, else a pass; ``pass``: the
        turn goes on, and a whole turn of such passes blocks the round."""
        seat = self.to_move
        assert seat is not None and self._hands is not None
        if move.kind == DRAW:
            t = self._stock.pop()
            self._hands[seat] |= 1 << t
            self.events.append(("draw", seat, [t]))
            self._idle = 0
            if self._can_lay(seat):
                return  # the seat keeps the turn and lays the tile (or another)
            self.events.append(("pass", seat))
            self._advance(seat)
            return
        self.events.append(("pass", seat))
        self._idle += 1
        if self._idle >= sum(self.active):
            self._blocked()
            return
        self._advance(seat)

    def _laid(self, seat: int, move: Move) -> bool:
        self._idle = 0
        if len(self.played) == 1:
            self.add_points(seat, LEAD_POINTS, "lead")
            return self.over
        left_t, right_t = self.end_tiles()
        hi, lo = self.ts.hi, self.ts.lo
        points = caps([self.left, self.right], [hi[left_t] == lo[left_t],
                                                 hi[right_t] == lo[right_t]])
        if points:
            self.add_points(seat, points, "triple cap" if points == 3 else "double cap")
        return self.over

    def _blocked(self) -> None:
        self._finish("blocked", blocked_winners(self.ts.hi, self.ts.lo, self._hands))

    def _round_bonus(self) -> None:
        """"Domino" (going out) or winning a blocked round scores 2."""
        points = OUT_POINTS if self.reason == "out" else BLOCKED_POINTS
        for seat in list(self.winners):
            if self.add_points(seat, points, self.reason):
                return


def blocked_winners(hi: list[int], lo: list[int], hands: list[int]) -> list[int]:
    """000: the seat holding no double wins (the fewest pips if several, or if
    nobody holds one); otherwise the fewest doubles, then the fewest pips in them."""
    keys = []
    for hand in hands:
        doubles = [t for t in iter_ids(hand) if hi[t] == lo[t]]
        pips = sum(hi[t] + lo[t] for t in iter_ids(hand))
        keys.append((len(doubles), sum(2 * hi[t] for t in doubles), 0 if doubles else pips))
    best = min(keys)
    return [s for s, k in enumerate(keys) if k == best]


class Bergen(LineVariant):
    slug = "bergen"
    names = {"fr": "Le Bergen", "en": "Bergen"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    match_class = BergenMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=5 if players == 4 else 6, draw=ONE_TRY, lead="lowest",
                         later_lead="lowest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="none", target=15 if players == 2 else 10, mid_round=True)
