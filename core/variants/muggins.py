"""`muggins`, `threes`, `fives-and-threes`: line games that score the count of the ends.

After each tile the count of the two open ends (a double lying at an end
counts both halves; a lone opening tile counts its pips) is scored at once
by the game's rule of `core.line.end_points`: Muggins count/5 on a multiple of 5
(000, "Cinq partout"), Threes count/3 on a multiple of 3 (000, "3 partout"),
Fives and Threes one point per 5 and per 3 dividing it (003).  The first to
the target wins, in the middle of a round if need be.  The round's winner
also scores the pips left in the other hands, rounded to the nearest 5 and
divided by 5 (3 for Threes).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..line.end_points import Scorer, end_count, fives, fives_and_threes, threes
from ..line.engine import UNTIL, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant, default_hand
from ..moves import Move
from ..options import Option
from ..scoring import MatchRules, nearest


class EndCountMatch(LineMatch):
    """A line match that scores the count of the ends after every tile."""

    __slots__ = ()
    hooked = True

    def count(self) -> int:
        """The count of the open ends now (0 before the lead)."""
        if self.left < 0:
            return 0
        left_t, right_t = self.end_tiles()
        hi, lo = self.ts.hi, self.ts.lo
        if left_t == right_t:  # the opening tile alone: its pips, a double once
            return hi[left_t] + lo[left_t]
        return end_count([self.left, self.right],
                         [hi[left_t] == lo[left_t], hi[right_t] == lo[right_t]])

    def _laid(self, seat: int, move: Move) -> bool:
        count = self.count()
        points = self.variant.worth(count)  # type: ignore[attr-defined]
        if points:
            self.add_points(seat, points, f"ends {count}")
        return self.over

    def _round_bonus(self) -> None:
        """A lone round winner scores the others' pips, to the nearest unit, per unit."""
        if len(self.winners) != 1:
            return
        unit = self.variant.unit  # type: ignore[attr-defined]
        won = self.winners[0]
        pips = sum(c for s, c in enumerate(self.counts()) if s != won)
        points = nearest(pips, unit) // unit
        if points:
            self.add_points(won, points, f"pips {pips}")

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        count = self.count()
        return {"count": count, "strip_extra": f"Ends count {count}" if self.left >= 0 else ""}


def target_option(default: int, other: int) -> Option:
    return Option("target", default, tuple(sorted({default, other, 31, 50, 61, 100})),
                  kind=int, help=f"points that win the match ({default} in the rule book)")


class Muggins(LineVariant):
    slug = "muggins"
    names = {"fr": "Cinq partout (Muggins)", "en": "Muggins (fives)"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    options = (target_option(31, 61),)
    match_class = EndCountMatch
    worth: ClassVar[Scorer] = staticmethod(fives)
    unit: ClassVar[int] = 5

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=default_hand(players), draw=UNTIL)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="none", target=o["target"], mid_round=True)


class Threes(Muggins):
    slug = "threes"
    names = {"fr": "3 partout", "en": "Threes"}
    options = (target_option(50, 100),)
    worth = staticmethod(threes)
    unit = 3


class FivesAndThrees(Muggins):
    slug = "fives-and-threes"
    names = {"fr": "Tous les cinq et trois", "en": "Fives and threes"}
    seeds = ("003",)
    options = (target_option(61, 100),)
    worth = staticmethod(fives_and_threes)
    unit = 5
