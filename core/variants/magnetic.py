"""`magnetic`: the classic game of the magnetic dominoes (001).

A seat that cannot play draws one tile and passes, even if it fits; over
several rounds the losers note what they hold and the lowest total wins.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import ONE_PASS, LineRules
from ..line.variant import LineVariant
from ..options import Option
from ..scoring import MatchRules
from .classic import COUNT


class Magnetic(LineVariant):
    slug = "magnetic"
    names = {"fr": "Dominos aimantés", "en": "Magnetic dominoes"}
    seeds = ("001",)
    min_players, max_players, default_players = 2, 4, 2
    options = (
        COUNT,
        Option("rounds", 1, minimum=1, maximum=20, kind=int,
               help="rounds to play; the lowest total of what is left in hand wins"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(
            hand=7 if players == 2 else 6,
            draw=ONE_PASS,
            lead="highest",
            later_lead="highest",
            count=o["count"],
        )

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        rounds = o["rounds"]
        return MatchRules(scoring="penalty", rounds=rounds if rounds > 1 else None)
