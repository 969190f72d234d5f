"""Computer players of the stacking games (tower, quinconce): they weigh the fall risk.

Both read only their seat's view: the legal moves and each one's chance of a
fall (``view["risks"]``), the tiles in the construction, their own hand.

* `StackRandomPlayer` picks at random among the moves whose risk is under a
  half (any move when none is).
* `StackGreedyPlayer` weighs getting rid of a tile against the fall: a move
  with a chance r of a fall on a construction of n tiles changes the hand by
  ``-(1 - r) + r * n`` tiles on average (a fall gives the mover the whole
  construction back); it takes the move that empties its hand fastest, then
  the one that keeps the hand's values varied, then the one worth most in
  pips, ``(1 - r) * p - r * (c + p)`` for a tile of p pips on a construction
  of c pips (what counts when a round is blocked), then one at random.
"""

from __future__ import annotations

import random
from typing import Any

from ..tiles import Tile
from .generic import Game, legal_moves_of
from .registry import register

SAFE_ENOUGH = 0.5


class StackRandomPlayer:
    """A legal move at random, shunning the very risky ones."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        moves = legal_moves_of(game)
        risks = game.view(game.to_move).get("risks") or {}
        calm = [m for m in moves if risks.get(str(m), 0.0) < SAFE_ENOUGH]
        return self.rng.choice(calm or moves)


class StackGreedyPlayer:
    """The move that empties the hand fastest once the fall risk is counted."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        moves = legal_moves_of(game)
        view = game.view(game.to_move)
        risks = view.get("risks") or {}
        built = sum(sum(Tile.parse(t)) for t in view.get("board") or [])
        built_tiles = len(view.get("board") or [])
        hand = [Tile.parse(t) for t in view.get("hand") or []]
        best: tuple[float, ...] | None = None
        choice = moves[0]
        for m in moves:
            tile = m.tile
            r = risks.get(str(m), 0.0)
            # a tile out of the hand, or (with chance r) the whole construction into it
            tiles = (1 - r) - r * built_tiles
            worth = (1 - r) * tile.pips - r * (built + tile.pips)
            rest = {v for t in hand if t != tile for v in t}
            key = (round(tiles, 6), len(rest), round(worth, 6), self.rng.random())
            if best is None or key > best:
                best, choice = key, m
        return choice


register("stack", "random", StackRandomPlayer)
register("stack", "greedy", StackGreedyPlayer)
