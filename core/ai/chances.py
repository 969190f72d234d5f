"""How likely a seat is to win the round after each of its moves: the searcher's playouts counted.

From the seat's own view only: the position is imagined again and again with
`game.determinized(seat, rng)` (the tiles it cannot see dealt at random as it may know
them), each legal move is played in every imagined deal, and the round is played out with
the searcher's playout (`core.ai.search.playout`).  A move's chance is the share of the
playouts whose round the seat's side won (a round won by several sides counts as a share).
Every move is tried on the same deals and playout seeds, so the figures compare moves, not
draws.  The trick games imagine their deals otherwise (`redealt`) and count hands won under
the contract: `core.ai.tricks_chances`.  A family that can imagine neither way has no chances
(`None`).
"""

from __future__ import annotations

import random
from typing import Any

from .search import playout
from .tricks_chances import trick_win_chances

WORLDS = 64


def win_chances(game: Any, worlds: int = WORLDS, seed: int = 0) -> dict[str, float] | None:
    """For each legal move of the seat to move (as written), the estimated chance that its
    side wins the round after playing it; None when the game cannot be imagined."""
    if game.over or not imaginable(game):
        return None
    if not hasattr(game, "determinized"):
        return trick_win_chances(game, worlds, seed)
    seat = game.to_move
    unit = game.scorer_of(seat)
    moves = game.legal_moves()
    wins = [0.0] * len(moves)
    rng = random.Random(seed)
    pips = game.ts.pips
    for _ in range(worlds):
        world = game.determinized(seat, rng)
        playout_seed = rng.getrandbits(32)
        before = len(world.round_results)
        for i, move in enumerate(moves):
            g = world.copy()
            g.play(move)
            if not g.over and len(g.round_results) == before:
                playout(g, unit, list(g.totals), pips, random.Random(playout_seed))
            wins[i] += won_share(g, unit, before)
    return {str(m): w / worlds for m, w in zip(moves, wins, strict=True)}


def imaginable(game: Any) -> bool:
    """Can a seat of this game imagine the tiles it cannot see (and so have chances)?"""
    return hasattr(game, "determinized") or hasattr(game, "redealt")


def won_share(g: Any, unit: int, before: int) -> float:
    """The share of the first round ended after `before` rounds that the side `unit` won."""
    if len(g.round_results) <= before:
        return 0.0
    winners = g.round_results[before]["winners"]
    sides = {g.scorer_of(s) for s in winners}
    return 1.0 / len(sides) if unit in sides else 0.0
