"""Suits, trumps and the count of the double-six set, as tables the play reads.

A tile is the suit of its higher half and ranks by its other half, the double
highest.  Once trumps are named, every tile carrying the trump number is a
trump and nothing else (seven trumps), so the other suits lose a tile each.

Two readings of "following suit" exist.  The seed's Quarante-deux ("belote"
style) puts a tile in one suit only, its higher half's: with 4 led, 5-4 is a
5 and does not follow.  The Texas game lets any tile bearing the number led
follow it (with 4 led, 5-4 follows).  `Suits` holds both, per trump.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..tiles import id_halves, tile_id

TILES = tuple(range(28))  # the ids of the double-six set, 0-0 (id 0) to 6-6 (id 27)
ALL = (1 << 28) - 1
TRUMP = 7  # the suit of a trump (suits 0 to 6 are the numbers)
NO_TRUMP = -1

COUNT = {tile_id(5, 5): 10, tile_id(6, 4): 10, tile_id(5, 0): 5, tile_id(4, 1): 5,
         tile_id(3, 2): 5}  # 35 points, and 7 tricks of 1: 42
HI = [id_halves(t)[0] for t in TILES]
LO = [id_halves(t)[1] for t in TILES]


def count_of(tid: int) -> int:
    """The count points a tile carries (5-5 and 6-4: 10; 5-0, 4-1, 3-2: 5; else 0)."""
    return COUNT.get(tid, 0)


@dataclass(frozen=True, slots=True)
class Suits:
    """The suits once `trump` is named (NO_TRUMP: none) under a follow reading.

    ``members[s]`` is the mask of tiles that follow suit ``s`` (``TRUMP`` for
    trumps); ``led[t]`` the suit tile ``t`` calls for when led; ``rank[s][t]``
    how high ``t`` stands in suit ``s`` (-1 outside it; the double is 7).
    """

    trump: int
    either_half: bool  # Texas: any tile bearing the number follows (else: its higher half)
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


@cache
def suits(trump: int, either_half: bool) -> Suits:
    """The (shared) suit tables for `trump` (0-6 or NO_TRUMP)."""
    trumps = 0
    if trump != NO_TRUMP:
        for t in TILES:
            if trump in (HI[t], LO[t]):
                trumps |= 1 << t
    members = []
    rank = []
    for s in range(7):
        mask = 0
        ranks = [-1] * 28
        for t in TILES:
            if (trumps >> t) & 1:
                continue
            if HI[t] == s or (either_half and LO[t] == s):
                mask |= 1 << t
                ranks[t] = 7 if HI[t] == LO[t] else (LO[t] if HI[t] == s else HI[t])
        members.append(mask)
        rank.append(tuple(ranks))
    trump_ranks = [-1] * 28
    for t in TILES:
        if (trumps >> t) & 1:
            trump_ranks[t] = 7 if HI[t] == LO[t] else (LO[t] if HI[t] == trump else HI[t])
    members.append(trumps)
    rank.append(tuple(trump_ranks))
    led = tuple(TRUMP if (trumps >> t) & 1 else HI[t] for t in TILES)
    order = tuple(-(led[t] * 8 + rank[led[t]][t]) for t in TILES)
    return Suits(trump, either_half, tuple(members), led, tuple(rank), order)


def sevens_distance(tid: int) -> int:
    """How far a tile's pips are from 7 (the "sevens" contract: nearest wins)."""
    return abs(HI[tid] + LO[tid] - 7)
