"""`forty-two` (000, Quarante-deux) and `texas-42` (the American game): bids, trumps, tricks."""

from __future__ import annotations

from typing import Any

from ..options import Option
from ..tricks.rules import TrickRules
from ..tricks.variant import TrickVariant


class FortyTwo(TrickVariant):
    slug = "forty-two"
    names = {"fr": "Quarante-deux", "en": "Forty-two"}
    seeds = ("000",)
    options = (
        Option("partner_master", True, kind=bool,
               help="when your partner wins the trick you need not trump (the seed's example)"),
        Option("target", 200, minimum=1, maximum=10_000, kind=int,
               help="the first team to reach it wins"),
    )

    def trick_rules(self, o: dict[str, Any]) -> TrickRules:
        return TrickRules(partner_master=o["partner_master"])


class Texas42(TrickVariant):
    slug = "texas-42"
    names = {"fr": "42 texan", "en": "Texas 42"}
    options = (
        Option("target", 7, minimum=1, maximum=100, kind=int,
               help="marks to win the game"),
        Option("nello", False, kind=bool,
               help="a bidder of a mark or more may call nello: lose every trick, partner out"),
        Option("sevens", False, kind=bool,
               help="a bidder of a mark or more may call sevens: the tile nearest 7 pips wins"),
    )

    def trick_rules(self, o: dict[str, Any]) -> TrickRules:
        return TrickRules(min_bid=30, marks=True, follow="suit", partner_master=False,
                          all_pass="forced", nello=o["nello"], sevens=o["sevens"],
                          first_bidder="dealer")
