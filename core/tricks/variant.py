"""The base of the trick-taking variants: options turned into `TrickRules` and `MatchRules`."""

from __future__ import annotations

from typing import Any

from ..options import resolve
from ..scoring import MatchRules
from ..variant import Variant, checked_seed
from .match import TrickMatch
from .rules import TrickRules


class TrickVariant(Variant):
    """A trick-taking variant for four players in two teams (0+2 against 1+3)."""

    family = "tricks"
    min_players, max_players, default_players = 4, 4, 4

    def trick_rules(self, o: dict[str, Any]) -> TrickRules:
        raise NotImplementedError

    def preset(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options as a named preset completes them (none by default)."""
        return options

    def match_rules(self, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="none", target=o["target"])

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> TrickMatch:
        """A new match; `deal` fixes the first round's four hands (all 28 tiles)."""
        n = self.check_players(self.default_players if players is None else players)
        opts = resolve(self.slug, self.options, self.preset(options))
        seed = checked_seed(seed)
        return TrickMatch(self, n, seed, opts, self.trick_rules(opts), self.match_rules(opts),
                          deal)
