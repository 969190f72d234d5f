"""`all-fives` (003, "Tous les cinq"): score the count of the ends when it is a multiple of 5.

The first double is a spinner (four ends once both its sides hold a tile);
going out scores what each other player holds, each rounded to 5, added; to 100 (option 61).
Option `muggins_claim`: the points of a play must be claimed ("claim"), else
the next player may take them ("muggins").
"""

from __future__ import annotations

from typing import Any

from ..line.cross_match import CrossMatch, CrossRules
from ..line.engine import BLOCK, UNTIL
from ..line.variant import LineVariant, default_hand
from ..options import Option
from ..scoring import MatchRules
from .classic import DRAW


class AllFives(LineVariant):
    slug = "all-fives"
    names = {"fr": "Tous les cinq", "en": "All Fives"}
    seeds = ("003",)
    min_players, max_players, default_players = 2, 4, 2
    match_class = CrossMatch
    options = (
        Option("target", 100, minimum=1, maximum=10_000, kind=int,
               help="the score that wins the match (the book: 100; some play to 61)"),
        DRAW,
        Option("muggins_claim", False, kind=bool,
               help="points must be claimed after the play, else the next player may take "
               "them by saying muggins"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> CrossRules:
        drawing = o["draw"] == "draw"
        return CrossRules(
            hand=default_hand(players), stock=drawing, draw=UNTIL if drawing else BLOCK,
            lead="highest", later_lead="rotate", sides_first=True, end_score="all-fives",
            claim=o["muggins_claim"],
        )

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        # going out: each other's pips; blocked: what each holds beyond the winner;
        # each of those rounded to 5, then added up (003)
        return MatchRules(scoring="difference", round_to=5, target=o["target"], mid_round=True)
