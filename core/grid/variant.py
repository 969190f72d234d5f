"""The base of the grid variants: options turned into `GridRules` and `MatchRules`."""

from __future__ import annotations

from typing import Any, ClassVar

from ..options import Option, resolve
from ..scoring import MatchRules
from ..variant import Variant, checked_seed
from .match import GridMatch, GridRules

TARGET = Option("target", None, minimum=1, maximum=10_000, kind=int, optional=True,
                help="play rounds until someone reaches this score; a round's winner scores "
                "the markers the others have left, minus their own (none: one round)")


class GridVariant(Variant):
    """A variant of the grid family: builds a `GridMatch`."""

    family = "grid"
    markers: ClassVar[dict[int, int]] = {}  # markers per seat, by player count

    def grid_rules(self, players: int, o: dict[str, Any]) -> GridRules:
        return GridRules(markers=self.markers[players])

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="none", target=o.get("target"))

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> GridMatch:
        n = self.check_players(self.default_players if players is None else players)
        opts = resolve(self.slug, self.options, options)
        seed = checked_seed(seed)
        return GridMatch(self, n, seed, opts, self.grid_rules(n, opts),
                         self.match_rules(n, opts), deal)
