"""`classic` and `tete-a-tete`: the general rule of 000 ("LE JEU DE DOMINOS").

Draw ("en piochant") or block ("en boudant"); first out wins, a blocked line
is won by the lowest count; optional match to a target with 003's scorings.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import BLOCK, UNTIL, LineRules
from ..line.variant import OPENING, LineVariant, default_hand, opening_rules
from ..options import Option
from ..scoring import MatchRules

DRAW = Option("draw", "draw", ("draw", "block"),
              help="draw: draw until you can play; block: pass when you cannot play")
COUNT = Option("count", "pips", ("pips", "tiles"),
               help="what decides a blocked game: pips in hand, or tiles in hand")
TARGET = Option("target", None, minimum=1, maximum=10_000, kind=int, optional=True,
                help="play rounds until someone reaches this score (none: one round)")
SCORING = Option("scoring", "pips", ("pips", "round"),
                 help="pips: the round winner scores the losers' pips; round: 1 point a round")


class Classic(LineVariant):
    slug = "classic"
    names = {"fr": "Jeu de dominos classique", "en": "Classic dominoes"}
    seeds = ("000", "003")
    min_players, max_players, default_players = 2, 5, 2
    options = (
        DRAW, COUNT, TARGET, SCORING, OPENING,
        Option("set", 6, (6, 9, 12), kind=int, help="double-six, double-nine or double-twelve"),
        Option("hand", None, minimum=1, maximum=45, kind=int, optional=True,
               help="tiles dealt to each player (none: 7 at 2-3 players, 6 at 4, 5 at 5)"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        drawing = o["draw"] == "draw"
        return LineRules(
            set_max=o.get("set", 6),
            hand=o.get("hand") or default_hand(players),
            stock=drawing,
            draw=UNTIL if drawing else BLOCK,
            count=o["count"],
            **{"later_lead": "rotate", **opening_rules(o)},
        )

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring=o["scoring"], target=o["target"])


class TeteATete(Classic):
    slug = "tete-a-tete"
    names = {"fr": "En tête à tête", "en": "Head to head"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 2, 2
    options = (DRAW, COUNT, TARGET, SCORING, OPENING)
