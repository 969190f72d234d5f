"""The grid family's computer players ("20" game): greedy on markers, and random.

`GridGreedy` looks at every legal play of its rack (`legal_moves()` lists
them with the markers each takes) and values a single tile with the best run
of single tiles it opens (on copies of the game); it picks the play placing
the most markers, then, among equal plays, the one leaving the grid least
open to the next player (`core.grid.board.exposure`), then at random (seeded).
`best_plays` is the same ranking for a chat's "best few plays".
"""

from __future__ import annotations

import random
from typing import Any

from ..grid.board import exposure
from ..grid.match import GridMatch
from ..grid.moves import GridMove
from ..moves import PASS, PLAY
from .generic import RandomPlayer, legal_moves_of

RUN_DEPTH = 3  # single tiles looked ahead in a run
RUN_WIDTH = 3  # next single tiles tried at each step of a run (the most markers first)
RUN_FIRST = 8  # single tiles whose run is looked at (the others count their own markers)
TIE_LIMIT = 60  # equal plays whose grid is scored for the tie-break


def run_value(game: GridMatch, move: GridMove, depth: int = RUN_DEPTH) -> int:
    """Markers a single tile places with the best run of single tiles after it (looking
    `depth` tiles ahead, `RUN_WIDTH` of them at each step)."""
    if depth <= 0 or move.kind != PLAY or len(move.tiles) != 1:
        return max(move.markers, 0)
    after = game.copy()
    seat = after.to_move
    after.play(move)
    if after.over or after.to_move != seat or not after.running:
        return move.markers
    more = sorted((m for m in after.legal_moves() if m.kind == PLAY),
                  key=lambda m: -m.markers)[:RUN_WIDTH]
    return move.markers + max((run_value(after, m, depth - 1) for m in more), default=0)


def ranked(game: GridMatch, rng: random.Random | None = None, limit: int | None = None
           ) -> list[tuple[int, int, GridMove]]:
    """(markers, -exposure, move) of the legal plays, best first (``limit`` of them)."""
    moves = [m for m in game.legal_moves() if m.kind == PLAY]
    if not moves:
        return []
    singles = sorted((m for m in moves if len(m.tiles) == 1), key=lambda m: -m.markers)
    looked = set(singles[:RUN_FIRST])
    valued = [(run_value(game, m) if m in looked else m.markers, m) for m in moves]
    keep = limit if limit is not None else 1
    out: list[tuple[int, int, GridMove]] = []
    groups: dict[int, list[GridMove]] = {}
    for value, m in valued:
        groups.setdefault(value, []).append(m)
    for value in sorted(groups, reverse=True):
        group = groups[value]
        if rng is not None:
            rng.shuffle(group)
        scored = []
        for m in group[:TIE_LIMIT]:
            after = game.copy()
            after.play(m)
            scored.append((value, -exposure(after.cells, after.halves), m))
        scored.sort(key=lambda x: (-x[1],))
        out += scored
        if len(out) >= keep:
            break
    return out[:keep]


def best_plays(game: GridMatch, n: int = 3) -> list[dict[str, Any]]:
    """The `n` best plays for the seat to move, each with what it does (for a chat's
    offer): the move text, the markers it places (with the run of single tiles it
    opens), and `GridMatch.preview`'s cells, markers and lines."""
    out = []
    for value, _, m in ranked(game, limit=n):
        info = game.preview(m)
        info.update({"move": m.text, "value": value, "tiles": [f"{a}-{b}" for a, b in m.tiles],
                     "single": len(m.tiles) == 1})
        out.append(info)
    return out


class GridGreedy:
    """The play placing the most markers (a single tile counted with its best run),
    the least open grid after it on a tie."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> GridMove:
        moves = legal_moves_of(game)
        best = ranked(game, self.rng)
        if not best:
            return next(m for m in moves if m.kind == PASS)
        value, _, move = best[0]
        if value <= 0 and game.running:
            return next(m for m in moves if m.kind == PASS)  # nothing more to gain
        return move


class GridRandom(RandomPlayer):
    """Any legal play, uniformly (the generic random player)."""
