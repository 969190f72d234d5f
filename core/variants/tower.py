"""`tower` (001, "Défi magnétique (en hauteur)"): tiles laid on top of or under
tiles already played, equal halves superposed; the tower may fall."""

from __future__ import annotations

from typing import Any

from ..options import Option
from ..stack.match import StackRules
from ..stack.variant import COUNT, ROUNDS, StackVariant, double_six, hand_size


class Tower(StackVariant):
    slug = "tower"
    names = {"fr": "Défi magnétique (en hauteur)", "en": "Magnetic tower"}
    options = (
        COUNT,
        ROUNDS,
        Option("ends_only", False, kind=bool,
               help="only the two ends of the construction take a tile (the book's variant)"),
        Option("parallel_start", True, kind=bool,
               help="the second tile lies in line with the first (the book's tip)"),
    )

    def stack_rules(self, players: int, o: dict[str, Any]) -> StackRules:
        return StackRules(tiles=double_six(), hand=hand_size(players), count=o["count"],
                          ends_only=o["ends_only"], parallel_start=o["parallel_start"])
