"""Computer players of the memory game: they remember what was turned up, and forget.

A player reads its seat's view (the face-down cells, the tile turned up in
the turn in progress) and the public record of what was seen
(`MemoryMatch.reveals()`, what everyone at the table watched). Like a person
it forgets: a tile seen `age` reveals ago (0: the last one turned up) is
still recalled with the chance ``retain ** age``, drawn once per reveal from
the player's seed, so a tile once forgotten stays forgotten until it is seen
again (each sight is a new chance to recall it). The levels differ only in
`retain`: `easy` forgets most (half of what it saw two reveals ago), `normal`
half after eight, `hard` after fourteen, `expert` little (half after a
hundred: about a whole game; `bench/ai_memory.py` measures the ladder). With
what it recalls it takes a known pair (the heaviest), matches the tile it has
just turned up when it knows a partner, and otherwise turns up a cell it does
not know (a chance to match, and something learnt). `span` (the last N
reveals only) is the older, sharp limit; ``span=0`` remembers nothing.
"""

from __future__ import annotations

import random
from typing import Any

from ..tiles import Tile
from .generic import legal_moves_of


def half_life(reveals: float) -> float:
    """The `retain` of a memory that recalls half of what it saw `reveals` reveals ago."""
    return 0.5 ** (1 / reveals)


class MemoryPlayer:
    """Memory that fades (`retain`, see the module) over the last `span` cells seen (None:
    all of them)."""

    name = "memory"
    span: int | None = None
    retain = 1.0  # the chance to still recall a tile, for each reveal since (1: never forgets)

    def __init__(self, seed: int | None = None, span: int | None = -1,
                 retain: float | None = None) -> None:
        self.rng = random.Random(seed)
        self._recall = random.Random(f"recall {seed}") if seed is not None else random.Random()
        self._draws: list[float] = []  # reveal index -> its draw: recalled while draw < chance
        if span != -1:
            self.span = span
        if retain is not None:
            self.retain = retain

    def remembered(self, game: Any, down: set[str]) -> dict[str, Tile]:
        """Cell -> tile for the face-down cells this player recalls now."""
        if self.span == 0:
            return {}
        seen = game.reveals()
        first = 0 if self.span is None else max(0, len(seen) - self.span)
        while len(self._draws) < len(seen):
            self._draws.append(self._recall.random())
        last = len(seen) - 1
        out: dict[str, Tile] = {}
        for i in range(first, len(seen)):
            r = seen[i]
            if r["cell"] in down and self._draws[i] < self.retain ** (last - i):
                out[r["cell"]] = Tile.parse(r["tile"])
        return out

    def choose(self, game: Any) -> Any:
        view = game.view(game.to_move)
        legal = {m.text: m for m in legal_moves_of(game)}
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
    """`easy`: forgets most (half of a tile seen two reveals ago)."""

    name = "random"
    retain = half_life(2)


class GreedyMemoryPlayer(MemoryPlayer):
    """`normal`: half of a tile seen eight reveals ago."""

    name = "greedy"
    retain = half_life(8)


class HardMemoryPlayer(MemoryPlayer):
    """`hard`: half of a tile seen fourteen reveals ago."""

    name = "hard"
    retain = half_life(14)


class ExpertMemoryPlayer(MemoryPlayer):
    """`expert`: forgets little (half of a tile seen a hundred reveals ago)."""

    name = "expert"
    retain = half_life(100)
