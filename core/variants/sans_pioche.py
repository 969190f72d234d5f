"""`sans-pioche` (000): no stock; a seat that cannot play is eliminated."""

from __future__ import annotations

from typing import Any

from ..line.engine import BLOCK, LineRules
from ..line.variant import LineVariant
from ..scoring import MatchRules

HAND = {2: 12, 3: 8, 4: 6, 5: 5}


class SansPioche(LineVariant):
    slug = "sans-pioche"
    names = {"fr": "Sans pioche", "en": "No drawing (elimination)"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 5, 3

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=HAND[players], stock=False, draw=BLOCK, eliminate=True)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="round")
