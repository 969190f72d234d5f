"""What the public record of a round tells of the hands: the tiles each seat cannot hold.

A seat that did not follow suit showed it holds none of that suit under the trumps in
force (nor, in the seed's game, a trump when it had to trump, nor a higher trump when it
had to overtrump; nor, under sevens, a tile nearer 7).  The rules have one home,
`TrickMatch.playable`: a play of tile ``t`` rules out tile ``u`` when, with the trick as it
stood, ``t`` would not be playable from a hand of ``t`` and ``u``.  This reading holds
because every rule of play is a ladder (follow, else overtrump, else trump, else anything;
or: nearest 7 first): a tile is playable from a hand exactly when no other tile of that
hand stands on a higher rung, which a pair shows.

`deal_unseen` then deals the unseen tiles again at random under those constraints (exactly:
each tile goes to a seat that may hold it, and the deal can always be completed).
"""

from __future__ import annotations

import random
from typing import Protocol

from ..tiles import iter_ids


class TrickMatch(Protocol):
    """What `voids` uses of a match (core/tricks/match.py's TrickMatch), typed here: the
    match imports this module (no circle, even for types: tests/test_import_cycles.py)."""

    hands: list[int]
    trick: list[tuple[int, int]]
    tricks: list[tuple[int, tuple[tuple[int, int], ...], int]]

    def _shallow_copy(self) -> TrickMatch: ...

    def playable(self, seat: int) -> int: ...


def voids(match: TrickMatch, among: int) -> list[int]:
    """Per seat, the mask of the tiles of `among` it cannot hold, from this round's tricks
    (taken and on the table) only."""
    out = [0, 0, 0, 0]
    if not among:
        return out
    scratch = match._shallow_copy()  # a probe: its hands hold the two tiles tried, no more
    scratch.hands = [0, 0, 0, 0]
    record = [trick for _, trick, _ in match.tricks]
    if match.trick:
        record.append(tuple(match.trick))
    candidates = list(iter_ids(among))
    for trick in record:
        for i, (seat, t) in enumerate(trick):
            scratch.trick = list(trick[:i])
            tbit = 1 << t
            for u in candidates:
                if (out[seat] >> u) & 1:
                    continue
                scratch.hands[seat] = tbit | (1 << u)
                if not (scratch.playable(seat) >> t) & 1:
                    out[seat] |= 1 << u
    return out


def deal_unseen(pool: list[int], sizes: dict[int, int], notin: list[int],
                rng: random.Random) -> dict[int, int]:
    """Hands (bitmasks) of `sizes` tiles each from `pool` at random, no seat getting a tile
    of its `notin`.  Tiles go one by one, in a random order, to a seat drawn in proportion to
    the room it has left among those that may take it and still leave a deal that can be
    completed (Hall's condition over the seats, checked at each step).  If the constraints
    cannot be met at all, they are dropped."""
    seats = sorted(sizes)
    n = len(seats)
    full = (1 << n) - 1
    kind = {t: sum(1 << i for i, s in enumerate(seats) if not (notin[s] >> t) & 1)
            for t in pool}
    room = [sizes[s] for s in seats]
    left = [0] * (1 << n)  # tiles still to deal, by the set of seats that may take them
    for t in pool:
        left[kind[t]] += 1
    if not _feasible(left, room, n):
        kind = dict.fromkeys(pool, full)
        left = [0] * (1 << n)
        left[full] = len(pool)
    tiles = pool[:]
    rng.shuffle(tiles)
    hands = {s: 0 for s in seats}
    if left[full] == len(pool):  # nothing known: cut the shuffled pool
        at = 0
        for i, s in enumerate(seats):
            hands[s] = sum(1 << t for t in tiles[at:at + room[i]])
            at += room[i]
        return hands
    tiles.sort(key=lambda t: kind[t].bit_count())  # the most constrained first
    for t in tiles:
        k = kind[t]
        left[k] -= 1
        options = []
        for i in range(n):
            if not (k >> i) & 1 or not room[i]:
                continue
            room[i] -= 1
            if _feasible(left, room, n):
                options.append(i)
            room[i] += 1
        if not options:  # cannot happen once the first check passed
            raise AssertionError("the deal of the unseen tiles ran into a dead end")
        pick = rng.choices(options, weights=[room[i] for i in options])[0]
        room[pick] -= 1
        hands[seats[pick]] |= 1 << t
    return hands


def _feasible(left: list[int], room: list[int], n: int) -> bool:
    """Whether the tiles still to deal (`left[k]`: those only the seats of the set `k` may
    take) fill the seats' `room` exactly: for every set of seats, the tiles that only they
    may take fit in their room (Hall's condition)."""
    if sum(left) != sum(room) or left[0]:
        return False
    for subset in range(1, (1 << n) - 1):
        only = sum(left[k] for k in range(1, 1 << n) if k & ~subset == 0)
        if only > sum(room[i] for i in range(n) if (subset >> i) & 1):
            return False
    return True
