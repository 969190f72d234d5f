"""Exact endgames of the trick games: alpha-beta over the last tricks of one imagined deal.

Every seat sees every hand (the deal is one the searcher imagined), the seats of the
searcher's team maximize the round's value under the contract (`tricks_playout.value_of`)
and the others minimize it.  The `expert` level calls it once few tricks are left; a
search of three tricks visits at most a few thousand positions.
"""

from __future__ import annotations

from ..tiles import iter_ids
from ..tricks.match import TrickMatch
from .tricks import tile_choice
from .tricks_playout import place, scratch, unplace, value_of

INF = float("inf")


def values_of_moves(world: TrickMatch, tids: list[int], team: int) -> list[float]:
    """The exact value, for `team`, of each tile in `tids` played now by the seat to move
    in `world` (a round in play whose hands are all known)."""
    g = scratch(world)
    seat = g.to_move
    assert seat is not None
    out = []
    for t in tids:
        taken = place(g, seat, t)
        out.append(_search(g, team, -INF, INF))
        unplace(g, seat, t, taken)
    return out


def _search(g: TrickMatch, team: int, alpha: float, beta: float) -> float:
    seat = g.to_move
    assert seat is not None
    hand = g.hands[seat]
    if not hand:
        return value_of(g, team)
    legal = g.playable(seat)
    tiles = list(iter_ids(legal))
    if len(tiles) > 1:  # the greedy choice first: cut-offs come sooner
        others = 0
        for x in range(4):
            if x != seat:
                others |= g.hands[x]
        first = tile_choice(g, seat, others)
        tiles.remove(first)
        tiles.insert(0, first)
    maximize = seat % 2 == team
    best = -INF if maximize else INF
    for t in tiles:
        taken = place(g, seat, t)
        v = _search(g, team, alpha, beta)
        unplace(g, seat, t, taken)
        if maximize:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best
