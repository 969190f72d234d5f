"""`partnership` (003): the block game in two pairs, seats 0+2 against 1+3."""

from __future__ import annotations

from typing import Any

from ..line.engine import BLOCK, LineRules
from ..line.variant import OPENING, LineVariant, opening_rules
from ..options import Option
from ..scoring import MatchRules

TEAMS = ((0, 2), (1, 3))


class Partnership(LineVariant):
    slug = "partnership"
    names = {"fr": "Partie par équipes", "en": "Partnership block game"}
    seeds = ("003",)
    min_players, max_players, default_players = 4, 4, 4
    options = (
        Option("hand", 6, (6, 7), kind=int,
               help="6: four sleeping tiles; 7: all 28 tiles dealt"),
        Option("strict", False, kind=bool,
               help="the round ends only when both partners of a pair are out"),
        Option("scoring", "pips", ("pips", "round", "difference"),
               help="pips: winners score the opponents' pips; round: 1 point; difference: "
               "blocked rounds score the opponents' pips minus the winners'"),
        Option("target", None, minimum=1, maximum=10_000, kind=int, optional=True,
               help="match target (none: 100 with pips or difference, 1 with round)"),
        OPENING,
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        fields = {"lead": "highest", "later_lead": "highest", **opening_rules(o)}
        return LineRules(hand=o["hand"], stock=False, draw=BLOCK, teams=TEAMS,
                         strict=o["strict"], **fields)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        target = o["target"]
        if target is None:
            target = 1 if o["scoring"] == "round" else 100
        return MatchRules(scoring=o["scoring"], target=target)
