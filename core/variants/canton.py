"""`canton` (000, "CANTON"): a line game with captures, in several rounds to 300.

7 tiles each at 2 players, 6 at 3, 5 at 4; the general rule's leading and
drawing; the captures and the long-side line are `core.canton.CantonMatch`.
Going out scores the pips left in the other hands (the ``pips`` scoring).
"""

from __future__ import annotations

from typing import Any

from ..line.canton import CantonMatch
from ..line.engine import UNTIL, LineRules
from ..line.variant import LineVariant
from ..options import Option
from ..scoring import MatchRules

HAND = {2: 7, 3: 6, 4: 5}
TARGET = Option("target", 300, minimum=1, maximum=10_000, kind=int,
                help="the first to reach this score wins the match")


class Canton(LineVariant):
    slug = "canton"
    names = {"fr": "Canton", "en": "Canton"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    options = (TARGET,)
    match_class = CantonMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=HAND[players], stock=True, draw=UNTIL, later_lead="rotate")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="pips", target=o["target"], mid_round=True)
