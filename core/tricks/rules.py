"""`TrickRules`: how a trick-taking variant bids, follows, scores and ends."""

from __future__ import annotations

from dataclasses import dataclass

from ..tiles import TileSet, tile_set

TEAMS = ((0, 2), (1, 3))  # partners face each other


@dataclass(frozen=True, slots=True)
class TrickRules:
    """The rules of a round; the variant builds them from its options.

    ``follow`` is "belote" (the seed: follow, else trump, overtrumping a trump
    already in the trick; a tile is the suit of its higher half only) or
    "suit" (Texas: follow the number led with any tile bearing it, else play
    anything).  ``marks``: bids past 41 are marks of 42 and rounds score marks
    (Texas); else the seed's points.  ``all_pass``: "redeal" (the seed's game),
    "forced" (the dealer must bid when the three others passed) or "reshake" (Texas: a new
    deal, the next seat dealing).  ``doubles``: where a double stands in a number suit and
    in trumps (`core.tricks.suits`: "book", the seed's; "high").  The Texas specials:
    ``doubles_trumps`` (trumps "doubles"), ``follow_me`` (no trumps, doubles high or low),
    ``nello`` with ``nello_doubles`` ("high", "low", "suit", or "any": the bidder's
    choice), ``sevens``, ``plunge`` and ``splash`` (bids of a hand of four or three
    doubles: the partner names trumps and leads, every trick needed) and ``lay_down`` (the
    bidding team may end a hand whose result is decided).
    """

    min_bid: int = 25
    marks: bool = False
    follow: str = "belote"
    partner_master: bool = True
    all_pass: str = "redeal"
    nello: bool = False
    sevens: bool = False
    doubles: str = "high"
    doubles_trumps: bool = False
    follow_me: bool = False
    nello_doubles: str = "high"
    plunge: bool = False
    splash: bool = False
    lay_down: bool = False
    first_bidder: str = "0-1"  # "0-1": the holder of 0-1 speaks first; "dealer": left of dealer
    teams: tuple[tuple[int, ...], ...] = TEAMS

    @property
    def tiles(self) -> TileSet:
        return tile_set(6)

    @property
    def either_half(self) -> bool:
        """Whether any tile bearing the number led follows it (Texas)."""
        return self.follow == "suit"
