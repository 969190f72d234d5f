"""`sebastopol` (000, "SEBASTOPOL"): a draw game on a cross; 50 or more eliminates.

The first double (drawn for if nobody holds one) has four open sides at once;
a player who cannot play draws; the first out ends the round and the others
add what they hold; a total of 50 or more is out of the match; the last
player left wins.
"""

from __future__ import annotations

from typing import Any

from ..line.cross_match import CrossMatch, CrossRules
from ..line.engine import UNTIL
from ..line.variant import LineVariant
from ..scoring import MatchRules

LIMIT = 50  # 000: "Un total égal ou supérieur à 50 est éliminatoire"


class Sebastopol(LineVariant):
    slug = "sebastopol"
    names = {"fr": "Sébastopol", "en": "Sebastopol"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 3, 2
    match_class = CrossMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> CrossRules:
        return CrossRules(hand=7, stock=True, draw=UNTIL, lead="highest", later_lead="highest",
                          need_double=True)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="held", target=LIMIT, reach="loses")
