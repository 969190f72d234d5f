"""`quinconce` (001, "En quinconce"): flat and on-top plays alternate at the two
ends of the construction; the construction may fall as in `tower`."""

from __future__ import annotations

from typing import Any

from ..stack.match import StackRules
from ..stack.variant import COUNT, ROUNDS, StackVariant, double_six, hand_size


class Quinconce(StackVariant):
    slug = "quinconce"
    names = {"fr": "En quinconce", "en": "Quincunx"}
    options = (COUNT, ROUNDS)

    def stack_rules(self, players: int, o: dict[str, Any]) -> StackRules:
        return StackRules(tiles=double_six(), hand=hand_size(players), count=o["count"],
                          ends_only=True, alternate=True)
