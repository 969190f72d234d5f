"""`memory`: the memory game of 000 ("MEMORY"), 2 to 6 players, played by `core.memory`."""

from __future__ import annotations

from typing import Any

from ..memory.match import MemoryMatch, MemoryRules
from ..options import Option, resolve
from ..variant import Variant, checked_seed


class Memory(Variant):
    slug = "memory"
    names = {"fr": "Memory", "en": "Memory"}
    seeds = ("000",)
    family = "memory"
    min_players, max_players, default_players = 2, 6, 2
    options = (
        Option("again", True, kind=bool,
               help="a kept pair gives the player another turn (false: the turn passes)"),
    )

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> MemoryMatch:
        n = self.check_players(self.default_players if players is None else players)
        opts = resolve(self.slug, self.options, options)
        return MemoryMatch(self, n, checked_seed(seed), opts, MemoryRules(again=opts["again"]),
                           deal)

