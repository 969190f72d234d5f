"""`poule` (000, "LA POULE"): score the pips you lay; five rounds.

Six tiles each, the rest out of play, no drawing.  Each tile laid scores its
pips for the player who lays it (`add_points`).  A player who lays their last
tile simply stops; the round ends when nobody can play.  The player who laid
the most pips in the round wins it and also scores the pips left in the hand
of the worst player (who laid the fewest); after 5 rounds the highest total
wins the match.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import BLOCK, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..moves import Move
from ..options import Option
from ..scoring import MatchRules


class PouleMatch(LineMatch):
    """Per-play points, and a round that goes on after a player is out."""

    __slots__ = ("laid",)
    hooked = True

    laid: list[int]  # pips laid by each seat in this round

    def _reset_round(self, n: int) -> None:
        super()._reset_round(n)
        self.laid = [0] * n

    def _copied(self, new: LineMatch) -> None:
        assert isinstance(new, PouleMatch)
        new.laid = self.laid[:]

    def _laid(self, seat: int, move: Move) -> bool:
        pips = self.ts.pips[move.tid]
        self.laid[seat] += pips
        self.add_points(seat, pips, "laid")
        return False

    def _went_out(self, seat: int) -> bool:
        """Out of tiles: the seat stops playing; the round ends when nobody can play."""
        self.events.append(("out", seat))
        self.active[seat] = False
        if any(self.active):
            return False
        self._finish("out", [])
        return True

    def _finish(self, reason: str, winners: list[int]) -> None:
        best = max(self.laid)
        super()._finish(reason, [s for s in range(self.n) if self.laid[s] == best])

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        counts, laid = out["counts"], self.laid
        # most laid first; among equals, the lighter hand; the worst player is last
        out["order"] = sorted(range(self.n), key=lambda s: (-laid[s], counts[s], s))
        out["laid"] = laid[:]
        return out

    def _round_order(self, summary: dict[str, Any]) -> list[int]:
        return list(summary["order"])

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        laid = " / ".join(str(p) for p in self.laid)
        return {"laid": self.laid[:], "strip_extra": f"Laid this round: {laid}"}


class Poule(LineVariant):
    slug = "poule"
    names = {"fr": "La poule", "en": "The hen (poule)"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    options = (
        Option("rounds", 5, minimum=1, maximum=20, kind=int,
               help="rounds to play; the highest total wins"),
    )
    match_class = PouleMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=6, stock=False, draw=BLOCK, lead="heaviest", later_lead="heaviest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="worst", rounds=o["rounds"])
