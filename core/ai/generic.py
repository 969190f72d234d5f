"""The generic computer players: they play any variant through the public interface alone.

* `RandomPlayer` picks a legal move at random.
* `GreedyPlayer` lays its heaviest legal tile; among equally heavy tiles it
  keeps variety (the most distinct values left in hand, doubles first since
  they are the hardest to place later) and picks the end that leaves an open
  value it still holds.  Moves that are not tiles (draw, pass, bids...) are
  taken only when nothing else is legal: a draw when it is offered, else at
  random.

Both always take points that are theirs to claim ("claim", "muggins").
Both are seeded, so a table of computer seats replays the same way.
"""


from __future__ import annotations

import random
from typing import Any, Protocol

from ..moves import CLAIM, DRAW, LEFT, MUGGINS, Move
from ..tiles import Tile


class Game(Protocol):
    to_move: int | None

    def legal_moves(self) -> list[Move]: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


class RandomPlayer:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        return claim_of(moves) or self.rng.choice(moves)


class GreedyPlayer:
    """The heaviest legal tile, keeping variety in hand."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        claim = claim_of(moves)
        if claim is not None:
            return claim
        tiles = [m for m in moves if m.tile is not None]
        if not tiles:
            draw = next((m for m in moves if m.kind == DRAW), None)
            return draw or self.rng.choice(moves)
        seat = game.to_move
        view = game.view(seat)
        hand = [Tile.parse(t) for t in view.get("hand", [])]
        ends = view.get("ends") or []
        best: tuple[Any, ...] | None = None
        choice = tiles[0]
        for m in tiles:
            key = (*self._score(m, hand, ends), self.rng.random())
            if best is None or key > best:
                best, choice = key, m
        return choice

    @staticmethod
    def _score(move: Move, hand: list[Tile], ends: list[int]) -> tuple[int, ...]:
        tile = move.tile
        assert tile is not None
        rest = [t for t in hand if t != tile]
        values = {v for t in rest for v in t}
        open_value = -1
        if len(ends) == 2 and move.end in (0, 1):
            covered = ends[0] if move.end == LEFT else ends[1]
            open_value = tile[1] if tile[0] == covered else tile[0]
        keeps_option = sum(1 for t in rest if open_value in t)
        return (tile.pips, len(values), int(tile.is_double), keeps_option)


def claim_of(moves: list[Move]) -> Move | None:
    """The move that takes points on offer ("claim", "muggins"), if listed."""
    for m in moves:
        if m.kind in (CLAIM, MUGGINS):
            return m
    return None
