"""The computer player of the puzzles: it lays the solver's next placement.

It asks the puzzle solver (OR-Tools CP-SAT, `core.solitaire.puzzles.solver`)
for a solution that keeps the tiles on the board (the shipped one, or one it
found before, when the board agrees with it) and lays its first placement in
reading order (always one of `legal_moves()`); at a dead end it takes back the
tiles the solver names; without OR-Tools, or when the solver finds nothing in
time, it plays a legal move at random. Registered as the "random" and "greedy" player of the
"puzzle" family, so every computer seat can finish a puzzle.
"""

from __future__ import annotations

import random
from typing import Any

from .registry import register

SECONDS = 20.0  # the solver's time for one move


class PuzzlePlayer:
    """Solves the puzzle with the solver, one placement a move."""

    name = "solver"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> Any:
        from ..solitaire.puzzles import solver

        legal = game.legal_moves()
        if solver.available():
            move = None if game.broken() else solver.next_move(game, SECONDS)
            if move is not None:
                return move
            removals = solver.hint(game, 2, SECONDS).get("remove") or []
            if removals:
                return game.parse_move(removals[0])
        return self.rng.choice(legal)


register("puzzle", "random", PuzzlePlayer)
register("puzzle", "greedy", PuzzlePlayer)
