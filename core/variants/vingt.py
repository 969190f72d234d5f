"""`vingt`: the "20" game (004): lines of tiles totalling 20 on a grid, closed by markers."""

from __future__ import annotations

from ..grid.variant import TARGET, GridVariant


class Vingt(GridVariant):
    slug = "vingt"
    names = {"fr": "Le jeu du 20", "en": "The 20 game"}
    seeds = ("004",)
    min_players, max_players, default_players = 2, 4, 2
    markers = {2: 22, 3: 15, 4: 11}
    options = (TARGET,)
