"""`memory`: the memory game of 000 ("MEMORY"), 2 to 6 players, played by `core.memory`."""

from __future__ import annotations

import secrets
from typing import Any

from ..errors import bad_option
from ..memory.match import MemoryMatch, MemoryRules
from ..options import Option, resolve
from ..variant import Variant


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


def checked_seed(seed: Any) -> int:
    """The match's seed: a whole number, or a random one when None."""
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad_option("seed must be a whole number (got {got!r})", got=seed)
    return seed
