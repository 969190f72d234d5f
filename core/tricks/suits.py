"""Suits, trumps and the count of the double-six set, as tables the play reads.

A tile is the suit of its higher half and ranks by its other half.  Once trumps are named,
every tile carrying the trump number is a trump and nothing else (seven trumps), so the
other suits lose a tile each.

Two readings of "following suit" exist.  The seed's Quarante-deux ("belote" style) puts a
tile in one suit only, its higher half's: with 4 led, 5-4 is a 5 and does not follow.  The
Texas game lets any tile bearing the number led follow it (with 4 led, 5-4 follows).

Where the doubles stand (``doubles``): "book", the seed's words ("la valeur de chaque domino
est donnée par le nombre de points indiqué sur l'autre demi-face"): a double is worth its
number, so it tops a plain suit but sits among the trumps by its number (trumps 3: 6-3, 5-3,
4-3, then 3-3; trumps 0: 0-0 is the lowest); "high": the double tops its suit, trumps too
(the American game); "low": the double is the lowest of its suit (follow-me, nello); "suit":
the doubles are a suit of their own (`DOUBLES_SUIT`, 6-6 highest; nello).  Trumps
`DOUBLE_TRUMPS` make the seven doubles the trump suit (6-6 highest).  `Suits` holds it all,
per trump.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..tiles import id_halves, tile_id

TILES = tuple(range(28))  # the ids of the double-six set, 0-0 (id 0) to 6-6 (id 27)
ALL = (1 << 28) - 1
TRUMP = 7  # the suit of a trump (suits 0 to 6 are the numbers)
DOUBLES_SUIT = 8  # the doubles as a suit of their own (nello's "doubles a suit")
NO_TRUMP = -1
DOUBLE_TRUMPS = -2  # the doubles are the trumps
OUT = -9  # the rank of a tile outside a suit
DOUBLES_MODES = ("book", "high", "low", "suit")

COUNT = {tile_id(5, 5): 10, tile_id(6, 4): 10, tile_id(5, 0): 5, tile_id(4, 1): 5,
         tile_id(3, 2): 5}  # 35 points, and 7 tricks of 1: 42
HI = [id_halves(t)[0] for t in TILES]
LO = [id_halves(t)[1] for t in TILES]
DOUBLES = sum(1 << t for t in TILES if HI[t] == LO[t])


def count_of(tid: int) -> int:
    """The count points a tile carries (5-5 and 6-4: 10; 5-0, 4-1, 3-2: 5; else 0)."""
    return COUNT.get(tid, 0)


def doubles_in(mask: int) -> int:
    """How many doubles the tiles of `mask` hold."""
    return (mask & DOUBLES).bit_count()


@dataclass(frozen=True, slots=True)
class Suits:
    """The suits once `trump` is named (NO_TRUMP: none; DOUBLE_TRUMPS: the doubles) under a
    follow reading and a place of the doubles.

    ``members[s]`` is the mask of tiles that follow suit ``s`` (``TRUMP`` for trumps,
    ``DOUBLES_SUIT`` for the doubles as a suit); ``led[t]`` the suit tile ``t`` calls for when
    led; ``rank[s][t]`` how high ``t`` stands in suit ``s`` (`OUT` outside it; a high double
    is 7, a low one -1).
    """

    trump: int
    either_half: bool  # Texas: any tile bearing the number follows (else: its higher half)
    doubles: str
    members: tuple[int, ...]
    led: tuple[int, ...]
    rank: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]  # sort key of a hand: trumps first, then suits 6 to 0, high first

    @property
    def trumps(self) -> int:
        return self.members[TRUMP]

    def is_trump(self, tid: int) -> bool:
        return bool((self.members[TRUMP] >> tid) & 1)

    def suit_of(self, tid: int) -> int:
        """The suit a tile belongs to in a hand (its higher half's, or trumps)."""
        return self.led[tid]


def _rank_in(s: int, t: int, doubles: str) -> int:
    """The rank of tile `t` in number suit `s` (which it bears)."""
    if HI[t] != LO[t]:
        return LO[t] if HI[t] == s else HI[t]
    return {"high": 7, "low": -1, "book": s}[doubles]


@cache
def suits(trump: int, either_half: bool, doubles: str = "high") -> Suits:
    """The (shared) suit tables for `trump` (0-6, NO_TRUMP or DOUBLE_TRUMPS) with the
    doubles placed as `doubles` says (one of `DOUBLES_MODES`)."""
    apart = DOUBLES if trump == DOUBLE_TRUMPS or doubles == "suit" else 0
    trumps = 0
    if trump == DOUBLE_TRUMPS:
        trumps = DOUBLES
    elif trump != NO_TRUMP:
        trumps = sum(1 << t for t in TILES if trump in (HI[t], LO[t]))
    members = []
    rank = []
    for s in range(7):
        mask = 0
        ranks = [OUT] * 28
        for t in TILES:
            if ((trumps | apart) >> t) & 1:
                continue
            if HI[t] == s or (either_half and LO[t] == s):
                mask |= 1 << t
                ranks[t] = _rank_in(s, t, doubles)
        members.append(mask)
        rank.append(tuple(ranks))
    trump_ranks = [OUT] * 28
    for t in TILES:
        if (trumps >> t) & 1:
            trump_ranks[t] = HI[t] if trump == DOUBLE_TRUMPS else _rank_in(trump, t, doubles)
    members.append(trumps)
    rank.append(tuple(trump_ranks))
    own = DOUBLES if doubles == "suit" and trump != DOUBLE_TRUMPS else 0
    members.append(own)
    rank.append(tuple(HI[t] if (own >> t) & 1 else OUT for t in TILES))
    led = tuple(TRUMP if (trumps >> t) & 1 else DOUBLES_SUIT if (own >> t) & 1 else HI[t]
                for t in TILES)
    order = tuple(-(led[t] * 9 + rank[led[t]][t]) for t in TILES)
    return Suits(trump, either_half, doubles, tuple(members), led, tuple(rank), order)


def sevens_distance(tid: int) -> int:
    """How far a tile's pips are from 7 (the "sevens" contract: nearest wins)."""
    return abs(HI[tid] + LO[tid] - 7)
