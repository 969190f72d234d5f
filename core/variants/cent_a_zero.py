"""`cent-a-zero` (000, "LE CENT A ZERO"): both start at 100 and count down.

The round is the general game (draw until you can play); at its end each
player's remaining pips are taken off the opponent's total, and the first at
0 or below wins.  All of it is match rules (`MatchRules`): no engine change.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import UNTIL, LineRules
from ..line.variant import LineVariant
from ..options import Option
from ..scoring import MatchRules


class CentAZero(LineVariant):
    slug = "cent-a-zero"
    names = {"fr": "Le cent à zéro", "en": "Hundred to zero"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 2, 2
    options = (
        Option("start", 100, minimum=10, maximum=1000, kind=int,
               help="each player's starting total, counted down to 0"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=7, draw=UNTIL)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="others", start=o["start"], countdown=True, target=0)
