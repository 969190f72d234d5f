"""`forty-two` (000, Quarante-deux) and `texas-42` (the American game): bids, trumps, tricks."""

from __future__ import annotations

from typing import Any

from ..errors import bad_option
from ..options import Option
from ..tricks.rules import TrickRules
from ..tricks.variant import TrickVariant

SPECIALS = ("nello", "sevens", "plunge", "splash", "doubles_trumps", "follow_me")


class FortyTwo(TrickVariant):
    slug = "forty-two"
    names = {"fr": "Quarante-deux", "en": "Forty-two"}
    seeds = ("000",)
    options = (
        Option("partner_master", True, kind=bool,
               help="when your partner wins the trick you need not trump (the seed's example)"),
        Option("doubles", "book", ("book", "high"),
               help="book: a double is worth its number (lowest trump at trumps 0); "
                    "high: a double tops its suit, trumps too"),
        Option("target", 200, minimum=1, maximum=10_000, kind=int,
               help="the first team to reach it wins"),
    )

    def trick_rules(self, o: dict[str, Any]) -> TrickRules:
        return TrickRules(partner_master=o["partner_master"], doubles=o["doubles"])


class Texas42(TrickVariant):
    slug = "texas-42"
    names = {"fr": "42 texan", "en": "Texas 42"}
    options = (
        Option("target", 7, minimum=1, maximum=100, kind=int,
               help="marks to win the game"),
        Option("nello", False, kind=bool,
               help="a bidder of a mark or more may call nello: lose every trick, partner out"),
        Option("nello_doubles", "high", ("high", "low", "suit", "any"),
               help="in nello the doubles are high, low, a suit of their own, or "
                    "the bidder's choice (any)"),
        Option("sevens", False, kind=bool,
               help="a bidder of a mark or more may call sevens: the tile nearest 7 pips wins"),
        Option("doubles_trumps", False, kind=bool,
               help="trumps may be the doubles (6-6 highest)"),
        Option("follow_me", False, kind=bool,
               help="trumps may be none (follow-me), doubles high or low"),
        Option("plunge", False, kind=bool,
               help="four doubles may bid a plunge: 4 marks, partner names trumps and leads"),
        Option("splash", False, kind=bool,
               help="three doubles may bid a splash: 3 marks, partner names trumps and leads"),
        Option("all_pass", "forced", ("forced", "reshake"),
               help="when all pass: the dealer must bid 30, or a new deal by the next seat"),
        Option("lay_down", False, kind=bool,
               help="the bidding team may end a hand whose result is decided"),
        Option("preset", "custom", ("custom", "straight", "specials"),
               help="straight: tournament 42, no specials; specials: every special on"),
    )

    def preset(self, options: dict[str, Any]) -> dict[str, Any]:
        """`preset=straight` refuses a special turned on; `preset=specials` turns on every
        special not given."""
        options = {str(k).replace("-", "_"): v for k, v in options.items()}
        which = str(options.get("preset", "custom")).strip().lower()
        if which == "specials":
            return {**dict.fromkeys(SPECIALS, True), **options}
        if which == "straight":
            for name in SPECIALS:
                if str(options.get(name, False)).strip().lower() not in _OFF:
                    raise bad_option("texas-42: preset=straight has no specials: drop "
                                     "{name}={value}", name=name, value=str(options[name])[:10])
        return options

    def trick_rules(self, o: dict[str, Any]) -> TrickRules:
        return TrickRules(min_bid=30, marks=True, follow="suit", partner_master=False,
                          all_pass=o["all_pass"], nello=o["nello"], sevens=o["sevens"],
                          first_bidder="dealer", nello_doubles=o["nello_doubles"],
                          doubles_trumps=o["doubles_trumps"], follow_me=o["follow_me"],
                          plunge=o["plunge"], splash=o["splash"], lay_down=o["lay_down"])


_OFF = {"false", "0", "no", "off", "non", "faux", "n"}
