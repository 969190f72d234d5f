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
    (Texas); else the seed's points.  ``all_pass``: "redeal" (the seed's game)
    or "forced" (the dealer must bid when the three others passed).
    """

    min_bid: int = 25
    marks: bool = False
    follow: str = "belote"
    partner_master: bool = True
    all_pass: str = "redeal"
    nello: bool = False
    sevens: bool = False
    first_bidder: str = "0-1"  # "0-1": the holder of 0-1 speaks first; "dealer": left of dealer
    teams: tuple[tuple[int, ...], ...] = TEAMS

    @property
    def tiles(self) -> TileSet:
        return tile_set(6)

    @property
    def either_half(self) -> bool:
        """Whether any tile bearing the number led follows it (Texas)."""
        return self.follow == "suit"
