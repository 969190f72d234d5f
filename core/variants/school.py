"""`school`: the OCCE school rule sheet (002), with its "Variante" as `chain_turns`."""

from __future__ import annotations

from typing import Any

from ..line.engine import ONE_PASS, ONE_TRY, UNTIL, LineRules
from ..line.variant import LineVariant
from ..options import Option


class School(LineVariant):
    slug = "school"
    names = {"fr": "Règle de l'école (OCCE)", "en": "School rules (OCCE)"}
    seeds = ("002",)
    min_players, max_players, default_players = 2, 4, 2
    options = (
        Option("draw", "until-playable", ("until-playable", "one-and-pass"),
               help="until-playable: draw until you can play; one-and-pass: draw one and pass"),
        Option("chain_turns", False, kind=bool,
               help="the sheet's variant: lowest double leads, lay as many tiles as you can, "
               "draw one and try it"),
    )

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        if o["chain_turns"]:
            return LineRules(hand=6, draw=ONE_TRY, lead="lowest", later_lead="lowest",
                             chain_turns=True)
        return LineRules(hand=6, draw=UNTIL if o["draw"] == "until-playable" else ONE_PASS)
