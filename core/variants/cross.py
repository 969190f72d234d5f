"""`cross` (003, "Dominos croisés"): the spinner's four sides are filled first.

The first double (drawn for if nobody holds one) must get a tile on each of
its four sides, the players drawing as needed, before play goes on at the
four ends.  Option `set=9` with `every_double_spins` is the "double-nine
cross": every later double opens two new branches.
"""

from __future__ import annotations

from typing import Any

from ..line.cross_match import CrossMatch, CrossRules
from ..line.engine import BLOCK, UNTIL
from ..line.variant import LineVariant, default_hand
from ..options import Option
from ..scoring import MatchRules
from .classic import SCORING, TARGET


class Cross(LineVariant):
    slug = "cross"
    names = {"fr": "Dominos croisés", "en": "Cross dominoes"}
    seeds = ("003",)
    min_players, max_players, default_players = 2, 4, 2
    match_class = CrossMatch
    options = (
        Option("draw", "block", ("block", "draw"),
               help="block: once the cross is filled, pass when you cannot play; "
               "draw: draw until you can play"),
        TARGET, SCORING,
        Option("set", 6, (6, 9), kind=int, help="double-six or double-nine set"),
        Option("every_double_spins", False, kind=bool,
               help="every later double opens two new branches (the double-nine cross)"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> CrossRules:
        return CrossRules(
            set_max=o["set"], hand=default_hand(players), stock=True,
            draw=UNTIL if o["draw"] == "draw" else BLOCK, lead="highest", later_lead="highest",
            need_double=True, fill_first=True, every_double=o["every_double_spins"],
        )

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring=o["scoring"], target=o["target"])
