"""Computer players of the memory game: they remember what was turned up, up to a span.

A player reads its seat's view (the face-down cells, the tile turned up in
the turn in progress) and the public record of what was seen
(`MemoryMatch.reveals()`, what everyone at the table watched), of which it
remembers only the last `span` reveals: the random player remembers nothing
(it turns cells at random), the greedy one everything.  With what it
remembers it takes a known pair (the heaviest), matches the tile it has just
turned up when it knows a partner, and otherwise turns up a cell it does
not know (a chance to match, and something learnt).
"""

from __future__ import annotations

import random
from typing import Any

from ..tiles import Tile


class MemoryPlayer:
    """Memory with a limited span: the last `span` cells seen (None: all of them)."""

    name = "memory"
    span: int | None = None

    def __init__(self, seed: int | None = None, span: int | None = -1) -> None:
        self.rng = random.Random(seed)
        if span != -1:
            self.span = span

    def remembered(self, game: Any, down: set[str]) -> dict[str, Tile]:
        """Cell -> tile for the face-down cells this player remembers."""
        if self.span == 0:
            return {}
        seen = game.reveals()
        if self.span is not None:
            seen = seen[-self.span:]
        return {r["cell"]: Tile.parse(r["tile"]) for r in seen if r["cell"] in down}

    def choose(self, game: Any) -> Any:
        view = game.view(game.to_move)
        legal = {m.text: m for m in game.legal_moves()}
        if not legal:
            raise ValueError("no legal move: the game is over")
        known = self.remembered(game, set(legal))
        unknown = sorted(c for c in legal if c not in known)
        if view["board"]:  # the second cell of a turn: match the tile turned up
            first = Tile.parse(view["board"][0])
            partners = [(t.pips, c) for c, t in known.items() if set(t) & set(first)]
            if partners:
                return legal[max(partners)[1]]
        else:
            best = self._known_pair(known)
            if best is not None:
                return legal[best]
        pool = unknown or sorted(legal)
        return legal[self.rng.choice(pool)]

    @staticmethod
    def _known_pair(known: dict[str, Tile]) -> str | None:
        """The first cell of the heaviest pair among the remembered tiles."""
        cells = sorted(known)
        best: tuple[int, str] | None = None
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if set(known[a]) & set(known[b]):
                    weight = known[a].pips + known[b].pips
                    if best is None or weight > best[0]:
                        best = (weight, a)
        return None if best is None else best[1]


class RandomMemoryPlayer(MemoryPlayer):
    """Remembers nothing: any face-down cell."""

    name = "random"
    span = 0


class GreedyMemoryPlayer(MemoryPlayer):
    """Remembers every tile seen."""

    name = "greedy"
    span = None
