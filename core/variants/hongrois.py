"""`hongrois` (000, "LES DOMINOS HONGROIS"): one turn each, as many tiles as you can.

12 tiles each at 2 players, 8 at 3, the rest out of play.  On your turn you
lay tiles as long as one fits; then the next player does the same.  Once
everybody has had one turn (or somebody is out) the round ends and each
player adds the pips left in their hand; reaching 100 loses and leaves the
match, and the others play on until one is left (`MatchRules(reach="loses")`).
"""

from __future__ import annotations

from typing import Any

from ..line.engine import BLOCK, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..moves import Move
from ..options import Option
from ..scoring import MatchRules

HAND = {2: 12, 3: 8}


class HongroisMatch(LineMatch):
    """A turn is a run of tiles; the round is one turn per player."""

    __slots__ = ("turns_done",)
    hooked = True

    turns_done: int  # seats whose turn is over in this round

    def _reset_round(self, n: int) -> None:
        super()._reset_round(n)
        self.turns_done = 0

    def _laid(self, seat: int, move: Move) -> bool:
        hands = self._hands
        assert hands is not None
        if not hands[seat]:
            return False  # out: the engine ends the round
        vmask = self.vmask
        playable = vmask[self.left] | vmask[self.right]
        if hands[seat] & playable:
            self.to_move = seat  # the turn goes on
            return True
        live = sum(self.active)
        self.turns_done += 1
        while self.turns_done < live:
            seat = seat + 1 if seat + 1 < self.n else 0
            if not self.active[seat]:
                continue
            if hands[seat] & playable:
                self.to_move = seat
                return True
            self.events.append(("pass", seat))  # an empty turn still counts
            self.turns_done += 1
        counts = self.counts()
        best = min(counts[s] for s in range(self.n) if self.active[s])
        self._finish("turns", [s for s in range(self.n) if self.active[s] and counts[s] == best])
        return True

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {"turns_done": self.turns_done}


class Hongrois(LineVariant):
    slug = "hongrois"
    names = {"fr": "Les dominos hongrois", "en": "Hungarian dominoes"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 3, 2
    options = (
        Option("target", 100, minimum=1, maximum=10_000, kind=int,
               help="the total of pips left in hand that loses and leaves the match"),
    )
    match_class = HongroisMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=HAND[players], stock=False, draw=BLOCK,
                         lead="heaviest", later_lead="heaviest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="held", target=o["target"], reach="loses")
